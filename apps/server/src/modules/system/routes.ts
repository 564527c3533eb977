import type { DictEntry } from '@smart/contracts';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCtx } from '../../platform/auth/context';
import { schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { buttonTree, grantedMenus, toMenuTree } from './menus';

const idString = z.string().regex(/^\d{1,19}$/);

export async function systemRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  app.get(
    '/menu/routes',
    { schema: { querystring: z.object({ topMenuId: idString.optional() }) } },
    async (req) => {
      const ctx = requireCtx(req);
      return ok(req, toMenuTree(await grantedMenus(db, ctx, 1, req.query.topMenuId)));
    },
  );

  app.get('/menu/buttons', async (req) => ok(req, await buttonTree(db, requireCtx(req))));

  app.get(
    '/dict/dictionary',
    { schema: { querystring: z.object({ code: z.string().min(1).max(255) }) } },
    async (req) => {
      const d = schema.dict;
      const rows = await db
        .select()
        .from(d)
        .where(and(eq(d.code, req.query.code), ne(d.parentId, '0'), eq(d.isDeleted, 0)))
        .orderBy(asc(d.sort), asc(d.id));
      const entries: DictEntry[] = rows.map((r) => ({
        id: r.id,
        parentId: r.parentId,
        code: r.code,
        dictKey: r.dictKey,
        dictValue: r.dictValue,
        sort: r.sort,
        remark: r.remark ?? '',
        isSealed: r.isSealed,
      }));
      return ok(req, entries);
    },
  );

  /** Public: the login page asks which tenant a domain belongs to. */
  app.get(
    '/tenant/info',
    {
      config: { public: true },
      schema: { querystring: z.object({ domain: z.string().max(255).optional() }) },
    },
    async (req) => {
      if (!req.query.domain) return ok(req, {});
      const t = schema.tenant;
      const [row] = await db
        .select({ tenantId: t.tenantId, domain: t.domain, backgroundUrl: t.backgroundUrl })
        .from(t)
        .where(and(eq(t.domain, req.query.domain), eq(t.isDeleted, 0)))
        .limit(1);
      return ok(req, row ? { ...row, backgroundUrl: row.backgroundUrl ?? '' } : {});
    },
  );
}
