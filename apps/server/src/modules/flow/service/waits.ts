/**
 * What an instance waits on besides its tasks, kept in flow_wait in step with each run: its timers, its
 * message and signal catches; calls and actions it no longer waits on given up (a called child ends). And
 * the reminder a boundary timer on a user task sends.
 */
import { isId } from '@smart/contracts';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import type { RunResult } from '../runtime/run';
import { type flowInstance, flowNotice, flowTask, flowWait } from '../tables';
import { FLOW_TEXTS, textOf } from '../texts';
import { CALL_WITHDRAWN, endChildren } from './ending';

type Instance = typeof flowInstance.$inferSelect;

/** The reminder of a boundary timer on a user task: a notice to whoever holds (or may claim) the task. */
export async function remind(tx: Db, instance: Instance, taskKey: string) {
  const tasks = await tx
    .select()
    .from(flowTask)
    .where(
      and(
        eq(flowTask.processInstanceId, instance.processInstanceId),
        eq(flowTask.tenantId, instance.tenantId),
        eq(flowTask.taskDefinitionKey, taskKey),
        eq(flowTask.status, 0),
      ),
    );
  const rows = tasks.flatMap((t) => {
    const title = textOf(FLOW_TEXTS.taskDue, { task: t.name, process: instance.processName });
    return (t.assignee ? [t.assignee] : (t.candidateUsers ?? '').split(',').filter(isId)).map((userId) => ({
      tenantId: instance.tenantId,
      userId,
      processInstanceId: instance.processInstanceId,
      taskId: t.id,
      title: title.zh,
      titleEn: title.en,
    }));
  });
  if (rows.length) await tx.insert(flowNotice).values(rows);
}

/**
 * Keeps flow_wait in step with a run: the timers the instance now waits on (a new one is written, one no
 * longer waited on — fired or cancelled — is marked fired), and its message and signal catches.
 */
export async function recordWaits(tx: Db, instance: Instance, run: RunResult, now: Date, isNew = false) {
  const mine = and(eq(flowWait.processInstanceId, instance.processInstanceId), isNull(flowWait.firedAt));
  const open =
    isNew || run.known?.quiet
      ? []
      : await tx
          .select({
            id: flowWait.id,
            kind: flowWait.kind,
            executionId: flowWait.executionId,
            dueAt: flowWait.dueAt,
            childInstanceId: flowWait.childInstanceId,
          })
          .from(flowWait)
          .where(and(mine, inArray(flowWait.kind, ['timer', 'message', 'signal', 'call', 'action'])));
  // a call activity or an action the instance no longer waits on (an event interrupted it, or the instance
  // ended without it) is given up: the child a call started ends, and the children of that one
  const withdrawn = open.filter(
    (o) =>
      (o.kind === 'call' || o.kind === 'action') &&
      (run.ended || !run.stillWaiting.includes(o.executionId ?? '')),
  );
  if (withdrawn.length) {
    await tx
      .update(flowWait)
      .set({ firedAt: now })
      .where(
        inArray(
          flowWait.id,
          withdrawn.map((w) => w.id),
        ),
      );
    await endChildren(tx, withdrawn, CALL_WITHDRAWN);
  }
  const key = (executionId: string | null, at: Date | null) => `${executionId}|${at?.getTime()}`;
  const live = new Set(run.timers.map((t) => key(t.executionId, t.expireAt)));
  const known = new Set(open.filter((o) => o.kind === 'timer').map((o) => key(o.executionId, o.dueAt)));
  const gone = open
    .filter(
      (o) =>
        o.kind !== 'call' &&
        o.kind !== 'action' &&
        (o.kind !== 'timer' || !live.has(key(o.executionId, o.dueAt))),
    )
    .map((o) => o.id);
  // catches are written again as they are now; a timer that no longer waits is done
  if (gone.length) await tx.update(flowWait).set({ firedAt: now }).where(inArray(flowWait.id, gone));
  const fresh = [
    ...run.timers
      .filter((t) => !known.has(key(t.executionId, t.expireAt)))
      .map((t) => ({
        tenantId: instance.tenantId,
        kind: 'timer',
        processInstanceId: instance.processInstanceId,
        executionId: t.executionId,
        activityId: t.activityId,
        dueAt: t.expireAt,
      })),
    ...run.subscriptions.map((s) => ({
      tenantId: instance.tenantId,
      kind: s.kind,
      processInstanceId: instance.processInstanceId,
      executionId: s.executionId,
      activityId: s.activityId,
      name: s.name,
    })),
  ];
  if (fresh.length) await tx.insert(flowWait).values(fresh);
}
