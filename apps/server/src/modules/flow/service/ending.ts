/**
 * Ending instances before their end: 流程跟踪's delete (deleteInstance), and what ends with a caller, a
 * withdrawn call or a removed deployment (endInstance): tasks cancelled, waits fired, children ended, and
 * the timeline told why.
 */
import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../platform/auth/context';
import type { Db } from '../../../platform/db';
import { ApiError, notFound } from '../../../platform/http/errors';
import { flowHistory, flowInstance, flowTask, flowWait } from '../tables';
import { stored } from '../texts';

/**
 * Ends a running instance with a reason (流程跟踪's delete): it and the instances it called end. An instance
 * a running call activity waits for is not deleted on its own — its caller would wait for ever —: its
 * caller is deleted instead (which ends it too).
 */
export async function deleteInstance(db: Db, ctx: RequestContext, processInstanceId: string, reason: string) {
  await db.transaction(async (tx) => {
    const [caller] = await tx
      .select({ piid: flowWait.processInstanceId })
      .from(flowWait)
      .where(
        and(
          eq(flowWait.kind, 'call'),
          eq(flowWait.childInstanceId, processInstanceId),
          isNull(flowWait.firedAt),
        ),
      )
      .limit(1);
    if (caller) throw new ApiError(409, 'flowCalledInstance', { caller: caller.piid ?? '' });
    const ended = await endInstance(tx as unknown as Db, processInstanceId, reason, {
      userId: ctx.userId,
      tenantId: ctx.tenantId === DEFAULT_TENANT_ID ? undefined : ctx.tenantId,
    });
    if (!ended) throw notFound();
  });
}

/** The timeline's line for an instance ended before its end (no element of the diagram has this id). */
const ENDED_STEP = '__ended';

/** Why a called instance ends when the call activity that started it no longer waits (stored: read in either language). */
export const CALL_WITHDRAWN = stored('callWithdrawn');

/** The reason a called instance ends with when its caller ends (stored: read in either language). */
const CALLER_ENDED = stored('callerEnded');
const callerEnded = (reason: string) =>
  reason.startsWith(CALLER_ENDED) ? reason : `${CALLER_ENDED}: ${reason}`.slice(0, 500);

/**
 * Ends a running instance before its end (state `deleted`): its waiting tasks are cancelled (they leave every
 * list), nothing it waited on fires any more (timers, catches), and the instances its call activities
 * started end too, and theirs, in the same transaction. Answers false when it was not running.
 */
export async function endInstance(
  tx: Db,
  processInstanceId: string,
  reason: string,
  by: { userId?: string; tenantId?: string } = {},
): Promise<boolean> {
  const now = new Date();
  const where = [eq(flowInstance.processInstanceId, processInstanceId), eq(flowInstance.state, 'running')];
  if (by.tenantId) where.push(eq(flowInstance.tenantId, by.tenantId));
  const [instance] = await tx
    .update(flowInstance)
    .set({
      state: 'deleted',
      deleteReason: reason.slice(0, 500),
      endTime: now,
      updateTime: now,
      engineState: null,
      ...(by.userId ? { updateUser: by.userId } : {}),
    })
    .where(and(...where))
    .returning({ id: flowInstance.id, tenantId: flowInstance.tenantId });
  if (!instance) return false;
  await tx
    .update(flowTask)
    .set({ status: 2, endTime: now, comment: reason.slice(0, 1000) })
    .where(and(eq(flowTask.processInstanceId, processInstanceId), eq(flowTask.status, 0)));
  // the timeline records it: what was under way ends now, with the reason, and a last line says who ended it
  await tx
    .update(flowHistory)
    .set({ endTime: now, comment: sql`coalesce(${flowHistory.comment}, ${reason.slice(0, 1000)})` })
    .where(and(eq(flowHistory.processInstanceId, processInstanceId), isNull(flowHistory.endTime)));
  await tx.insert(flowHistory).values({
    tenantId: instance.tenantId,
    processInstanceId,
    executionId: `${ENDED_STEP}${processInstanceId}`.slice(0, 128),
    activityId: ENDED_STEP,
    activityName: stored('endedLine'),
    activityType: 'EndEvent',
    assignee: by.userId ?? null,
    comment: reason.slice(0, 1000),
    startTime: now,
    endTime: now,
  });
  // nothing it waited on fires any more; the children it waited for end with it
  const waits = await tx
    .update(flowWait)
    .set({ firedAt: now })
    .where(and(eq(flowWait.processInstanceId, processInstanceId), isNull(flowWait.firedAt)))
    .returning({ kind: flowWait.kind, childInstanceId: flowWait.childInstanceId });
  await endChildren(tx, waits, callerEnded(reason), by.userId);
  return true;
}

/** Ends, with `reason`, the child instances of call waits just given up (their caller no longer waits). */
export async function endChildren(
  tx: Db,
  waits: { kind: string; childInstanceId: string | null }[],
  reason: string,
  userId?: string,
) {
  for (const w of waits)
    if (w.kind === 'call' && w.childInstanceId) await endInstance(tx, w.childInstanceId, reason, { userId });
}
