import { and, asc, count, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { countKey, forgetCounts } from '../../platform/crud/count-cache';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { PageQuery, pagedList } from '../../platform/paging';
import { containsPattern, notDeleted, qualified } from '../../platform/sql';
import { startableXml } from './approvers';
import { countersignsAfter } from './countersigns';
import { definitionVisibleTo } from './service/deploy';
import { definitionXml } from './service/instances';
import { claimableBy, claimTask, completeTask } from './service/tasks';
import { dt, names } from './shared';
import { flowDefinition, flowInstance, flowTask } from './tables';
import { shownIn } from './texts';

/** My work (工作台): what the caller may start, claim (签收), do (待办), sent (已发) and did (办结). */

/** The instance columns a list row shows (never the saved engine state, which is large). */
const listedInstance = {
  processInstanceId: flowInstance.processInstanceId,
  processDefinitionId: flowInstance.processDefinitionId,
  processKey: flowInstance.processKey,
  processName: flowInstance.processName,
  category: flowInstance.category,
  businessId: flowInstance.businessId,
  startUser: flowInstance.startUser,
  startTime: flowInstance.startTime,
  endTime: flowInstance.endTime,
  state: flowInstance.state,
};

interface ListedInstance {
  processInstanceId: string;
  processDefinitionId: string;
  processKey: string;
  processName: string;
  category: string | null;
  businessId: string | null;
  startUser: string;
  state: string;
}

/** What a task row and a process row both show of their instance (names in the caller's language). */
function instanceColumns(instance: ListedInstance, version: number, n: Awaited<ReturnType<typeof names>>) {
  return {
    startUser: instance.startUser,
    startUserName: n.user(instance.startUser),
    category: instance.category ?? '',
    categoryName: n.category(instance.category),
    processInstanceId: instance.processInstanceId,
    processDefinitionId: instance.processDefinitionId,
    processDefinitionKey: instance.processKey,
    processDefinitionName: instance.processName,
    processDefinitionVersion: version,
    businessId: instance.businessId ?? '',
    processIsFinished: instance.state !== 'running' ? 'finished' : 'unfinished',
  };
}

const WORK_LISTS = ['/work/claim-list', '/work/todo-list', '/work/done-list'];
/** Task lists' totals change with every start, claim and completion. */
export function forgetWorkCounts() {
  for (const path of WORK_LISTS) forgetCounts(`flow-${path}`);
}

/** The filters every work list takes: process name (contains) and category. */
const WorkQuery = PageQuery.extend({
  processDefinitionName: z.string().max(64).optional(),
  category: z.string().max(32).optional(),
});
function instanceFilters(q: z.infer<typeof WorkQuery>): SQL[] {
  const conds: SQL[] = [];
  if (q.processDefinitionName)
    conds.push(ilike(flowInstance.processName, containsPattern(q.processDefinitionName)));
  if (q.category) conds.push(eq(flowInstance.category, q.category));
  return conds;
}

/** the caller's own tasks of the tenant, open (0) or done (1): the to-do and done lists, and the home */
export const assignedTasks = (status: 0 | 1) => async (ctx: RequestContext) =>
  and(
    eq(flowTask.tenantId, ctx.tenantId),
    eq(flowTask.status, status),
    eq(flowTask.assignee, ctx.userId),
  ) as SQL;

/** the caller's running applications (send-list's rows that still run): the home's part */
export const runningApplications = (ctx: RequestContext) =>
  and(
    eq(flowInstance.tenantId, ctx.tenantId),
    eq(flowInstance.startUser, ctx.userId),
    eq(flowInstance.state, 'running'),
  ) as SQL;

export async function workRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  /** What the caller may start: the latest active version of each process deployed for its tenant. */
  app.get(
    '/work/start-list',
    {
      schema: {
        querystring: PageQuery.extend({
          category: z.string().max(32).optional(),
          name: z.string().max(64).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'work_start');
      const q = req.query;
      const where: SQL[] = [
        notDeleted(flowDefinition.isDeleted),
        eq(flowDefinition.suspended, 0),
        definitionVisibleTo(ctx.tenantId),
      ];
      if (q.category) where.push(eq(flowDefinition.category, q.category));
      if (q.name) where.push(ilike(flowDefinition.name, containsPattern(q.name)));
      const latest = sql`${flowDefinition.version} = (select max(d2.version) from flow_definition d2 where d2.process_key = ${qualified(flowDefinition.processKey)} and d2.is_deleted = 0 and d2.suspended = 0)`;
      where.push(latest);
      const page = await pagedList(q, {
        rows: db
          .select()
          .from(flowDefinition)
          .where(and(...where))
          .orderBy(asc(flowDefinition.processKey)),
        total: db
          .select({ total: count() })
          .from(flowDefinition)
          .where(and(...where)),
        records: async (rows) => {
          const n = await names(db, [], req.lang);
          return rows.map((d) => ({
            id: d.processDefinitionId,
            processDefinitionId: d.processDefinitionId,
            processDefinitionKey: d.processKey,
            processDefinitionName: d.name,
            processDefinitionVersion: d.version,
            name: d.name,
            key: d.processKey,
            version: d.version,
            category: d.category ?? '',
            categoryName: n.category(d.category),
            createTime: dt(d.createTime),
          }));
        },
      });
      return ok(req, page);
    },
  );

  const taskList = (
    path: string,
    code: string,
    where: (ctx: RequestContext) => Promise<SQL>,
    order: 'create' | 'end',
  ) =>
    app.get(path, { schema: { querystring: WorkQuery } }, async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, code);
      const q = req.query;
      const conds: SQL[] = [await where(ctx), ...instanceFilters(q)];
      const cond = and(...conds);
      const page = await pagedList(q, {
        rows: db
          .select({ task: flowTask, instance: listedInstance, version: flowDefinition.version })
          .from(flowTask)
          .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
          .innerJoin(flowDefinition, eq(flowDefinition.id, flowInstance.definitionId))
          .where(cond)
          .orderBy(order === 'end' ? desc(flowTask.endTime) : desc(flowTask.createTime), desc(flowTask.id)),
        total: db
          .select({ total: count() })
          .from(flowTask)
          .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
          .where(cond),
        // a user's list totals, remembered briefly; starts, claims and completions drop them at once
        cacheTotalAs: countKey(`flow-${path}`, ctx, q),
        records: async (rows) => {
          const n = await names(
            db,
            rows.flatMap((r) => [r.task.assignee, r.instance.startUser]),
            req.lang,
          );
          return rows.map(({ task, instance, version }) => ({
            taskId: task.id,
            taskName: task.name,
            taskDefinitionKey: task.taskDefinitionKey,
            assignee: task.assignee ?? '',
            assigneeName: n.user(task.assignee),
            ...instanceColumns(instance, version, n),
            createTime: dt(task.createTime),
            endTime: dt(task.endTime),
            claimTime: dt(task.claimTime),
            flag: task.flag ?? '',
            comment: shownIn(task.comment ?? '', req.lang),
          }));
        },
      });
      return ok(req, page);
    });

  taskList('/work/claim-list', 'work_claim', (ctx) => claimableBy(db, ctx), 'create');
  taskList('/work/todo-list', 'work_todo', assignedTasks(0), 'create');
  taskList('/work/done-list', 'work_done', assignedTasks(1), 'end');

  /** Processes the caller started, with where each stands. */
  app.get('/work/send-list', { schema: { querystring: WorkQuery } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'work_send');
    const q = req.query;
    const conds: SQL[] = [
      eq(flowInstance.tenantId, ctx.tenantId),
      eq(flowInstance.startUser, ctx.userId),
      ...instanceFilters(q),
    ];
    const cond = and(...conds);
    const page = await pagedList(q, {
      rows: db
        .select({
          instance: listedInstance,
          version: flowDefinition.version,
          current: sql<string>`(select string_agg(t.name, ',') from flow_task t where t.process_instance_id = ${qualified(flowInstance.processInstanceId)} and t.status = 0)`,
        })
        .from(flowInstance)
        .innerJoin(flowDefinition, eq(flowDefinition.id, flowInstance.definitionId))
        .where(cond)
        .orderBy(desc(flowInstance.startTime), desc(flowInstance.id)),
      total: db.select({ total: count() }).from(flowInstance).where(cond),
      records: async (rows) => {
        const n = await names(
          db,
          rows.map((r) => r.instance.startUser),
          req.lang,
        );
        return rows.map(({ instance, version, current }) => ({
          taskName: current ?? '',
          ...instanceColumns(instance, version, n),
          createTime: dt(instance.startTime),
          endTime: dt(instance.endTime),
          state: instance.state,
        }));
      },
    });
    return ok(req, page);
  });

  /**
   * The countersigns whose users the caller picks, read from the deployed model: those the process begins
   * with (`processDefinitionId`: the start form, a definition the caller may start), or those right after
   * the caller's open task (`taskId`: its handle form). Each names its step and the variable its list is
   * sent as; none for a process without countersign.
   */
  app.get(
    '/work/countersigns',
    {
      schema: {
        querystring: z.object({
          processDefinitionId: z.string().min(1).max(128).optional(),
          taskId: idString.optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      const { processDefinitionId, taskId } = req.query;
      if (taskId) {
        await requirePermission(db, req, 'work_todo');
        const [task] = await db
          .select({ key: flowTask.taskDefinitionKey, definitionId: flowInstance.definitionId })
          .from(flowTask)
          .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
          .where(
            and(
              eq(flowTask.id, taskId),
              eq(flowTask.tenantId, ctx.tenantId),
              eq(flowTask.status, 0),
              eq(flowTask.assignee, ctx.userId),
            ),
          )
          .limit(1);
        if (!task) throw notFound();
        return ok(req, countersignsAfter(await definitionXml(db, task.definitionId), [task.key]));
      }
      if (!processDefinitionId)
        throw new FieldInputError('processDefinitionId', {
          zh: '请指定流程定义或任务',
          en: 'Name a process definition or a task',
        });
      await requirePermission(db, req, 'work_start');
      return ok(req, countersignsAfter(await startableXml(db, ctx, processDefinitionId)));
    },
  );

  app.post('/work/claim-task', { schema: { querystring: z.object({ taskId: idString }) } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'work_claim');
    await claimTask(db, ctx, req.query.taskId);
    forgetWorkCounts();
    return ok(req, true);
  });

  app.post(
    '/work/complete-task',
    {
      schema: {
        body: z.object({
          taskId: idString,
          processInstanceId: z.string().max(64).optional(),
          flag: z.string().max(16).optional(),
          comment: z.string().trim().min(1).max(1000),
          variables: z
            .record(
              z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
              // a list of ids: who a countersign goes to (a multi-instance task's collection)
              z.union([
                z.string().max(1000),
                z.number(),
                z.boolean(),
                z.null(),
                z.array(z.string().max(64)).max(100),
              ]),
            )
            .optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'work_todo');
      await completeTask(db, ctx, req.body, req.log);
      forgetWorkCounts();
      return ok(req, true);
    },
  );
}
