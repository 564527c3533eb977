import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { ok } from '../../platform/http/envelope';
import { PageQuery, pagedList } from '../../platform/paging';
import { containsPattern } from '../../platform/sql';
import { deleteInstance } from './service/ending';
import { dt, names } from './shared';
import { flowInstance } from './tables';

/** Follow (流程跟踪): the tenant's running instances, and ending one with a reason. */
export async function followRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

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
      const page = await pagedList(q, {
        rows: db.select().from(flowInstance).where(cond).orderBy(desc(flowInstance.startTime)),
        total: db.select({ total: count() }).from(flowInstance).where(cond),
        records: async (rows) => {
          const n = await names(
            db,
            rows.map((r) => r.startUser),
            req.lang,
          );
          return rows.map((i) => ({
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
        },
      });
      return ok(req, page);
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
}
