import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { grantedCodes, requirePermission } from '../../platform/access/permissions';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { cachedCount, forgetCounts } from '../../platform/crud/count-cache';
import { countKey } from '../../platform/crud/engine';
import { type Db, schema } from '../../platform/db';
import { dictValueIn } from '../../platform/dicts';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, forbidden, notFound } from '../../platform/http/errors';
import { csvIdText, idString } from '../../platform/http/ids';
import type { Lang } from '../../platform/http/messages';
import { PageQuery, toPage } from '../../platform/paging';
import { containsPattern, notDeleted } from '../../platform/sql';
import {
  claimableBy,
  claimTask,
  completeTask,
  definitionVisibleTo,
  deleteDeployments,
  deleteInstance,
  deploy,
} from './service';
import { flowDefinition, flowDeployment, flowHistory, flowInstance, flowModel, flowTask } from './tables';

const tenantList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? v : v ? v.split(',') : []).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{6}$/)).max(500));

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

const WORK_LISTS = ['/work/claim-list', '/work/todo-list', '/work/done-list'];
/** Task lists' totals change with every start, claim and completion. */
export function forgetWorkCounts() {
  for (const path of WORK_LISTS) forgetCounts(`flow-${path}`);
}

/** The `flow` dictionary's categories by language, read at most every few seconds (list rows name them). */
const categories = new Map<Lang, { at: number; rows: Promise<{ key: string; value: string }[]> }>();
function flowCategories(db: Db, lang: Lang) {
  const kept = categories.get(lang);
  if (kept && Date.now() - kept.at < 5_000) return kept.rows;
  const rows = db
    .select({ key: schema.dict.dictKey, value: dictValueIn(lang) })
    .from(schema.dict)
    .where(
      and(eq(schema.dict.code, 'flow'), ne(schema.dict.parentId, '0'), notDeleted(schema.dict.isDeleted)),
    );
  categories.set(lang, { at: Date.now(), rows });
  return rows;
}

/** Names of users and of the `flow` dictionary's categories (in `lang`), for list rows. */
export async function names(db: Db, userIds: (string | null)[], lang: Lang = 'zh') {
  const ids = [...new Set(userIds.filter((x): x is string => !!x))];
  const users = ids.length
    ? await db
        .select({ id: schema.user.id, name: schema.user.realName, account: schema.user.account })
        .from(schema.user)
        .where(inArray(schema.user.id, ids))
    : [];
  const cats = await flowCategories(db, lang);
  return {
    user: (id: string | null) => {
      const u = users.find((x) => x.id === id);
      return u ? u.name || u.account : '';
    },
    category: (key: string | null) => cats.find((c) => c.key === key)?.value ?? '',
  };
}

const dt = (d: Date | null | undefined) => (d ? formatDateTime(d) : '');

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

/** The instances a caller may look at: its tenant's (another tenant's is "not found"). */
/**
 * A process instance the caller may read (its timeline, diagram, business record): one of its tenant, and
 * the caller started it, holds or held one of its tasks, may claim one, or follows processes (flow_follow,
 * the administrators). Anyone else is told it does not exist.
 */
export async function readableInstance(db: Db, ctx: RequestContext, processInstanceId: string) {
  const [i] = await db
    .select()
    .from(flowInstance)
    .where(
      and(eq(flowInstance.processInstanceId, processInstanceId), eq(flowInstance.tenantId, ctx.tenantId)),
    )
    .limit(1);
  if (!i) throw notFound();
  if (i.startUser === ctx.userId) return i;
  if ((await grantedCodes(db, ctx.roleIds)).has('flow_follow')) return i;
  const [task] = await db
    .select({ id: flowTask.id })
    .from(flowTask)
    .where(
      and(
        eq(flowTask.processInstanceId, i.processInstanceId),
        or(eq(flowTask.assignee, ctx.userId), await claimableBy(db, ctx)),
      ),
    )
    .limit(1);
  if (!task) throw notFound();
  return i;
}

