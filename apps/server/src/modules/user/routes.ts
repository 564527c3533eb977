import { ISSUED_IMAGE_PATH, parseRecord, userResource } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { hashSecret, MD5_HEX, verifySecret } from '../../platform/auth/password';
import { endSessions } from '../../platform/auth/sessions';
import { forgetCounts } from '../../platform/crud/count-cache';
import { mountedResource } from '../../platform/crud/refs';
import { transaction } from '../../platform/crud/write';
import { type Db, schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { badRequest, FieldInputError, notFound } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { throttle } from '../../platform/throttle';
import { FAMILY_DEFAULT_AVATAR, familyAvatar } from '../system/family-client';
import { findTenantRow } from '../system/tenant';

const u = schema.user;
const md5 = z.string().regex(MD5_HEX);

/**
 * What a signed-in user does for themself (own profile, own password) and what a visitor asks (an account
 * awaiting approval). The users screen's list and actions are the resource engine's (binding.ts).
 */
export async function userRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db, kv, sessions } = base.deps;

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

  /** The signed-in user's own profile (personal info page): their row as the users list answers it. */
  app.get('/info', async (req) => {
    const ctx = requireCtx(req);
    const users = mountedResource(userResource.key);
    const [row] = await db
      .select(users.selection)
      .from(u)
      .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId), notDeleted(u.isDeleted)))
      .limit(1);
    if (!row) throw notFound();
    const [info] = await users.output(ctx, [row], req.lang);
    // the family's profile screen draws the avatar as an image: a real one when the user has none
    return ok(req, ctx.familyClient ? { ...info, avatar: familyAvatar(info.avatar as string | null) } : info);
  });

  app.post('/update-info', async (req) => {
    await saveOwnProfile(db, requireCtx(req), req.body ?? {});
    return ok(req, true);
  });

  /** A visitor asks for an account: created awaiting approval (status 0), no role until an administrator grants one. */
  app.post(
    '/register-guest',
    {
      config: { public: true },
      schema: {
        querystring: z.object({
          tenantId: z.string().regex(/^\d{6}$/),
          name: z.string().min(1).max(20),
          account: z
            .string()
            .min(1)
            .max(45)
            .regex(/^[A-Za-z0-9_.@-]+$/),
          password: z.string().regex(MD5_HEX),
          oauthId: z.string().max(64).optional(),
        }),
      },
    },
    async (req) => {
      const { tenantId, name, account, password, oauthId } = req.query;
      // anyone may ask, a few times an hour from one address
      await throttle(kv, `register-guest:${req.ip}`, 5, 3600);
      const tenant = await findTenantRow(db, tenantId);
      const [hit] = tenant
        ? await db
            .select({ id: u.id })
            .from(u)
            .where(and(eq(u.tenantId, tenantId), eq(u.account, account), notDeleted(u.isDeleted)))
            .limit(1)
        : [];
      // the same answer whether or not the tenant or the account exists: a registration reveals neither
      // (the administrator sees and approves only real ones; the quota is counted at approval)
      if (!tenant || hit) {
        await hashSecret(password); // the same work as a registration that is kept
        return ok(req, true);
      }
      await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(u)
          .values({
            tenantId,
            account,
            name,
            realName: name.slice(0, 10),
            password: await hashSecret(password),
            status: 0,
          })
          .returning({ id: u.id });
        if (oauthId)
          await tx.insert(schema.userOauth).values({
            tenantId,
            uuid: oauthId,
            userId: created.id,
            username: account,
            nickname: name,
            source: 'guest',
          });
      });
      forgetCounts(userResource.key);
      return ok(req, true);
    },
  );
}

/** What a user may change of their own row without the users screen's edit: the personal-info fields. */
export const PROFILE_FIELDS = ['avatar', 'realName', 'name', 'phone', 'email'] as const;

const InfoBody = z.object({
  avatar: z.string().max(500).optional(),
  realName: z.string().max(10).optional(),
  name: z.string().max(20).optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
});

/**
 * The signed-in user saves their own profile (`user/update-info`, and the family's personal-info screen
 * through `user/update`, family.ts): name, real name, phone, email and an avatar the server issued, with the
 * users form's field rules; never roles, departments, posts or tenant. One's own row, whatever one's data
 * scope over users, through the users' write path.
 */
export async function saveOwnProfile(db: Db, ctx: RequestContext, raw: unknown) {
  const parsed = InfoBody.safeParse(raw);
  if (!parsed.success) throw badRequest();
  const body = parsed.data;
  // the family's profile form sends back the default avatar it was shown: no avatar of one's own
  if (body.avatar === FAMILY_DEFAULT_AVATAR) body.avatar = '';
  // the same field rules as the users form (phone: spec §5 messages)
  const def = userResource;
  const profileFields = def.fields.filter((f) => ['realName', 'name', 'phone', 'email'].includes(f.name));
  const check = parseRecord(
    {
      ...def,
      fields: profileFields.map((f) => ({ ...f, required: f.name === 'realName' || f.name === 'phone' })),
    },
    body,
    'update',
  );
  if (check.error) throw new FieldInputError(check.error.field, check.error.message);
  if (body.avatar && !ISSUED_IMAGE_PATH.test(body.avatar))
    throw new FieldInputError('avatar', { zh: '头像地址无效', en: 'The avatar address is invalid' });
  const set: Record<string, unknown> = {};
  for (const k of PROFILE_FIELDS) if (body[k] !== undefined) set[k] = body[k] || null;
  const users = mountedResource(userResource.key);
  await transaction(db, async (tx) =>
    users.patch(ctx, tx, ctx.userId, set, await users.tenantConstraint(ctx)),
  );
}
