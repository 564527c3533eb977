import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, asc, eq, getTableColumns, inArray, isNull, lte, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, schema } from './db';

/**
 * The outbox: work that must follow a business transaction but never run inside it — a network call, an
 * SMS, a WeChat message, a storage callback — is written down in that transaction as a job (so it exists
 * if and only if the transaction commits) and run after the commit, holding no lock and no connection
 * while it waits on the world. Jobs are handled by kind (`registerJob`); each run claims its job for a
 * lease, and any server's poller (`runDueJobs`) takes up a job whose lease ran out (its server died) or
 * whose retry is due: every job runs at least once, so a handler must be idempotent — the job's id is
 * the same for every attempt of it, to be sent as the receiver's idempotency key. A job that fails is
 * tried again after a backoff (1, 2, 4, 8 minutes by default), and given up after its last attempt,
 * keeping its error. Rows live in `app_outbox` unless a kind names a store of its own (the workflow's
 * http actions stay on flow_wait, where the instance waits for them).
 *
 * A module's use of it — an SMS sent when an order is placed:
 *
 *   registerJob<{ phone: string; text: string }>({
 *     kind: 'sms.send',
 *     run: (job) => sms.send(job.payload.phone, job.payload.text, { idempotencyKey: job.id }),
 *   });
 *
 *   await outboxTransaction(db, async (tx) => {
 *     await tx.insert(order).values(row);
 *     await enqueue(tx, 'sms.send', { phone, text }, { tenantId: ctx.tenantId });
 *   }); // committed: the SMS is sent now; if that fails, a poller tries again later
 *
 * A handler that must write what its call brought in the same transaction as the job's end opens it
 * with `ctx.transaction` and ends the job there with `ctx.complete(tx)`, which answers false when the job
 * is no longer its own (withdrawn meanwhile, or its lease taken over): then it writes nothing.
 */

/** A job as its handler sees it. */
export interface Job<P> {
  /** the same for every attempt: the receiver's idempotency key */
  id: string;
  kind: string;
  payload: P;
  /** failed attempts before this one */
  attempts: number;
}

export interface JobContext {
  /** the database, outside any transaction */
  db: Db;
  log?: FastifyBaseLogger;
  /** a transaction whose jobs run after its commit, in this run */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Ends the job in `tx` (with what the handler writes there); false when it is no longer this run's. A job
   * whose handler does not call it is ended when the handler returns.
   */
  complete(tx: Db): Promise<boolean>;
}

/** A kind of job: its handler, and how it is retried. */
export interface JobKind<P> {
  kind: string;
  /** does the job; throws to have it tried again */
  run(job: Job<P>, ctx: JobContext): Promise<unknown>;
  /** where its rows are (default: app_outbox) */
  store?: OutboxStore<P>;
  /** how long a run may take before another server may run the job again (default a minute) */
  leaseMs?: number;
  /** how many attempts before it is given up (default 5) */
  attempts?: number;
  /** how long after its `failures`th failure it is tried again (default 1, 2, 4, 8 … minutes) */
  backoffMs?(failures: number): number;
}

/**
 * Where jobs are kept: a table, and which of its columns hold what the outbox reads and writes. `row`
 * makes a new job's other columns, `payload` reads them back (both by the table's property names).
 */
export interface OutboxStore<P> {
  table: PgTable;
  columns: {
    id: PgColumn;
    /** when it may run: now when written, the lease's end while claimed, the retry's time; null: given up */
    dueAt: PgColumn;
    /** failed attempts so far */
    attempts: PgColumn;
    /** the last failure */
    lastError: PgColumn;
    /** the run that holds its lease */
    claimedBy: PgColumn;
    /** when it was done (or withdrawn) */
    doneAt: PgColumn;
    /** the job's kind, in a table holding several kinds (a store of one kind has none) */
    kind?: PgColumn;
  };
  /** the table's rows that are jobs of this store */
  scope?: SQL;
  row(kind: string, payload: P, tenantId: string): Record<string, unknown>;
  payload(row: Record<string, unknown>): P;
}

