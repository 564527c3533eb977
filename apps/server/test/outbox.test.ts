import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollersIdle } from '../src/modules/flow/timers';
import { type Db, schema } from '../src/platform/db';
import {
  enqueue,
  type Job,
  type JobContext,
  outboxTransaction,
  registerJob,
  runDueJobs,
  unregisterJob,
} from '../src/platform/outbox';
import { until } from './flow-kit';
import { startTestServer, type TestServer } from './harness';

/**
 * The platform outbox (platform/outbox.ts) on the real database: a job written in a business transaction
 * runs after its commit and never when the transaction rolls back; a run holds a lease that another
 * poller takes over once it has run out; a failed job is tried again after its backoff and given up after
 * its last attempt, keeping its error; every attempt of a job carries the same id (its idempotency key).
 */

let s: TestServer;
let db: Db;

/** What each test's handler is told to do, and what the handlers saw (by job id). */
const seen: { id: string; payload: unknown; attempts: number }[] = [];
let behaviour: (job: Job<unknown>, ctx: JobContext) => Promise<unknown> = async () => {};
const KIND = 'test.outbox';
const SHORT_LEASE = 'test.outbox-lease';
const TWO_ATTEMPTS = 'test.outbox-twice';

beforeAll(async () => {
  // the server's own poller ticks once at its start, never again during the test
  s = await startTestServer({ FLOW_TIMER_INTERVAL_MS: '3600000' });
  db = s.database.db;
  // its look at the start may still be under way: done before a test writes a job it could take
  await pollersIdle();
  const run = async (job: Job<unknown>, ctx: JobContext) => {
    seen.push({ id: job.id, payload: job.payload, attempts: job.attempts });
    return behaviour(job, ctx);
  };
  registerJob({ kind: KIND, run });
  registerJob({ kind: SHORT_LEASE, run, leaseMs: 300 });
  registerJob({ kind: TWO_ATTEMPTS, run, attempts: 2 });
});
afterAll(async () => {
  for (const k of [KIND, SHORT_LEASE, TWO_ATTEMPTS]) unregisterJob(k);
  await s?.close();
});

const row = async (id: string) => {
  const [r] = await db.select().from(schema.outbox).where(eq(schema.outbox.id, id));
  return r;
};
/** writes one job in a transaction of its own, run after the commit as any job is */
const write = (kind: string, payload: unknown) =>
  outboxTransaction(db, (tx) => enqueue(tx, kind, payload, { tenantId: '000042' }));
const ranFor = (id: string) => seen.filter((x) => x.id === id);
/** the job's next try is due now, as if its backoff had passed */
const dueNow = (id: string) =>
  db
    .update(schema.outbox)
    .set({ dueAt: new Date(Date.now() - 1) })
    .where(eq(schema.outbox.id, id));

