import { type FieldDef, flowModelResource } from '@smart/contracts';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { rowConstraint } from '../../platform/access/scope';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { parseListQuery } from '../../platform/crud/query';
import type { Db } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { csvIdText, idString } from '../../platform/http/ids';
import { toPage } from '../../platform/paging';
import { deploy } from './service';
import { dt, platformOnly, tenantList } from './shared';
import { flowModel } from './tables';

/** Models (模型管理): BPMN diagrams designed in the browser, saved, then deployed as definitions. */

/**
 * The data-scope resource code of flow models (a resource's code is its key, as for the engine's
 * resources): a data scope with this code, granted to a role, narrows the models that role reads and writes.
 */
export const FLOW_MODEL_SCOPE = flowModelResource.key;

/**
 * The constraint every read and write of a model adds, as the resource engine's does for its tables: the
 * caller's tenant, not deleted, and the caller's data scope (the administrator's is all of its tenant).
 */
export function modelConstraint(db: Db, ctx: RequestContext): Promise<SQL> {
  return rowConstraint(db, ctx, FLOW_MODEL_SCOPE, {
    isDeleted: flowModel.isDeleted,
    tenantId: flowModel.tenantId,
    createUser: flowModel.createUser,
    createDept: flowModel.createDept,
    // a custom scope names a field of the definition
    fields: Object.fromEntries(
      flowModelResource.fields.map((f) => [f.name, flowModel[f.name as keyof typeof flowModel] as PgColumn]),
    ),
  });
}

/** What the list filters and sorts by: the definition's fields and the base columns it answers. */
const LIST_COLUMNS = {
  byField: new Map<string, { column: PgColumn; field?: FieldDef }>([
    ...flowModelResource.fields
      .filter((f) => f.name !== 'xml')
      .map((f) => [f.name, { column: flowModel[f.name as 'name'], field: f }] as const),
    ['id', { column: flowModel.id }],
    ['version', { column: flowModel.version }],
    ['createTime', { column: flowModel.createTime }],
    ['updateTime', { column: flowModel.updateTime }],
  ]),
};

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

export async function modelRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  /** A model within `scope` (the caller's constraint); any other id is "not found". */
  const modelOf = async (scope: SQL, id: string) => {
    const [row] = await db
      .select()
      .from(flowModel)
      .where(and(eq(flowModel.id, id), scope))
      .limit(1);
    if (!row) throw notFound();
    return row;
  };

  /** The models, paged; filters and sorting whitelisted by the definition (anything else is a 400). */
  app.get('/model/list', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'flow_model');
    const q = parseListQuery(flowModelResource, LIST_COLUMNS, req.query as Record<string, string>);
    const cond = and(await modelConstraint(db, ctx), ...q.where);
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
        .orderBy(...(q.orderBy.length ? q.orderBy : [desc(flowModel.updateTime)]))
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
  });

  app.get('/model/detail', { schema: { querystring: z.object({ id: idString }) } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'flow_model');
    const m = await modelOf(await modelConstraint(db, ctx), req.query.id);
    return ok(req, { ...m, createTime: dt(m.createTime), updateTime: dt(m.updateTime) });
  });

  app.post('/model/submit', { schema: { body: ModelBody } }, async (req) => {
    const ctx = requireCtx(req);
    const b = req.body;
    await requirePermission(db, req, b.id ? 'flow_model_edit' : 'flow_model_add');
    if (b.id) {
      const scope = await modelConstraint(db, ctx);
      const m = await modelOf(scope, b.id);
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
        .where(and(eq(flowModel.id, m.id), scope))
        .returning({ id: flowModel.id });
      if (!row) throw notFound();
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
    const ids = [...new Set(req.query.ids.split(','))];
    const scope = await modelConstraint(db, ctx);
    // all or nothing: an id the caller may not see (or that is gone) removes nothing
    await db.transaction(async (tx) => {
      const removed = await tx
        .update(flowModel)
        .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
        .where(and(inArray(flowModel.id, ids), scope))
        .returning({ id: flowModel.id });
      if (removed.length !== ids.length) throw notFound();
    });
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
      platformOnly(ctx);
      const m = await modelOf(await modelConstraint(db, ctx), req.body.modelId);
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
}
