import type { ResourceDef } from '@smart/contracts';
import type { RequestContext } from '../auth/context';
import type { Db } from '../db';
import type { Lang } from '../http/messages';
import type { MountedResource, ResourceHooks, Row } from './binding';
import { refProblems } from './refs';
import { insertRows, transaction } from './write';

/**
 * Requests that come at the same moment, handled together: while one batch of a key is being handled, the
 * requests of that key that arrive wait, and the next batch takes them all (at most `max`). A lone request
 * is handled at once, as it would be without this; under load the batches grow by themselves, and the work
 * a batch shares (a transaction, its locks, each of its queries) is paid once for many requests.
 *
 * `run` answers each item of a batch with its result or its error, in order; an error of `run` itself is
 * every item's. A result may be a promise: the next batch starts once `run` has answered, while those
 * promises settle (a batch's rows written, its answers still being read).
 */
export function coalescing<T, R>(
  run: (items: T[]) => Promise<(R | Error | Promise<R>)[]>,
  { max = 64, inFlight = 1 }: { max?: number; inFlight?: number } = {},
): (key: string, item: T) => Promise<R> {
  interface Waiting {
    item: T;
    resolve: (r: R | PromiseLike<R>) => void;
    reject: (e: unknown) => void;
  }
  const queues = new Map<string, { waiting: Waiting[]; running: number }>();

  const drain = async (key: string, queue: { waiting: Waiting[]; running: number }) => {
    while (queue.waiting.length) {
      const batch = queue.waiting.splice(0, max);
      try {
        const results = await run(batch.map((w) => w.item));
        batch.forEach((w, i) => {
          const r = results[i];
          if (r instanceof Error) w.reject(r);
          else w.resolve(r);
        });
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    queue.running -= 1;
    if (!queue.running) queues.delete(key);
  };

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      let queue = queues.get(key);
      if (!queue) {
        queue = { waiting: [], running: 0 };
        queues.set(key, queue);
      }
      queue.waiting.push({ item, resolve, reject });
      if (queue.running < inFlight) {
        queue.running += 1;
        void drain(key, queue);
      }
    });
}

type CreateItem = { ctx: RequestContext; record: Record<string, unknown>; lang: Lang };
type Created = { answered: Row; extra?: Record<string, unknown> };

/**
 * The engine's coalesced creates (`coalesceCreates` on a binding): adds of one caller that come at the same
 * moment, written together — each one's own checks, the references of all at once, one transaction of the
 * write path with every record, the answers read at once. When that transaction is refused, each is
 * checked again and written alone, one after another, so it is refused or written exactly as it would have
 * been without the others. Answers `(caller key, item) => its answer`.
 */
export function coalescedCreates(e: {
  db: Db;
  /** the resource as mounted (asked for when a batch is written: it is mounted after this is made) */
  mounted: () => MountedResource;
  def: ResourceDef;
  hooks: ResourceHooks;
  check: MountedResource['check'];
  readBack: (ctx: RequestContext, rows: Row[], lang: Lang) => Promise<Row[]>;
  /** whether the definition has reference fields to check */
  refsChecked: boolean;
}) {
  const { db, mounted, def, hooks, check, readBack, refsChecked } = e;
  const writeAlone = (ctx: RequestContext, record: Record<string, unknown>) =>
    transaction(db, (tx) => insertRows(mounted(), ctx, tx, [record], { answer: true })).then((w) => w[0]);
  return coalescing<CreateItem, Created>(async (items) => {
    const ctx = items[0].ctx;
    const results: Error[] = items.map(() => new Error('not written'));
    let live: number[] = [];
    for (const [i, it] of items.entries()) {
      try {
        await check(it.ctx, it.record, 'create', undefined, undefined, { refs: false });
        live.push(i);
      } catch (err) {
        results[i] = err as Error;
      }
    }
    if (refsChecked) {
      const problems = await refProblems(
        db,
        ctx,
        def,
        live.map((i) => items[i].record),
      );
      live = live.filter((i, k) => {
        if (problems[k]) results[i] = problems[k]!;
        return !problems[k];
      });
    }
    const written = new Map<
      number,
      { row: Row; extra?: Record<string, unknown>; record: Record<string, unknown> }
    >();
    let together = live.length > 1;
    if (together) {
      // the hooks fill the records they are given: the batch writes copies, so each is whole again
      // when it is written alone
      const copies = live.map((i) => structuredClone(items[i].record));
      try {
        const rows = await transaction(db, async (tx) => {
          const out = await insertRows(mounted(), ctx, tx, copies, { answer: true });
          // a hook that left a record out: which answer is whose is unknown, so none is kept
          if (out.length !== copies.length) throw new Error('a batch record was left out');
          return out;
        });
        live.forEach((i, k) => {
          written.set(i, { ...rows[k], record: copies[k] });
        });
      } catch {
        together = false;
      }
    }
    // alone, one after another: each is checked again (a unique key two of the batch shared is the
    // second's clash, as it would have been) and written in its own transaction
    if (!together || live.length === 1)
      for (const i of live) {
        const it = items[i];
        try {
          if (live.length > 1)
            await check(it.ctx, it.record, 'create', undefined, undefined, { refs: false });
          const w = await writeAlone(it.ctx, it.record);
          written.set(i, { ...w, record: it.record });
        } catch (err) {
          results[i] = err as Error;
        }
      }
    // the rows are written: the next batch may start while these answers are read
    const answers = (async () => {
      const out = new Map<number, Created>();
      for (const [i, w] of written) {
        const it = items[i];
        await hooks.afterCommit?.(it.ctx, {
          mode: 'create',
          ids: [w.row.id as string],
          records: [w.record],
        });
      }
      for (const lang of new Set(items.map((it) => it.lang))) {
        const mine = [...written].filter(([i]) => items[i].lang === lang);
        if (!mine.length) continue;
        const answered = await readBack(
          ctx,
          mine.map(([, w]) => w.row),
          lang,
        );
        mine.forEach(([i, w], k) => {
          out.set(i, { answered: answered[k], extra: w.extra });
        });
      }
      return out;
    })();
    return results.map((r, i) => (written.has(i) ? answers.then((a) => a.get(i)!) : r));
  });
}
