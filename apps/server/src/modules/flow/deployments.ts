import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, asc, count, desc, eq, ilike, ne, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { csvIdText, idString } from '../../platform/http/ids';
import { PageQuery, pagedList } from '../../platform/paging';
import { containsPattern, notDeleted } from '../../platform/sql';
import { decodeXml } from './runtime/moddle';
import { definitionVisibleTo, deleteDeployments, deploy } from './service/deploy';
import { dt, names, platformOnly, tenantList } from './shared';
import { flowDefinition, flowDeployment } from './tables';

/** Deployments (部署管理): the deployed definitions, their state, uploads and removal. */

/** a definition for every tenant, or for chosen ones (the manager's mode column) */
const scopeName = {
  all: { zh: '通用', en: 'All tenants' },
  chosen: { zh: '定制', en: 'Chosen tenants' },
} as const;

export async function deploymentRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

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
      const lang = req.lang === 'en' ? 'en' : 'zh';
      const page = await pagedList(q, {
        rows: db
          .select()
          .from(flowDefinition)
          .where(cond)
          .orderBy(asc(flowDefinition.processKey), desc(flowDefinition.version)),
        total: db.select({ total: count() }).from(flowDefinition).where(cond),
        records: async (rows) => {
          const n = await names(db, [], req.lang);
          return rows.map((d) => ({
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
        },
      });
      return ok(req, page);
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
      platformOnly(ctx);
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
    platformOnly(ctx);
    const fields: Record<string, string> = {};
    const files: { name: string; xml: string }[] = [];
    try {
      for await (const part of (req as FastifyRequest).parts({
        limits: { fileSize: 2 * 1024 * 1024, files: 20 },
      })) {
        if (part.type === 'file') {
          const buf = await part.toBuffer();
          files.push({ name: part.filename || 'process.bpmn', xml: decodeXml(buf) });
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
      platformOnly(ctx);
      await deleteDeployments(db, ctx, req.query.deploymentIds.split(','), req.query.cascade === 'true');
      return ok(req, true);
    },
  );

  // the deployments of a definition (for the manager's delete button)
  app.get(
    '/manager/deployment',
    { schema: { querystring: z.object({ deploymentId: idString }) } },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_manager');
      platformOnly(ctx);
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