/** The platform's own store: app_outbox, every kind's payload as JSON. */
export const APP_OUTBOX: OutboxStore<unknown> = {
  table: schema.outbox,
  columns: {
    id: schema.outbox.id,
    dueAt: schema.outbox.dueAt,
    attempts: schema.outbox.attempts,
    lastError: schema.outbox.lastError,
    claimedBy: schema.outbox.claimedBy,
    doneAt: schema.outbox.doneAt,
    kind: schema.outbox.kind,
  },
  row: (kind, payload, tenantId) => ({ tenantId, kind, payload: JSON.stringify(payload ?? null) }),
  payload: (row) => JSON.parse(String(row.payload)),
};

const DEFAULTS = {
  leaseMs: 60_000,
  attempts: 5,
  backoffMs: (failures: number) => 60_000 * 2 ** (failures - 1),
};
/** At most this many jobs run one after another after a commit (what they lead to included); a poller does the rest. */
const MAX_CHAIN = 64;

const kinds = new Map<string, Required<JobKind<unknown>>>();

/** Registers a kind of job (once, when its module loads). */
export function registerJob<P>(kind: JobKind<P>) {
  if (kinds.has(kind.kind)) throw new Error(`outbox job kind ${kind.kind} exists`);
  kinds.set(kind.kind, { ...DEFAULTS, store: APP_OUTBOX as OutboxStore<P>, ...kind } as never);
}

/** Forgets a kind (a test's, when it is done): its jobs are no longer run. */
export function unregisterJob(kind: string) {
  kinds.delete(kind);
}

function kindOf(name: string) {
  const kind = kinds.get(name);
  if (!kind) throw new Error(`no outbox job kind ${name}`);
  return kind;
}

/** A store's columns by the table's property names (what drizzle's set and returning use). */
const keysOf = new WeakMap<OutboxStore<unknown>, Record<keyof OutboxStore<unknown>['columns'], string>>();
function keys(store: OutboxStore<unknown>) {
  let found = keysOf.get(store);
  if (!found) {
    const columns = Object.entries(getTableColumns(store.table));
    const key = (c: PgColumn | undefined) => columns.find(([, col]) => col === c)?.[0] ?? '';
    found = {
      id: key(store.columns.id),
      dueAt: key(store.columns.dueAt),
      attempts: key(store.columns.attempts),
      lastError: key(store.columns.lastError),
      claimedBy: key(store.columns.claimedBy),
      doneAt: key(store.columns.doneAt),
      kind: key(store.columns.kind),
    };
    keysOf.set(store, found);
  }
  return found;
}

/**
 * The jobs written by each open outbox transaction, by its transaction handle (run after its commit). Kept
 * by handle, not in an AsyncLocalStorage: using one turns on async hooks for every promise of the server.
 */
const pending = new WeakMap<object, { kind: string; id: string }[]>();

/**
 * Writes a job in `tx`. In an outboxTransaction it runs after the commit; in any other transaction, or
 * when that run fails, a poller runs it. Answers its id.
 */
export async function enqueue<P>(tx: Db, kind: string, payload: P, opts: { tenantId?: string } = {}) {
  const { store } = kindOf(kind);
  const k = keys(store);
  const [row] = await tx
    .insert(store.table)
    .values({
      ...store.row(kind, payload, opts.tenantId ?? DEFAULT_TENANT_ID),
      [k.dueAt]: new Date(),
      [k.attempts]: 0,
    } as never)
    .returning({ id: store.columns.id });
  const id = String(row.id);
  pending.get(tx)?.push({ kind, id });
  return id;
}

/**
 * Runs `work` in a transaction and, once it has committed, the jobs it wrote (and what those lead to).
 * Inside another one (`db` is its handle) it is a savepoint of that one, whose jobs are that one's.
 */
export async function outboxTransaction<T>(
  db: Db,
  work: (tx: Db) => Promise<T>,
  log?: FastifyBaseLogger,
): Promise<T> {
  const queue = pending.get(db) ?? [];
  const inner = pending.has(db);
  const result = await db.transaction((tx) => {
    pending.set(tx, queue);
    return work(tx as unknown as Db);
  });
  if (!inner && queue.length) await runQueue(db, queue, log);
  return result;
}

/** A run's mark on the job it claims: its server, and itself (two runs of one process are told apart). */
const SERVER = `${hostname()}:${process.pid}`.slice(0, 55);
const claimMark = () => `${SERVER}:${randomUUID().slice(0, 8)}`;

