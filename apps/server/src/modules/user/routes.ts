import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCtx } from '../../platform/auth/context';
import { hashSecret, MD5_HEX, verifySecret } from '../../platform/auth/password';
import { cachedCount } from '../../platform/crud/count-cache';
import { countKey } from '../../platform/crud/engine';
import { schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { PageQuery, toPage } from '../../platform/paging';
import { containsPattern } from '../../platform/sql';

const u = schema.user;
const md5 = z.string().regex(MD5_HEX);

export async function userRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  app.get(
    '/page',
    {
      schema: {
        querystring: PageQuery.extend({
          deptId: z
            .string()
            .regex(/^\d{1,19}$/)
            .optional(),
          account: z.string().max(45).optional(),
          realName: z.string().max(20).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      const q = req.query;
      const where = [eq(u.tenantId, ctx.tenantId), eq(u.isDeleted, 0)];
      if (q.account) where.push(ilike(u.account, containsPattern(q.account)));
      if (q.realName) where.push(ilike(u.realName, containsPattern(q.realName)));
      if (q.deptId) {
        // the chosen dept and every dept below it, within the caller's tenant
        const d = schema.dept;
        const depts = db
          .select({ id: d.id })
          .from(d)
          .where(
            and(
              eq(d.tenantId, ctx.tenantId),
              eq(d.isDeleted, 0),
              or(eq(d.id, q.deptId), sql`(',' || ${d.ancestors} || ',') like ${`%,${q.deptId},%`}`),
            ),
          );
        where.push(
          inArray(
            u.id,
            db
              .select({ id: schema.userDept.userId })
              .from(schema.userDept)
              .where(inArray(schema.userDept.deptId, depts)),
          ),
        );
      }
      const cond = and(...where);
      const [rows, total] = await Promise.all([
        db
          .select({
            id: u.id,
            tenantId: u.tenantId,
            account: u.account,
            name: u.name,
            realName: u.realName,
            email: u.email,
            phone: u.phone,
            sex: u.sex,
            status: u.status,
            createTime: u.createTime,
            roleName: sql<string>`(select string_agg(r.role_name, ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id)`,
            deptName: sql<string>`(select string_agg(d.dept_name, ',') from blade_user_dept ud join blade_dept d on d.id = ud.dept_id where ud.user_id = blade_user.id)`,
          })
          .from(u)
          .where(cond)
          .orderBy(desc(u.createTime), desc(u.id))
          .limit(q.size)
          .offset((q.current - 1) * q.size),
        cachedCount(countKey('user', ctx, q), () =>
          db
            .select({ total: count() })
            .from(u)
            .where(cond)
            .then(([r]) => Number(r.total)),
        ),
      ]);
      const records = rows.map((r) => ({ ...r, createTime: formatDateTime(r.createTime) }));
      return ok(req, toPage(records, total, q.current, q.size));
    },
  );

  /** The signed-in user changes their own password; all three values arrive md5-hashed (spec §5). */
  app.post(
    '/update-password',
    { schema: { querystring: z.object({ oldPassword: md5, newPassword: md5, newPassword1: md5 }) } },
    async (req) => {
      const ctx = requireCtx(req);
      const { oldPassword, newPassword, newPassword1 } = req.query;
      if (newPassword !== newPassword1) throw badRequest('passwordMismatch');
      const [row] = await db
        .select({ password: u.password })
        .from(u)
        .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId), eq(u.isDeleted, 0)))
        .limit(1);
      if (!row) throw notFound();
      if (!(await verifySecret(row.password, oldPassword))) throw badRequest('oldPasswordWrong');
      if (oldPassword === newPassword) throw badRequest('passwordSame');
      await db
        .update(u)
        .set({
          password: await hashSecret(newPassword),
          mustChangePassword: false,
          updateUser: ctx.userId,
          updateTime: new Date(),
        })
        .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId)));
      return ok(req, true);
    },
  );
}
