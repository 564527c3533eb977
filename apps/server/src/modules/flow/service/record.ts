/**
 * Writing down what a run produced: in one statement (writeTogether), the instance's saved state and
 * variables, the user tasks that began waiting (their receivers resolved) and its history's new lines; then
 * the ends of earlier lines, its waits (waits.ts), and the tasks the process no longer waits on withdrawn.
 */
import { isId } from '@smart/contracts';
import { and, eq, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import type { Db } from '../../../platform/db';
import { resolve } from '../expressions';
import type { WaitingTask } from '../runtime/recorder';
import type { RunResult } from '../runtime/run';
import { flowHistory, flowInstance, flowTask, flowWait } from '../tables';
import { recordWaits } from './waits';

function taskRows(
  instance: { tenantId: string; processInstanceId: string; processDefinitionId: string },
  waiting: WaitingTask[],
  vars: Record<string, unknown>,
) {
  return waiting.map((w) => {
    // an iteration of a multi-instance task resolves with its own element variable (会签: one approver each)
    const scope = w.variables ? { ...vars, ...w.variables } : vars;
    const list = (text: string | undefined) =>
      text
        ? text
            .split(',')
            .map((p) => String(resolve(p.trim(), scope) ?? ''))
            .filter(Boolean)
            .join(',')
        : null;
    const assignee = w.assignee ? String(resolve(w.assignee, scope) ?? '') : '';
    return {
      tenantId: instance.tenantId,
      processInstanceId: instance.processInstanceId,
      processDefinitionId: instance.processDefinitionId,
      executionId: w.executionId,
      taskDefinitionKey: w.activityId,
      name: w.name,
      assignee: isId(assignee) ? assignee : null,
      candidateUsers: list(w.candidateUsers),
      candidateGroups: list(w.candidateGroups),
    };
  });
}

/**
 * The run's history as new lines and the ends of earlier ones, whatever its length: what began in this run
 * is inserted with its end when it also ended (a gateway, an event, a flow), and only what began in an
 * earlier run (the task just completed) is updated — instead of a statement per event, in the instance's lock.
 */
function historyOf(instance: typeof flowInstance.$inferSelect, history: RunResult['history']) {
  const rows: (typeof flowHistory.$inferInsert)[] = [];
  const begun = new Map<string, typeof flowHistory.$inferInsert>();
  const endedEarlier: { executionId: string; at: Date }[] = [];
  for (const h of history) {
    const row = {
      tenantId: instance.tenantId,
      processInstanceId: instance.processInstanceId,
      executionId: h.executionId,
      activityId: h.activityId,
      activityType: h.activityType,
      startTime: h.at,
    };
    if (h.kind === 'start') {
      const started = { ...row, activityName: h.activityName ?? null };
      rows.push(started);
      begun.set(h.executionId, started);
    } else if (h.activityType === 'sequenceFlow') rows.push({ ...row, endTime: h.at });
    else {
      const started = begun.get(h.executionId);
      if (started) started.endTime = h.at;
      else endedEarlier.push({ executionId: h.executionId, at: h.at });
    }
  }
  return { rows, endedEarlier };
}

/** An insert or update that can be one of a statement's data-modifying CTEs. */
interface Write extends PromiseLike<unknown> {
  returning(fields: { done: SQL.Aliased<number> }): unknown;
}

/**
 * Writes that touch rows of their own (none reads what another writes) in one statement, each a
 * data-modifying CTE: a round trip each saved. The statement's main part fires the call wait of the
 * instance's caller and answers it (`fireCallerWait`), or reads the first CTE's.
 */
async function writeTogether(
  tx: Db,
  writes: Write[],
  now: Date,
  fireCallerWait?: typeof flowInstance.$inferSelect,
): Promise<(typeof flowWait.$inferSelect)[]> {
  if (!fireCallerWait && writes.length <= 1) {
    await writes[0];
    return [];
  }
  const ctes = writes.map((w, i) =>
    tx
      .$with(`write${i}`)
      .as(
        w.returning({ done: sql<number>`1`.as('done') }) as TypedQueryBuilder<{ done: SQL.Aliased<number> }>,
      ),
  );
  if (fireCallerWait)
    return tx
      .with(...ctes)
      .update(flowWait)
      .set({ firedAt: now })
      .where(callerWaitOn(fireCallerWait))
      .returning();
  await tx
    .with(...ctes)
    .select()
    .from(ctes[0]);
  return [];
}

/** What a run leaves in its instance's row (an instance that ended keeps no engine state). */
export const instanceAfter = (run: Pick<RunResult, 'ended' | 'state' | 'variables'>, now: Date) => ({
  engineState: run.ended ? null : run.state,
  variables: JSON.stringify(run.variables),
  state: run.ended ? 'finished' : 'running',
  endTime: run.ended ? now : null,
});

/** The open wait of the call activity that started an instance (there is none for one started otherwise). */
export const callerWaitOn = (instance: { processInstanceId: string; tenantId: string }) =>
  and(
    eq(flowWait.kind, 'call'),
    eq(flowWait.childInstanceId, instance.processInstanceId),
    eq(flowWait.tenantId, instance.tenantId),
    isNull(flowWait.firedAt),
  );

/**
 * Writes what a run produced: the saved state, new tasks, history. `fireCallerWait` (a run that ended): the
 * wait of the call activity that started the instance, if any, is marked fired in the statement that records
 * the end, and answered (apply moves the caller on).
 */
export async function record(
  tx: Db,
  instance: typeof flowInstance.$inferSelect,
  run: RunResult,
  isNew = false,
  fireCallerWait = false,
): Promise<(typeof flowWait.$inferSelect)[]> {
  const now = new Date();
  // the instance's row, its new tasks and the history's new lines: one statement
  const writes: Write[] = [];
  if (!isNew)
    writes.push(
      tx
        .update(flowInstance)
        .set({ ...instanceAfter(run, now), updateTime: now })
        .where(eq(flowInstance.id, instance.id)),
    );
  if (run.waiting.length) {
    const known = new Set<string | null>(
      isNew || run.known?.fresh
        ? []
        : (
            await tx
              .select({ e: flowTask.executionId })
              .from(flowTask)
              .where(eq(flowTask.processInstanceId, instance.processInstanceId))
          ).map((r) => r.e),
    );
    const fresh = taskRows(instance, run.waiting, run.variables).filter((t) => !known.has(t.executionId));
    if (fresh.length) writes.push(tx.insert(flowTask).values(fresh));
  }
  const history = historyOf(instance, run.history);
  if (history.rows.length) writes.push(tx.insert(flowHistory).values(history.rows));
  const fired = await writeTogether(tx, writes, now, fireCallerWait ? instance : undefined);
  for (const e of history.endedEarlier)
    await tx
      .update(flowHistory)
      .set({ endTime: e.at })
      .where(
        and(
          eq(flowHistory.processInstanceId, instance.processInstanceId),
          eq(flowHistory.executionId, e.executionId),
        ),
      );
  await recordWaits(tx, instance, run, now, isNew);
  if (run.ended) {
    // a process that ended leaves no task waiting (a terminate end cancels the rest), unless the run says
    // none but the one completed waited
    if (!run.known?.kept)
      await tx
        .update(flowTask)
        .set({ status: 2, endTime: now })
        .where(and(eq(flowTask.processInstanceId, instance.processInstanceId), eq(flowTask.status, 0)));
  } else if (run.stillWaiting.length && !isNew && !run.known?.kept) {
    // a task the process no longer waits on (a countersign whose completion condition was met) is withdrawn
    // (not looked for when the run says every task that waited before still waits)
    await tx
      .update(flowTask)
      .set({ status: 2, endTime: now })
      .where(
        and(
          eq(flowTask.processInstanceId, instance.processInstanceId),
          eq(flowTask.status, 0),
          notInArray(flowTask.executionId, run.stillWaiting),
        ),
      );
  }
  return fired;
}