/** Runs the queued jobs that are still due (one whose transaction is still open is not). */
async function runQueue(db: Db, queue: { kind: string; id: string }[], log?: FastifyBaseLogger) {
  for (let i = 0; i < queue.length && i < MAX_CHAIN; i++) {
    const kind = kinds.get(queue[i].kind);
    if (!kind) continue;
    const { store } = kind;
    const mark = claimMark();
    const now = new Date();
    const [row] = await db
      .update(store.table)
      .set(claimed(store, mark, now, kind.leaseMs))
      .where(
        and(
          eq(store.columns.id, queue[i].id),
          store.scope,
          isNull(store.columns.doneAt),
          lte(store.columns.dueAt, now),
        ),
      )
      .returning();
    if (row) await runClaimed(db, kind, row, mark, queue, log);
  }
}

const claimed = (store: OutboxStore<unknown>, mark: string, now: Date, leaseMs: number) => {
  const k = keys(store);
  return { [k.claimedBy]: mark, [k.dueAt]: new Date(now.getTime() + leaseMs) } as never;
};

/**
 * The poller's part: runs the jobs that are due — left by a server that died (their lease ran out), or to
 * be tried again — of every registered kind, `max` at most. Of two pollers each job goes to one (the
 * other skips its locked row). Answers how many ran.
 */
export async function runDueJobs(db: Db, log?: FastifyBaseLogger, max = 20) {
  let ran = 0;
  for (const kind of kinds.values()) {
    const { store } = kind;
    for (; ran < max; ran++) {
      const mark = claimMark();
      const now = new Date();
      const due = db
        .select({ id: store.columns.id })
        .from(store.table)
        .where(
          and(
            store.scope,
            store.columns.kind ? eq(store.columns.kind, kind.kind) : undefined,
            isNull(store.columns.doneAt),
            lte(store.columns.dueAt, now),
          ),
        )
        .orderBy(asc(store.columns.dueAt))
        .limit(1)
        .for('update', { skipLocked: true });
      const [row] = await db
        .update(store.table)
        .set(claimed(store, mark, now, kind.leaseMs))
        .where(inArray(store.columns.id, due))
        .returning();
      if (!row) break;
      const queue: { kind: string; id: string }[] = [];
      await runClaimed(db, kind, row, mark, queue, log);
      if (queue.length) await runQueue(db, queue, log);
    }
  }
  return ran;
}

/**
 * Runs one claimed job: its handler, then its end (unless the handler ended it itself); a failure is
 * noted, with the time of the next attempt or none when it was the last. Jobs that the handler's
 * transactions write are added to `queue`.
 */
async function runClaimed(
  db: Db,
  kind: Required<JobKind<unknown>>,
  row: Record<string, unknown>,
  mark: string,
  queue: { kind: string; id: string }[],
  log?: FastifyBaseLogger,
) {
  const { store } = kind;
  const k = keys(store);
  const id = String(row[k.id]);
  const attempts = Number(row[k.attempts] ?? 0);
  const mine = and(eq(store.columns.id, id), isNull(store.columns.doneAt), eq(store.columns.claimedBy, mark));
  let ended = false;
  const ctx: JobContext = {
    db,
    log,
    transaction: (work) =>
      db.transaction((tx) => {
        pending.set(tx, queue);
        return work(tx as unknown as Db);
      }),
    complete: async (tx) => {
      ended = true;
      const done = await tx
        .update(store.table)
        .set({ [k.doneAt]: new Date() } as never)
        .where(mine)
        .returning({ id: store.columns.id });
      return done.length > 0;
    },
  };
  try {
    await kind.run({ id, kind: kind.kind, payload: store.payload(row), attempts }, ctx);
    if (!ended) await ctx.complete(db);
  } catch (e) {
    const failures = attempts + 1;
    const again = failures < kind.attempts;
    await db
      .update(store.table)
      .set({
        [k.attempts]: failures,
        [k.lastError]: String((e as Error).message ?? e).slice(0, 255),
        [k.claimedBy]: null,
        [k.dueAt]: again ? new Date(Date.now() + kind.backoffMs(failures)) : null,
      } as never)
      .where(mine);
    log?.warn(
      { err: e, job: kind.kind, id, attempts: failures, again },
      again ? 'outbox job failed, tried again later' : 'outbox job failed, given up',
    );
  }
}
