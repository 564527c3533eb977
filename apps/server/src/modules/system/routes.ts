import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCtx } from '../../platform/auth/context';
import { schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { idString } from '../../platform/http/ids';
import { notDeleted } from '../../platform/sql';
import { familyMenuTree } from './family-client';
import { buttonTree, cachedAnswer, grantedMenus, toMenuTree } from './menus';

export async function systemRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  app.get(
    '/menu/routes',
    { schema: { querystring: z.object({ topMenuId: idString.optional() }) } },
    async (req, reply) => {
      const ctx = requireCtx(req);
      // the same granted menus for either console; the family's is sent its paths and icons (family-client.ts)
      const family = ctx.familyClient ? 'family' : '';
      const key = `routes|${[...ctx.roleIds].sort().join(',')}|${req.query.topMenuId ?? ''}|${req.lang}|${family}`;
      const body = await cachedAnswer(key, async () => {
        const tree = toMenuTree(await grantedMenus(db, ctx, 1, req.query.topMenuId), req.lang);
        return ok(req, family ? familyMenuTree(tree) : tree);
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  app.get('/menu/buttons', async (req, reply) => {
    const ctx = requireCtx(req);
    const key = `buttons|${[...ctx.roleIds].sort().join(',')}|${req.lang}`;
    const body = await cachedAnswer(key, async () => ok(req, await buttonTree(db, ctx, req.lang)));
    return reply.type('application/json; charset=utf-8').send(body);
  });

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
        .where(and(eq(t.domain, req.query.domain), notDeleted(t.isDeleted)))
        .limit(1);
      return ok(req, row ? { ...row, backgroundUrl: row.backgroundUrl ?? '' } : {});
    },
  );
}
