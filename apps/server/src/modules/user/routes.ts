import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCtx } from '../../platform/auth/context';
import { hashSecret, MD5_HEX, verifySecret } from '../../platform/auth/password';
import { endSessions } from '../../platform/auth/sessions';
import { type Db, schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';

const u = schema.user;
const md5 = z.string().regex(MD5_HEX);

export async function userRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db, sessions } = base.deps;

  /**
   * The signed-in user changes their own password; all three values arrive md5-hashed (spec §5). Every
   * other session of the user ends; this one stays signed in (and may now use everything it is granted).
   */
  app.post(
    '/update-password',
    {
      config: { beforePasswordChange: true },
      schema: { querystring: z.object({ oldPassword: md5, newPassword: md5, newPassword1: md5 }) },
    },
    async (req) => {
      const ctx = requireCtx(req);
      const { oldPassword, newPassword, newPassword1 } = req.query;
      if (newPassword !== newPassword1) throw badRequest('passwordMismatch');
      const [row] = await db
        .select({ password: u.password })
        .from(u)
        .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId), notDeleted(u.isDeleted)))
        .limit(1);
      if (!row) throw notFound();
      if (!(await verifySecret(row.password, oldPassword))) throw badRequest('oldPasswordWrong');
      if (oldPassword === newPassword) throw badRequest('passwordSame');
      const password = await hashSecret(newPassword);
      await db.transaction(async (tx) => {
        await tx
          .update(u)
          .set({ password, mustChangePassword: false, updateUser: ctx.userId, updateTime: new Date() })
          .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId)));
        await endSessions(tx as unknown as Db, [ctx.userId], ctx.token.fid);
      });
      await sessions.publish([ctx.userId]);
      return ok(req, true);
    },
  );
}
