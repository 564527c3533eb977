import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db';
import { runDueJobs } from '../../platform/outbox';
import { notDeleted } from '../../platform/sql';
import { dueOf, type StartTimer } from './runtime/starts';
import { advance, startDefinition } from './service/instances';
import { flowTransaction } from './service/outbox';
import { flowDefinition, flowWait } from './tables';

/**
 * Workflow timers: every server polls flow_wait for timers that are due and fires each in one transaction
 * that claims its row (`fired_at`, `claimed_by`: of two servers exactly one gets it, the other skips the
 * locked row) and runs its instance, the instance row locked. A timer that came due while no server ran
 * fires at the next start. A failed firing rolls back and is tried again a minute later. The poller also
 * runs the outbox's jobs that are due (platform/outbox.ts runDueJobs: the service tasks' network calls, and
 * any other kind's, left by a server that died or to be tried again).
 */

/** Fires the timers due now; answers how many fired. */
export async function fireDueTimers(db: Db, serverId: string, log?: FastifyBaseLogger, max = 100) {
  let fired = 0;
  for (let i = 0; i < max; i++) {
    const now = new Date();
    let claimed: string | undefined;
    try {
      const done = await flowTransaction(
        db,
        async (tx) => {
          const [row] = await tx
            .update(flowWait)
            .set({ claimedBy: serverId, firedAt: now })
            .where(
              eq(
                flowWait.id,
                sql`(select w.id from flow_wait w where w.kind in ('timer', 'start-timer') and w.fired_at is null and w.due_at <= ${now} order by w.due_at limit 1 for update skip locked)`,
              ),
            )
            .returning();
          if (!row) return false;
          claimed = row.id;
          if (row.kind === 'timer' && row.processInstanceId)
            await advance(tx, row.processInstanceId, { kind: 'time' });
          else if (row.kind === 'start-timer') await fireStartTimer(tx, row, now);
          return true;
        },
        log,
      );
      if (!done) break;
      fired++;
    } catch (e) {
      log?.error({ err: e, timer: claimed }, 'workflow timer failed');
      if (!claimed) break;
      await db
        .update(flowWait)
        .set({ dueAt: new Date(Date.now() + 60_000) })
        .where(and(eq(flowWait.id, claimed), isNull(flowWait.firedAt)));
    }
  }
  return fired;
}

/** A timer start event: starts an instance for the deployer, and writes the cycle's next firing. */
async function fireStartTimer(tx: Db, row: typeof flowWait.$inferSelect, now: Date) {
  const [def] = await tx
    .select()
    .from(flowDefinition)
    .where(and(eq(flowDefinition.id, row.definitionId ?? '0'), notDeleted(flowDefinition.isDeleted)))
    .limit(1);
  if (!def?.createUser) return;
  if (!def.suspended)
    await startDefinition(tx, { tenantId: row.tenantId, userId: def.createUser, deptId: '' }, def, {
      variables: {},
      entry: row.activityId ?? undefined,
    });
  if (!row.repeat || !row.spec) return;
  const [kind, ...rest] = row.spec.split(':');
  let next = dueOf(kind as StartTimer['kind'], rest.join(':'), row.dueAt ?? now).dueAt;
  // a cycle that was missed while no server ran fires once, then keeps its rhythm from now
  if (next <= now) next = dueOf(kind as StartTimer['kind'], rest.join(':'), now).dueAt;
  await tx.insert(flowWait).values({
    tenantId: row.tenantId,
    kind: 'start-timer',
    definitionId: row.definitionId,
    activityId: row.activityId,
    dueAt: next,
    repeat: row.repeat > 0 ? row.repeat - 1 : -1,
    spec: row.spec,
  });
}

/** the looks under way of this process's pollers */
const underWay = new Set<Promise<unknown>>();
/** Once every poller of this process has finished the look it has under way (a test, before writing jobs). */
export async function pollersIdle(): Promise<void> {
  await Promise.all(underWay);
}

/** This server's poller: every `intervalMs`, and once as soon as the server is ready. */
export function startTimerPoller(app: FastifyInstance, db: Db, intervalMs: number) {
  const serverId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let interval: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = fireDueTimers(db, serverId, app.log)
      .then(() => runDueJobs(db, app.log))
      .catch((e) => app.log.error({ err: e }, 'workflow timers'))
      .finally(() => {
        running = undefined;
      });
    const look = running;
    underWay.add(look);
    void look.finally(() => underWay.delete(look));
  };
  app.addHook('onReady', async () => {
    interval = setInterval(tick, intervalMs);
    interval.unref();
    tick();
  });
  app.addHook('onClose', async () => {
    stopped = true;
    clearInterval(interval);
    await running;
  });
}