describe('the outbox', () => {
  it('runs a job once its transaction has committed, not before', async () => {
    // what the handler sees of its job's row from outside the transaction: there only once committed
    const visible: boolean[] = [];
    behaviour = async (job) => {
      visible.push(!!(await row(job.id)));
    };
    const id = await outboxTransaction(db, async (tx) => {
      const jobId = await enqueue(tx, KIND, { to: '13800000000' }, { tenantId: '000042' });
      expect(ranFor(jobId)).toEqual([]);
      return jobId;
    });
    expect(visible).toEqual([true]);
    expect(ranFor(id)).toEqual([{ id, payload: { to: '13800000000' }, attempts: 0 }]);
    const done = await row(id);
    expect(done).toMatchObject({ kind: KIND, tenantId: '000042', attempts: 0, lastError: null });
    expect(done.doneAt).not.toBeNull();
    expect(done.claimedBy).toBeTruthy();
    // a poller finds nothing left to do
    await runDueJobs(db);
    expect(ranFor(id)).toHaveLength(1);
  });

  it('never runs a job written in a transaction that rolled back', async () => {
    behaviour = async () => {};
    let id = '';
    await expect(
      outboxTransaction(db, async (tx) => {
        id = await enqueue(tx, KIND, { rolledBack: true });
        throw new Error('the business transaction fails');
      }),
    ).rejects.toThrow('the business transaction fails');
    expect(id).not.toBe('');
    expect(await row(id)).toBeUndefined();
    await runDueJobs(db);
    expect(ranFor(id)).toEqual([]);
    expect(seen.some((x) => (x.payload as { rolledBack?: boolean }).rolledBack)).toBe(false);
  });

  it('a run holds its lease; once it runs out, a second poller runs the job, and the first cannot end it', async () => {
    // the first run takes its time (its server might as well have died); later ones end at once
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const ended: boolean[] = [];
    behaviour = async (job, ctx) => {
      if (job.payload && ranFor(job.id).length === 1) await gate;
      await ctx.transaction(async (tx) => {
        ended.push(await ctx.complete(tx));
      });
    };
    // written outside an outbox transaction: nobody runs it until a poller finds it
    const id = await db.transaction((tx) => enqueue(tx as unknown as Db, SHORT_LEASE, { lease: true }));
    expect(ranFor(id)).toEqual([]);
    const first = runDueJobs(db);
    expect(await until(() => ranFor(id).length === 1)).toBe(true);
    // the lease holds: another poller leaves the job alone
    await runDueJobs(db);
    expect(ranFor(id)).toHaveLength(1);
    expect((await row(id)).doneAt).toBeNull();
    // the lease runs out: the next poller runs it again, under the same id, and ends it
    await new Promise((r) => setTimeout(r, 400));
    await runDueJobs(db);
    expect(ranFor(id).map((x) => [x.id, x.attempts])).toEqual([
      [id, 0],
      [id, 0],
    ]);
    expect(ended).toEqual([true]);
    const second = await row(id);
    expect(second.doneAt).not.toBeNull();
    // the first run comes back: the job is no longer its own, and it cannot end it again
    open();
    await first;
    expect(ended).toEqual([true, false]);
    expect(await row(id)).toEqual(second);
  });

  it('a failed job is tried again after its backoff (1, then 2 minutes), under the same id', async () => {
    let fail = true;
    behaviour = async () => {
      if (fail) throw new Error('no answer');
    };
    const id = await write(KIND, { flaky: true });
    let r = await row(id);
    expect(r).toMatchObject({ attempts: 1, lastError: 'no answer', claimedBy: null, doneAt: null });
    expect(r.dueAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(r.dueAt!.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    // not due yet: a poller leaves it
    await runDueJobs(db);
    expect(ranFor(id)).toHaveLength(1);
    // the minute has passed: the second attempt fails too, and waits twice as long
    await dueNow(id);
    await runDueJobs(db);
    r = await row(id);
    expect(r).toMatchObject({ attempts: 2, lastError: 'no answer', claimedBy: null, doneAt: null });
    expect(r.dueAt!.getTime()).toBeGreaterThan(Date.now() + 110_000);
    expect(r.dueAt!.getTime()).toBeLessThanOrEqual(Date.now() + 120_000);
    // the third succeeds
    fail = false;
    await dueNow(id);
    await runDueJobs(db);
    expect(ranFor(id).map((x) => [x.id, x.attempts])).toEqual([
      [id, 0],
      [id, 1],
      [id, 2],
    ]);
    r = await row(id);
    expect(r.doneAt).not.toBeNull();
    expect(r.attempts).toBe(2);
  });

  it('a job is given up after its last attempt, keeping its error', async () => {
    behaviour = async () => {
      throw new Error('refused: 503');
    };
    const id = await write(TWO_ATTEMPTS, { doomed: true });
    expect(await row(id)).toMatchObject({ attempts: 1, lastError: 'refused: 503', doneAt: null });
    await dueNow(id);
    await runDueJobs(db);
    const r = await row(id);
    expect(r).toMatchObject({ attempts: 2, lastError: 'refused: 503', claimedBy: null, doneAt: null });
    expect(r.dueAt).toBeNull();
    // nothing runs it any more
    await runDueJobs(db);
    expect(ranFor(id)).toHaveLength(2);
  });
});