export async function flowRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;
  /** a definition for every tenant, or for chosen ones (the manager's mode column) */
  const scopeName = {
    all: { zh: '通用', en: 'All tenants' },
    chosen: { zh: '定制', en: 'Chosen tenants' },
  } as const;

  const platform = (ctx: RequestContext) => {
    if (ctx.tenantId !== DEFAULT_TENANT_ID) throw forbidden();
  };

  // ---------------------------------------------------------------- my work: start, claim, todo, send, done

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
      const latest = sql`${flowDefinition.version} = (select max(d2.version) from flow_definition d2 where d2.process_key = ${flowDefinition.processKey} and d2.is_deleted = 0 and d2.suspended = 0)`;
      where.push(latest);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(flowDefinition)
          .where(and(...where))
          .orderBy(asc(flowDefinition.processKey))
          .limit(q.size)
          .offset((q.current - 1) * q.size),
        db
          .select({ total: count() })
          .from(flowDefinition)
          .where(and(...where)),
      ]);
      const n = await names(db, []);
      const records = rows.map((d) => ({
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
      return ok(req, toPage(records, Number(total), q.current, q.size));
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
      const [rows, total] = await Promise.all([
        db
          .select({ task: flowTask, instance: listedInstance, version: flowDefinition.version })
          .from(flowTask)
          .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
          .innerJoin(flowDefinition, eq(flowDefinition.id, flowInstance.definitionId))
          .where(cond)
          .orderBy(order === 'end' ? desc(flowTask.endTime) : desc(flowTask.createTime), desc(flowTask.id))
          .limit(q.size)
          .offset((q.current - 1) * q.size),
        // a user's list totals, remembered briefly; starts, claims and completions drop them at once
        cachedCount(countKey(`flow-${path}`, ctx, q), () =>
          db
            .select({ total: count() })
            .from(flowTask)
            .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowTask.processInstanceId))
            .where(cond)
            .then(([r]) => Number(r.total)),
        ),
      ]);
      const n = await names(
        db,
        rows.flatMap((r) => [r.task.assignee, r.instance.startUser]),
      );
      const records = rows.map(({ task, instance, version }) => ({
        taskId: task.id,
        taskName: task.name,
        taskDefinitionKey: task.taskDefinitionKey,
        assignee: task.assignee ?? '',
        assigneeName: n.user(task.assignee),
        startUser: instance.startUser,
        startUserName: n.user(instance.startUser),
        category: instance.category ?? '',
        categoryName: n.category(instance.category),
        createTime: dt(task.createTime),
        endTime: dt(task.endTime),
        claimTime: dt(task.claimTime),
        processInstanceId: instance.processInstanceId,
        processDefinitionId: instance.processDefinitionId,
        processDefinitionKey: instance.processKey,
        processDefinitionName: instance.processName,
        processDefinitionVersion: version,
        businessId: instance.businessId ?? '',
        processIsFinished: instance.state !== 'running' ? 'finished' : 'unfinished',
        flag: task.flag ?? '',
        comment: task.comment ?? '',
      }));
      return ok(req, toPage(records, total, q.current, q.size));
    });

  taskList('/work/claim-list', 'work_claim', (ctx) => claimableBy(db, ctx), 'create');
  taskList(
    '/work/todo-list',
    'work_todo',
    async (ctx) =>
      and(
        eq(flowTask.tenantId, ctx.tenantId),
        eq(flowTask.status, 0),
        eq(flowTask.assignee, ctx.userId),
      ) as SQL,
    'create',
  );
  taskList(
    '/work/done-list',
    'work_done',
    async (ctx) =>
      and(
        eq(flowTask.tenantId, ctx.tenantId),
        eq(flowTask.status, 1),
        eq(flowTask.assignee, ctx.userId),
      ) as SQL,
    'end',
  );

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
    const [rows, [{ total }]] = await Promise.all([
      db
        .select({
          instance: listedInstance,
          version: flowDefinition.version,
          current: sql<string>`(select string_agg(t.name, ',') from flow_task t where t.process_instance_id = ${flowInstance.processInstanceId} and t.status = 0)`,
        })
        .from(flowInstance)
        .innerJoin(flowDefinition, eq(flowDefinition.id, flowInstance.definitionId))
        .where(cond)
        .orderBy(desc(flowInstance.startTime), desc(flowInstance.id))
        .limit(q.size)
        .offset((q.current - 1) * q.size),
      db.select({ total: count() }).from(flowInstance).where(cond),
    ]);
    const n = await names(
      db,
      rows.map((r) => r.instance.startUser),
    );
    const records = rows.map(({ instance, version, current }) => ({
      taskName: current ?? '',
      startUser: instance.startUser,
      startUserName: n.user(instance.startUser),
      category: instance.category ?? '',
      categoryName: n.category(instance.category),
      createTime: dt(instance.startTime),
      endTime: dt(instance.endTime),
      processInstanceId: instance.processInstanceId,
      processDefinitionId: instance.processDefinitionId,
      processDefinitionKey: instance.processKey,
      processDefinitionName: instance.processName,
      processDefinitionVersion: version,
      businessId: instance.businessId ?? '',
      processIsFinished: instance.state !== 'running' ? 'finished' : 'unfinished',
      state: instance.state,
    }));
    return ok(req, toPage(records, Number(total), q.current, q.size));
  });

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
              z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]),
            )
            .optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'work_todo');
      await completeTask(db, ctx, req.body);
      forgetWorkCounts();
      return ok(req, true);
    },
  );

  // ---------------------------------------------------------------- models (designed in the browser)

  const ModelBody = z.object({
    id: idString.optional(),
    modelKey: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/),
    name: z.string().trim().min(1).max(255),
    category: z.string().max(32).optional().nullable(),
    description: z.string().max(1000).optional().nullable(),
    xml: z.string().max(2_000_000).optional().nullable(),
  });

  app.get(
    '/model/list',
    {
      schema: {
        querystring: PageQuery.extend({
          name: z.string().max(64).optional(),
          modelKey: z.string().max(64).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_model');
      const q = req.query;
      const conds: SQL[] = [eq(flowModel.tenantId, ctx.tenantId), notDeleted(flowModel.isDeleted)];
      if (q.name) conds.push(ilike(flowModel.name, containsPattern(q.name)));
      if (q.modelKey) conds.push(ilike(flowModel.modelKey, containsPattern(q.modelKey)));
      const cond = and(...conds);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({
            id: flowModel.id,
            modelKey: flowModel.modelKey,
            name: flowModel.name,
            category: flowModel.category,
            description: flowModel.description,
            version: flowModel.version,
            createTime: flowModel.createTime,
            updateTime: flowModel.updateTime,
          })
          .from(flowModel)
          .where(cond)
          .orderBy(desc(flowModel.updateTime))
          .limit(q.size)
          .offset((q.current - 1) * q.size),
        db.select({ total: count() }).from(flowModel).where(cond),
      ]);
      return ok(
        req,
        toPage(
          rows.map((r) => ({ ...r, createTime: dt(r.createTime), updateTime: dt(r.updateTime) })),
          Number(total),
          q.current,
          q.size,
        ),
      );
    },
  );

  const modelOf = async (ctx: RequestContext, id: string) => {
    const [row] = await db
      .select()
      .from(flowModel)
      .where(and(eq(flowModel.id, id), eq(flowModel.tenantId, ctx.tenantId), notDeleted(flowModel.isDeleted)))
      .limit(1);
    if (!row) throw notFound();
    return row;
  };

  app.get('/model/detail', { schema: { querystring: z.object({ id: idString }) } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'flow_model');
    const m = await modelOf(ctx, req.query.id);
    return ok(req, { ...m, createTime: dt(m.createTime), updateTime: dt(m.updateTime) });
  });

  app.post('/model/submit', { schema: { body: ModelBody } }, async (req) => {
    const ctx = requireCtx(req);
    const b = req.body;
    await requirePermission(db, req, b.id ? 'flow_model_edit' : 'flow_model_add');
    if (b.id) {
      const m = await modelOf(ctx, b.id);
      const [row] = await db
        .update(flowModel)
        .set({
          modelKey: b.modelKey,
          name: b.name,
          category: b.category ?? null,
          description: b.description ?? null,
          ...(b.xml !== undefined ? { xml: b.xml, version: m.version + 1 } : {}),
          updateUser: ctx.userId,
          updateTime: new Date(),
        })
        .where(eq(flowModel.id, m.id))
        .returning({ id: flowModel.id });
      return ok(req, row);
    }
    const [row] = await db
      .insert(flowModel)
      .values({
        tenantId: ctx.tenantId,
        modelKey: b.modelKey,
        name: b.name,
        category: b.category ?? null,
        description: b.description ?? null,
        xml: b.xml ?? null,
        createUser: ctx.userId,
        createDept: ctx.deptId || null,
      })
      .returning({ id: flowModel.id });
    return ok(req, row);
  });

  app.post('/model/remove', { schema: { querystring: z.object({ ids: csvIdText }) } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'flow_model_delete');
    const ids = req.query.ids.split(',');
    const removed = await db
      .update(flowModel)
      .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
      .where(
        and(
          inArray(flowModel.id, ids),
          eq(flowModel.tenantId, ctx.tenantId),
          notDeleted(flowModel.isDeleted),
        ),
      )
      .returning({ id: flowModel.id });
    if (removed.length !== new Set(ids).size) throw notFound();
    return ok(req, true);
  });

  /** Deploys a model: for every tenant (通用, no tenantIds) or for the chosen ones (定制). Platform tenant only. */
  app.post(
    '/model/deploy',
    {
      schema: {
        body: z.object({ modelId: idString, category: z.string().min(1).max(32), tenantIds: tenantList }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_model_deploy');
      platform(ctx);
      const m = await modelOf(ctx, req.body.modelId);
      if (!m.xml)
        throw new FieldInputError('modelId', {
          zh: '模型还没有设计流程图',
          en: 'The model has no diagram yet',
        });
      const result = await deploy(db, ctx, {
        name: m.name,
        category: req.body.category,
        tenantIds: req.body.tenantIds,
        files: [{ name: `${m.modelKey}.bpmn20.xml`, xml: m.xml }],
      });
      return ok(req, {
        deploymentId: result.deploymentId,
        processDefinitionId: result.definitions[0].processDefinitionId,
      });
    },
  );

  // ---------------------------------------------------------------- deployed definitions

  app.get(
    '/manager/list',
    {
      schema: {
        querystring: PageQuery.extend({
          /** 1: for every tenant (通用), 2: for chosen tenants (定制) */
          mode: z.enum(['1', '2']).optional(),
          processKey: z.string().max(64).optional(),
          category: z.string().max(32).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_manager');
      const q = req.query;
      const conds: SQL[] = [notDeleted(flowDefinition.isDeleted)];
      if (ctx.tenantId !== DEFAULT_TENANT_ID) conds.push(definitionVisibleTo(ctx.tenantId));
      if (q.mode === '1') conds.push(eq(flowDefinition.tenantIds, ''));
      if (q.mode === '2') conds.push(ne(flowDefinition.tenantIds, ''));
      if (q.processKey) conds.push(ilike(flowDefinition.processKey, containsPattern(q.processKey)));
      if (q.category) conds.push(eq(flowDefinition.category, q.category));
      const cond = and(...conds);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(flowDefinition)
          .where(cond)
          .orderBy(asc(flowDefinition.processKey), desc(flowDefinition.version))
          .limit(q.size)
          .offset((q.current - 1) * q.size),
        db.select({ total: count() }).from(flowDefinition).where(cond),
      ]);
      const n = await names(db, []);
      const lang = req.lang === 'en' ? 'en' : 'zh';
      const records = rows.map((d) => ({
        id: d.processDefinitionId,
        processDefinitionId: d.processDefinitionId,
        key: d.processKey,
        name: d.name,
        version: d.version,
        category: d.category ?? '',
        categoryName: n.category(d.category),
        suspensionState: d.suspended ? 2 : 1,
        state: d.suspended ? 'suspend' : 'active',
        deploymentId: d.deploymentId,
        deploymentTime: dt(d.createTime),
        tenantIds: d.tenantIds,
        tenantMode: d.tenantIds ? scopeName.chosen[lang] : scopeName.all[lang],
        resourceName: d.resourceName ?? '',
      }));
      return ok(req, toPage(records, Number(total), q.current, q.size));
    },
  );

  app.post(
    '/manager/change-state',
    {
      schema: {
        querystring: z.object({
          processId: z.string().min(1).max(128),
          state: z.enum(['active', 'suspend']),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_manager_state');
      platform(ctx);
      const [row] = await db
        .update(flowDefinition)
        .set({
          suspended: req.query.state === 'suspend' ? 1 : 0,
          updateUser: ctx.userId,
          updateTime: new Date(),
        })
        .where(
          and(
            eq(flowDefinition.processDefinitionId, req.query.processId),
            notDeleted(flowDefinition.isDeleted),
          ),
        )
        .returning({ id: flowDefinition.id });
      if (!row) throw notFound();
      return ok(req, true);
    },
  );

  /** Multipart: category, tenantIds, one or more BPMN files. Nothing is deployed unless every file is valid. */
  app.post('/manager/deploy-upload', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'flow_manager_upload');
    platform(ctx);
    const fields: Record<string, string> = {};
    const files: { name: string; xml: string }[] = [];
    try {
      for await (const part of (req as FastifyRequest).parts({
        limits: { fileSize: 2 * 1024 * 1024, files: 20 },
      })) {
        if (part.type === 'file') {
          const buf = await part.toBuffer();
          files.push({ name: part.filename || 'process.bpmn', xml: buf.toString('utf8') });
        } else fields[part.fieldname] = String(part.value ?? '');
      }
    } catch (err) {
      // a limit keeps its own answer; an empty or cut-off body holds no file
      if ((err as { statusCode?: number }).statusCode) throw err;
      throw new FieldInputError('files', { zh: '请选择流程文件', en: 'please choose a process file' });
    }
    const category = z.string().min(1).max(32).safeParse(fields.category);
    if (!category.success)
      throw new FieldInputError('category', { zh: '请选择流程类型', en: 'please choose a category' });
    const tenantIds = tenantList.safeParse(fields.tenantIds);
    if (!tenantIds.success)
      throw new FieldInputError('tenantIds', { zh: '租户编号格式不正确', en: 'Incorrect tenant ids' });
    const result = await deploy(db, ctx, { category: category.data, tenantIds: tenantIds.data, files });
    return ok(req, {
      deploymentId: result.deploymentId,
      processDefinitionIds: result.definitions.map((d) => d.processDefinitionId),
    });
  });

  app.post(
    '/manager/delete-deployment',
    {
      schema: {
        querystring: z.object({
          deploymentIds: csvIdText,
          cascade: z.enum(['true', 'false']).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_manager_delete');
      platform(ctx);
      await deleteDeployments(db, ctx, req.query.deploymentIds.split(','), req.query.cascade === 'true');
      return ok(req, true);
    },
  );

  // ---------------------------------------------------------------- follow: running instances

  app.get(
    '/follow/list',
    {
      schema: {
        querystring: PageQuery.extend({
          processDefinitionKey: z.string().max(64).optional(),
          processInstanceId: z.string().max(64).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_follow');
      const q = req.query;
      const conds: SQL[] = [eq(flowInstance.tenantId, ctx.tenantId), eq(flowInstance.state, 'running')];
      if (q.processDefinitionKey)
        conds.push(ilike(flowInstance.processKey, containsPattern(q.processDefinitionKey)));
      if (q.processInstanceId) conds.push(eq(flowInstance.processInstanceId, q.processInstanceId));
      const cond = and(...conds);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(flowInstance)
          .where(cond)
          .orderBy(desc(flowInstance.startTime))
          .limit(q.size)
          .offset((q.current - 1) * q.size),
        db.select({ total: count() }).from(flowInstance).where(cond),
      ]);
      const n = await names(
        db,
        rows.map((r) => r.startUser),
      );
      const records = rows.map((i) => ({
        processInstanceId: i.processInstanceId,
        processDefinitionId: i.processDefinitionId,
        processDefinitionKey: i.processKey,
        processDefinitionName: i.processName,
        businessId: i.businessId ?? '',
        startUser: i.startUser,
        startUserName: n.user(i.startUser),
        category: i.category ?? '',
        categoryName: n.category(i.category),
        createTime: dt(i.startTime),
      }));
      return ok(req, toPage(records, Number(total), q.current, q.size));
    },
  );

  app.post(
    '/follow/delete-process-instance',
    {
      schema: {
        querystring: z.object({
          processInstanceId: z.string().min(1).max(64),
          deleteReason: z.string().trim().min(1).max(500),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_follow_delete');
      await deleteInstance(db, ctx, req.query.processInstanceId, req.query.deleteReason);
      return ok(req, true);
    },
  );

  // ---------------------------------------------------------------- diagrams and history

  const instanceOf = (ctx: RequestContext, processInstanceId: string) =>
    readableInstance(db, ctx, processInstanceId);

  app.get(
    '/process/model-view',
    {
      schema: {
        querystring: z.object({
          processInstanceId: z.string().max(64).optional(),
          processDefinitionId: z.string().max(128).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      const { processInstanceId, processDefinitionId } = req.query;
      let defId = processDefinitionId;
      let flow: { historyActivityId: string; historyActivityType: string; endTime: string }[] = [];
      if (processInstanceId) {
        const i = await instanceOf(ctx, processInstanceId);
        defId = i.processDefinitionId;
        const rows = await db
          .select()
          .from(flowHistory)
          .where(eq(flowHistory.processInstanceId, i.processInstanceId))
          .orderBy(asc(flowHistory.startTime), asc(flowHistory.id));
        flow = rows.map((h) => ({
          historyActivityId: h.activityId,
          historyActivityType: h.activityType,
          endTime: dt(h.endTime),
        }));
      }
      if (!defId)
        throw new FieldInputError('processInstanceId', {
          zh: '请指定流程实例或流程定义',
          en: 'Name a process instance or definition',
        });
      const [def] = await db
        .select({ xml: flowDefinition.xml })
        .from(flowDefinition)
        .where(and(eq(flowDefinition.processDefinitionId, defId), definitionVisibleTo(ctx.tenantId)))
        .limit(1);
      if (!def) throw notFound();
      return ok(req, { xml: def.xml, flow });
    },
  );

  app.get(
    '/process/history-flow-list',
    { schema: { querystring: z.object({ processInstanceId: z.string().min(1).max(64) }) } },
    async (req) => {
      const ctx = requireCtx(req);
      const i = await instanceOf(ctx, req.query.processInstanceId);
      const rows = await db
        .select()
        .from(flowHistory)
        .where(
          and(
            eq(flowHistory.processInstanceId, i.processInstanceId),
            inArray(flowHistory.activityType, ['StartEvent', 'UserTask', 'EndEvent']),
          ),
        )
        .orderBy(asc(flowHistory.startTime), asc(flowHistory.id));
      // a waiting task's assignee is on its task row until it is completed
      const pending = await db
        .select({ executionId: flowTask.executionId, assignee: flowTask.assignee })
        .from(flowTask)
        .where(and(eq(flowTask.processInstanceId, i.processInstanceId), isNotNull(flowTask.assignee)));
      const n = await names(db, [
        ...rows.map((r) => r.assignee),
        ...pending.map((p) => p.assignee),
        i.startUser,
      ]);
      const duration = (a: Date, b: Date | null) => {
        if (!b) return '';
        const s = Math.max(0, Math.round((b.getTime() - a.getTime()) / 1000));
        const d = Math.floor(s / 86400);
        const h = Math.floor((s % 86400) / 3600);
        const m = Math.floor((s % 3600) / 60);
        return req.lang === 'en'
          ? `${d ? `${d}d ` : ''}${h ? `${h}h ` : ''}${m}m ${s % 60}s`
          : `${d ? `${d}天` : ''}${h ? `${h}小时` : ''}${m}分${s % 60}秒`;
      };
      return ok(
        req,
        rows.map((h) => {
          const assignee =
            h.activityType === 'StartEvent'
              ? i.startUser
              : (h.assignee ?? pending.find((p) => p.executionId === h.executionId)?.assignee ?? null);
          return {
            historyActivityId: h.activityId,
            historyActivityName: h.activityName ?? h.activityId,
            historyActivityType: h.activityType,
            assignee: assignee ?? '',
            assigneeName: n.user(assignee),
            createTime: dt(h.startTime),
            endTime: dt(h.endTime),
            durationTime: duration(h.startTime, h.endTime),
            comment: h.comment ?? '',
          };
        }),
      );
    },
  );

  // the deployments of a definition (for the manager's delete button)
  app.get(
    '/manager/deployment',
    { schema: { querystring: z.object({ deploymentId: idString }) } },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_manager');
      platform(ctx);
      const [d] = await db
        .select()
        .from(flowDeployment)
        .where(and(eq(flowDeployment.id, req.query.deploymentId), notDeleted(flowDeployment.isDeleted)))
        .limit(1);
      if (!d) throw notFound();
      return ok(req, { ...d, createTime: dt(d.createTime) });
    },
  );
}
