/**
 * Tasks: who may claim one (claimableBy, the work lists' condition too), claiming it, and completing it —
 * the step's history line written with who did it and what they said, the instance moved on. Claiming and
 * completing are single conditional updates: of two racers exactly one wins.
 */
import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../../platform/auth/context';
import { type Db, schema } from '../../../platform/db';
import { ApiError, FieldInputError } from '../../../platform/http/errors';
import { notDeleted } from '../../../platform/sql';
import { checkTaskApprovers, missingList } from '../approvers';
import { continueProcess, type RunResult } from '../runtime/run';
import { flowInstance, flowTask } from '../tables';
import { FLOW_TEXTS, textOf } from '../texts';
import { apply, definitionXml } from './instances';
import { flowTransaction } from './outbox';

type SQLWrapperLike = typeof flowTask.candidateUsers | typeof flowTask.candidateGroups;

async function userRoleKeys(db: Db, ctx: RequestContext): Promise<string[]> {
  // candidate groups name roles by alias or id
  const roles = await db
    .select({ id: schema.role.id, alias: schema.role.roleAlias })
    .from(schema.userRole)
    .innerJoin(schema.role, eq(schema.role.id, schema.userRole.roleId))
    .where(and(eq(schema.userRole.userId, ctx.userId), notDeleted(schema.role.isDeleted)));
  return roles.flatMap((r) => [r.id, r.alias]);
}

/** The condition "the caller may claim this unassigned task". */
export async function claimableBy(db: Db, ctx: RequestContext): Promise<SQL> {
  const keys = await userRoleKeys(db, ctx);
  const csvHas = (col: SQLWrapperLike, v: string) => sql`(',' || ${col} || ',') like ${`%,${v},%`}`;
  return and(
    eq(flowTask.tenantId, ctx.tenantId),
    eq(flowTask.status, 0),
    isNull(flowTask.assignee),
    or(csvHas(flowTask.candidateUsers, ctx.userId), ...keys.map((k) => csvHas(flowTask.candidateGroups, k))),
  ) as SQL;
}

/** Takes an unassigned task the caller is a candidate for; of two racers one wins, the other is told. */
export async function claimTask(db: Db, ctx: RequestContext, taskId: string) {
  const [task] = await db
    .update(flowTask)
    .set({ assignee: ctx.userId, claimTime: new Date() })
    .where(and(eq(flowTask.id, taskId), await claimableBy(db, ctx)))
    .returning({ id: flowTask.id });
  if (!task) throw new FieldInputError('taskId', FLOW_TEXTS.notClaimable);
}

/**
 * What the start forms put into a process (who applied, the business row, the approver, the leave's days,
 * an application's title and content): the applicant's words, which no task holder may rewrite.
 */
const START_VARIABLES = new Set(['applyUser', 'businessId', 'taskUser', 'days', 'title', 'content']);

export async function completeTask(
  db: Db,
  ctx: RequestContext,
  input: { taskId: string; flag?: string; comment: string; variables?: Record<string, unknown> },
  log?: FastifyBaseLogger,
) {
  await flowTransaction(
    db,
    async (tx) => {
      const now = new Date();
      const flag = input.flag === 'ok' ? 'ok' : 'reject';
      const [task] = await tx
        .update(flowTask)
        .set({ status: 1, endTime: now, flag, comment: input.comment })
        .where(
          and(
            eq(flowTask.id, input.taskId),
            eq(flowTask.tenantId, ctx.tenantId),
            eq(flowTask.status, 0),
            eq(flowTask.assignee, ctx.userId),
          ),
        )
        .returning();
      if (!task) throw new FieldInputError('taskId', FLOW_TEXTS.taskGone);
      // the task's step of the timeline ends, with who did it and what they said; one approval of a
      // countersign is an iteration the engine records no step of: it gets a line of its own. Written in the
      // statement that locks the instance (a process that no longer runs rolls it back with the rest), and
      // the run's history need not end the step again
      const at = sql`${now.toISOString()}::timestamptz`;
      const step = tx.$with('step', { id: sql`id` }).as(
        sql`update flow_history set assignee = ${ctx.userId}::bigint, comment = ${input.comment}, end_time = ${at}
          where process_instance_id = ${task.processInstanceId} and execution_id = ${task.executionId}
          returning id`,
      );
      const added = tx.$with('added', { id: sql`id` }).as(
        sql`insert into flow_history (tenant_id, process_instance_id, execution_id, activity_id, activity_name,
            activity_type, start_time, end_time, assignee, comment)
          select ${task.tenantId}, ${task.processInstanceId}, ${task.executionId}, ${task.taskDefinitionKey},
            ${task.name}, 'UserTask', ${task.createTime.toISOString()}::timestamptz, ${at}, ${ctx.userId}::bigint,
            ${input.comment}
          where not exists (select 1 from step)
          returning id`,
      );
      const [instance] = await tx
        .with(step, added)
        .select()
        .from(flowInstance)
        .where(
          and(eq(flowInstance.processInstanceId, task.processInstanceId), eq(flowInstance.state, 'running')),
        )
        .for('update')
        .limit(1);
      if (!instance?.engineState) throw new FieldInputError('taskId', FLOW_TEXTS.processEnded);
      const locked = Object.keys(input.variables ?? {}).find((k) => START_VARIABLES.has(k));
      if (locked)
        throw new FieldInputError('variables', textOf(FLOW_TEXTS.applicantsVariable, { name: locked }));
      const xml = await definitionXml(tx, instance.definitionId);
      // the approvers its handler picked for a countersign after the task: users of the tenant, each once
      await checkTaskApprovers(tx, instance.tenantId, xml, input.variables);
      // what the process reads: the family's forms send flag 'ok' (同意) or none (驳回), read as flag 'ok' /
      // 'reject' and pass true / false (the task's row keeps that decision); a model's own value of flag
      // ('no', 'yes' …) reaches it as sent, and what `variables` name reaches it unchanged, over all of these
      const vars = {
        flag: input.flag || flag,
        comment: input.comment,
        pass: flag === 'ok',
        ...(input.variables ?? {}),
      };
      let run: RunResult;
      try {
        run = await continueProcess(
          instance.processInstanceId,
          xml,
          instance.engineState,
          { kind: 'execution', executionId: task.executionId, output: vars },
          JSON.parse(instance.variables ?? '{}'),
        );
      } catch (e) {
        // a countersign after the task, approved without its approvers: the handler is told which
        throw missingList(xml, e) ?? new ApiError(409, 'flowStuck', { reason: (e as Error).message });
      }
      run.history = run.history.filter((h) => h.kind !== 'end' || h.executionId !== task.executionId);
      await apply(tx, instance, run, 0);
    },
    log,
  );
}
