import { ISSUED_IMAGE_PATH, isId, parseRecord, userResource } from '@smart/contracts';
import { and, count, desc, eq, exists, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { grantedCodes, requireAnyPermission, requirePermission } from '../../platform/access/permissions';
import {
  assertAssignableDepts,
  assertAssignableRoles,
  assertManageableUsers,
  isAdministrator,
  rolesOfUsers,
} from '../../platform/access/privileges';
import { deptSubtreeIds, rowConstraint } from '../../platform/access/scope';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { generatePassword, hashSecret, MD5_HEX, md5Hex } from '../../platform/auth/password';
import { endSessions } from '../../platform/auth/sessions';
import { answerList } from '../../platform/crud/answers';
import { cachedCount, forgetCounts } from '../../platform/crud/count-cache';
import { countKey, idParam, idsParam } from '../../platform/crud/engine';
import { parseListQuery } from '../../platform/crud/query';
import { type Db, schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { badRequest, FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { toPage } from '../../platform/paging';
import { notDeleted } from '../../platform/sql';
import { throttle } from '../../platform/throttle';
import { unlockAccounts } from '../auth/signin';
import { checkAccountQuota, findTenantRow } from '../system/tenant';

const u = schema.user;
const def = userResource;

/** Users: the list page's conventions (page/detail/submit/remove) plus roles, depts, passwords and approval. */

/** Tenant, not deleted, and the caller's data scope over users (by who created them, as for every resource). */
export function userConstraint(db: Db, ctx: RequestContext): Promise<SQL> {
  return rowConstraint(db, ctx, 'user', {
    isDeleted: u.isDeleted,
    tenantId: u.tenantId,
    createUser: u.createUser,
    createDept: u.createDept,
    fields: {
      account: u.account,
      realName: u.realName,
      name: u.name,
      code: u.code,
      phone: u.phone,
      email: u.email,
      sex: u.sex,
      status: u.status,
    },
  });
}

const rowSelection = {
  id: u.id,
  tenantId: u.tenantId,
  account: u.account,
  name: u.name,
  realName: u.realName,
  code: u.code,
  avatar: u.avatar,
  email: u.email,
  phone: u.phone,
  sex: u.sex,
  birthday: u.birthday,
  postId: u.postIds,
  userType: u.userType,
  status: u.status,
  createTime: u.createTime,
  updateTime: u.updateTime,
  roleId: sql<string>`(select string_agg(ur.role_id::text, ',') from blade_user_role ur where ur.user_id = blade_user.id)`,
  deptId: sql<string>`(select string_agg(ud.dept_id::text, ',') from blade_user_dept ud where ud.user_id = blade_user.id)`,
  roleName: sql<string>`(select string_agg(r.role_name, ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id)`,
  deptName: sql<string>`(select string_agg(d.dept_name, ',') from blade_user_dept ud join blade_dept d on d.id = ud.dept_id where ud.user_id = blade_user.id)`,
};
type UserRow = { [K in keyof typeof rowSelection]: unknown };

const output = (r: UserRow) => ({
  ...r,
  roleId: r.roleId ?? '',
  deptId: r.deptId ?? '',
  postId: r.postId ?? '',
  roleName: r.roleName ?? '',
  deptName: r.deptName ?? '',
  birthday: r.birthday ? formatDateTime(r.birthday as Date).slice(0, 10) : '',
  createTime: formatDateTime(r.createTime as Date),
  updateTime: formatDateTime(r.updateTime as Date),
});

/** The ids must all be live rows of the caller's tenant. */
async function checkOwn(
  db: Db,
  ctx: RequestContext,
  table: 'role' | 'dept' | 'post',
  ids: string[],
  field: string,
) {
  if (!ids.length) return;
  const t = schema[table];
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(and(inArray(t.id, ids), eq(t.tenantId, ctx.tenantId), notDeleted(t.isDeleted)));
  if (rows.length !== new Set(ids).size)
    throw new FieldInputError(field, { zh: '所选项不存在', en: 'A chosen item does not exist' });
}

const csv = (v: unknown) => (typeof v === 'string' && v ? [...new Set(v.split(','))] : []);

export interface Memberships {
  roleIds: string[];
  deptIds: string[];
}

/** The roles and departments these users hold now. */
export async function membershipsOf(db: Db, userIds: string[]): Promise<Map<string, Memberships>> {
  const roles = await rolesOfUsers(db, userIds);
  const out = new Map<string, Memberships>(
    userIds.map((id) => [id, { roleIds: roles.get(id) ?? [], deptIds: [] }]),
  );
  if (!userIds.length) return out;
  const depts = await db
    .select({ userId: schema.userDept.userId, id: schema.userDept.deptId })
    .from(schema.userDept)
    .where(inArray(schema.userDept.userId, userIds));
  for (const d of depts) out.get(d.userId)?.deptIds.push(d.id);
  return out;
}

/**
 * The rules every write of a user's roles and departments follows (the form, the grant, the import):
 * changing an existing user's roles needs the role-granting permission (`user_role`); what is added is
 * never beyond the caller's own rights (privileges.ts); and a non-administrator never changes their own.
 * Throws a FieldInputError naming the field (an import reports it as the row's error).
 */
export async function checkMemberships(
  db: Db,
  ctx: RequestContext,
  change: {
    userId?: string;
    roleIds?: string[];
    deptIds?: string[];
    mayGrantRoles: boolean;
    /** the user's memberships when already read (an import reads them for all its rows at once) */
    current?: Memberships;
  },
) {
  const now =
    change.current ??
    (change.userId
      ? (await membershipsOf(db, [change.userId])).get(change.userId)!
      : { roleIds: [], deptIds: [] });
  const added = (next: string[] | undefined, had: string[]) => (next ?? []).filter((x) => !had.includes(x));
  const differs = (next: string[] | undefined, had: string[]) =>
    next !== undefined && (next.length !== had.length || added(next, had).length > 0);
  const rolesChange = differs(change.roleIds, now.roleIds);
  const deptsChange = differs(change.deptIds, now.deptIds);
  if (!rolesChange && !deptsChange) return;
  if (change.userId === ctx.userId && !(await isAdministrator(db, ctx)))
    throw new FieldInputError(rolesChange ? 'roleId' : 'deptId', {
      zh: '不能修改自己的角色或部门',
      en: 'You cannot change your own roles or departments',
    });
  if (rolesChange && change.userId && !change.mayGrantRoles)
    throw new FieldInputError('roleId', {
      zh: '修改用户的角色需要“角色配置”权限',
      en: "Changing a user's roles needs the role-granting permission",
    });
  await assertAssignableRoles(db, ctx, added(change.roleIds, now.roleIds), 'roleId');
  await assertAssignableDepts(db, ctx, added(change.deptIds, now.deptIds), 'deptId');
}

/** Whether the caller holds a permission code (for rules that depend on it rather than refuse the call). */
export async function holds(db: Db, ctx: RequestContext, code: string) {
  return (await grantedCodes(db, ctx.roleIds)).has(code);
}

/** The users list's filters (whitelisted columns, dept subtree) and the caller's constraint. */
export async function userListQuery(db: Db, ctx: RequestContext, query: Record<string, string>) {
  const { deptId, ...rest } = query;
  const cols = new Map(
    [
      ['account', u.account],
      ['realName', u.realName],
      ['name', u.name],
      ['phone', u.phone],
      ['email', u.email],
      ['sex', u.sex],
      ['status', u.status],
      ['createTime', u.createTime],
      ['id', u.id],
    ].map(([k, c]) => [k as string, { column: c as never, field: def.fields.find((f) => f.name === k) }]),
  );
  const q = parseListQuery(def, { byField: cols }, rest);
  const where: SQL[] = [await userConstraint(db, ctx), ...q.where];
  if (deptId) {
    if (!isId(deptId)) throw badRequest('fieldInvalid', { field: 'deptId' });
    // the chosen dept and every dept below it (as a list, so the page index is walked in order)
    const depts = await deptSubtreeIds(db, ctx.tenantId, deptId);
    where.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(schema.userDept)
          .where(and(eq(schema.userDept.userId, u.id), inArray(schema.userDept.deptId, depts))),
      ),
    );
  }
  return { ...q, where };
}

export { output as userOutput, rowSelection, u as userTable };

export async function userAdminRoutes(base: FastifyInstance, opts: { family?: boolean } = {}) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db, kv, sessions } = base.deps;

  const changed = () => forgetCounts('user');

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user');
    const query = req.query as Record<string, string>;
    return answerList(req, reply, db, ctx, async () => {
      const q = await userListQuery(db, ctx, query);
      const cond = and(...q.where);
      const rows = db
        .select(rowSelection)
        .from(u)
        .where(cond)
        .orderBy(...(q.orderBy.length ? q.orderBy : [desc(u.createTime), desc(u.id)]))
        .limit(q.size)
        .offset((q.current - 1) * q.size)
        .prepare('');
      const total = db.select({ total: count() }).from(u).where(cond);
      return {
        reads: [rows.getQuery().sql, total.toSQL().sql],
        data: async () => {
          const [records, n] = await Promise.all([
            rows.execute(),
            cachedCount(countKey('user', ctx, query), () => total.then(([r]) => Number(r.total))),
          ]);
          return toPage(records.map(output), n, q.current, q.size);
        },
      };
    });
  };
  app.get('/page', page);
  // the family's user screen lists its users at `user/list` (modules/user/family.ts)
  if (opts.family) app.get('/list', page);

  const loadOne = async (ctx: RequestContext, id: string) => {
    const [row] = await db
      .select(rowSelection)
      .from(u)
      .where(and(eq(u.id, id), await userConstraint(db, ctx)))
      .limit(1);
    if (!row) throw notFound();
    return row;
  };

  app.get('/detail', async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(db, req, ['user_view', 'user_edit']);
    return ok(req, output(await loadOne(ctx, idParam(req, 'id'))));
  });

  /** Add or edit: the row, then its roles, depts and posts, in one transaction. */
  const save = async (req: FastifyRequest, allowCreate: boolean) => {
    const ctx = requireCtx(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest();
    const id = body.id ? String(body.id) : undefined;
    if (id !== undefined && !isId(id)) throw badRequest('fieldInvalid', { field: 'id' });
    if (!id && !allowCreate) throw badRequest('fieldInvalid', { field: 'id' });
    const mode = id ? 'update' : 'create';
    await requirePermission(db, req, mode === 'create' ? 'user_add' : 'user_edit');
    // a user the caller may not see is "not found" before anything else is said about the body
    if (id) {
      await loadOne(ctx, id);
      await assertManageableUsers(db, ctx, [id]);
    }
    const parsed = parseRecord(def, body, mode);
    if (parsed.error) throw new FieldInputError(parsed.error.field, parsed.error.message);
    const r = parsed.record;
    if (mode === 'create' && !r.password)
      throw new FieldInputError('password', { zh: '请输入密码', en: 'please enter password' });
    const roleIds = csv(r.roleId);
    const deptIds = csv(r.deptId);
    const postIds = csv(r.postId);
    await checkOwn(db, ctx, 'role', roleIds, 'roleId');
    await checkOwn(db, ctx, 'dept', deptIds, 'deptId');
    await checkOwn(db, ctx, 'post', postIds, 'postId');
    await checkMemberships(db, ctx, {
      userId: id,
      roleIds: r.roleId === undefined ? undefined : roleIds,
      deptIds: r.deptId === undefined ? undefined : deptIds,
      mayGrantRoles: await holds(db, ctx, 'user_role'),
    });
    if (r.account !== undefined) {
      const clash = [eq(u.tenantId, ctx.tenantId), eq(u.account, String(r.account)), notDeleted(u.isDeleted)];
      if (id) clash.push(ne(u.id, id));
      const [hit] = await db
        .select({ id: u.id })
        .from(u)
        .where(and(...clash))
        .limit(1);
      if (hit) throw new FieldInputError('account', { zh: '登录账号已存在', en: 'Account already exists' });
    }
    // the dictionary's keys only: anything else would reach the integer column
    if (r.sex !== undefined && r.sex !== null && r.sex !== '' && !/^[123]$/.test(String(r.sex)))
      throw new FieldInputError('sex', { zh: '用户性别不是可选值', en: 'Sex is not one of the options' });
    const values: Partial<typeof u.$inferInsert> = {
      account: r.account as string,
      realName: r.realName as string,
      name: r.name as string | null,
      code: r.code as string | null,
      phone: r.phone as string | null,
      email: r.email as string | null,
      sex: r.sex === null || r.sex === undefined ? (r.sex as null | undefined) : Number(r.sex),
      birthday:
        r.birthday === undefined
          ? undefined
          : r.birthday
            ? (sql`(${String(r.birthday)}::timestamp at time zone ${process.env.TZ || 'Asia/Shanghai'})` as never)
            : null,
      postIds: r.postId === undefined ? undefined : postIds.join(','),
      updateUser: ctx.userId,
      updateTime: new Date(),
    };
    // a password someone else typed is an initial one: its owner must change it first
    if (r.password) {
      values.password = await hashSecret(String(r.password));
      values.mustChangePassword = true;
    }
    for (const k of Object.keys(values) as (keyof typeof values)[])
      if (values[k] === undefined) delete values[k];
    const scope = await userConstraint(db, ctx);
    const saved = await db.transaction(async (tx) => {
      let userId: string;
      if (mode === 'create') {
        await checkAccountQuota(tx as unknown as Db, ctx.tenantId);
        const [created] = await tx
          .insert(u)
          .values({
            ...(values as typeof u.$inferInsert),
            tenantId: ctx.tenantId,
            createUser: ctx.userId,
            createDept: ctx.deptId || null,
          })
          .returning({ id: u.id });
        userId = created.id;
      } else {
        const [updated] = await tx
          .update(u)
          .set(values)
          .where(and(eq(u.id, id!), scope))
          .returning({ id: u.id });
        if (!updated) throw notFound();
        userId = updated.id;
        // a password set by someone else ends the user's sessions
        if (values.password) await endSessions(tx as unknown as Db, [userId]);
      }
      if (r.roleId !== undefined) {
        await tx.delete(schema.userRole).where(eq(schema.userRole.userId, userId));
        if (roleIds.length)
          await tx.insert(schema.userRole).values(roleIds.map((roleId) => ({ userId, roleId })));
      }
      if (r.deptId !== undefined) {
        await tx.delete(schema.userDept).where(eq(schema.userDept.userId, userId));
        if (deptIds.length)
          await tx.insert(schema.userDept).values(deptIds.map((deptId) => ({ userId, deptId })));
      }
      return userId;
    });
    if (mode === 'update' && values.password) await sessions.publish([saved]);
    changed();
    return ok(req, output(await loadOne(ctx, saved)));
  };
  app.post('/submit', (req) => save(req, true));
  app.post('/update', (req) => save(req, false));

  app.post('/remove', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user_delete');
    const ids = idsParam(req);
    if (ids.includes(ctx.userId))
      throw new FieldInputError('ids', { zh: '不能删除当前登录用户', en: 'You cannot remove yourself' });
    const scope = await userConstraint(db, ctx);
    await db.transaction(async (tx) => {
      const removed = await tx
        .update(u)
        .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
        .where(and(inArray(u.id, ids), scope))
        .returning({ id: u.id });
      if (removed.length !== ids.length) throw notFound();
      await assertManageableUsers(tx as unknown as Db, ctx, ids);
      await endSessions(tx as unknown as Db, ids);
    });
    // a removed user's tokens stop working on every instance now, not when they expire
    await sessions.publish(ids);
    changed();
    return ok(req, true);
  });

  /** Ids from `?userIds=` that are all users the caller may see and may act on. */
  const scopedIds = async (req: FastifyRequest, ctx: RequestContext) => {
    const ids = idsParam(req, 'userIds');
    const rows = await db
      .select({ id: u.id, account: u.account, status: u.status })
      .from(u)
      .where(and(inArray(u.id, ids), await userConstraint(db, ctx)));
    if (rows.length !== ids.length) throw notFound();
    await assertManageableUsers(db, ctx, ids);
    return rows;
  };

  /**
   * Gives each user a new random password, answered once (the administrator passes it on); the user must
   * change it at the next sign-in, and every session the user had ends now.
   */
  app.post('/reset-password', async (req, reply) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user_reset');
    const rows = await scopedIds(req, ctx);
    const issued = await Promise.all(
      rows.map(async (r) => {
        const password = generatePassword();
        return { id: r.id, account: r.account, password, hash: await hashSecret(md5Hex(password)) };
      }),
    );
    await db.transaction(async (tx) => {
      for (const r of issued)
        await tx
          .update(u)
          .set({
            password: r.hash,
            mustChangePassword: true,
            updateUser: ctx.userId,
            updateTime: new Date(),
          })
          .where(eq(u.id, r.id));
      await endSessions(
        tx as unknown as Db,
        issued.map((r) => r.id),
      );
    });
    await sessions.publish(issued.map((r) => r.id));
    return reply.header('cache-control', 'no-store').send(
      ok(
        req,
        issued.map(({ id, account, password }) => ({ id, account, password })),
      ),
    );
  });

  /** Grants roles; an account awaiting approval (guest registration) is approved by it. */
  app.post('/grant', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user_role');
    const rows = await scopedIds(req, ctx);
    const roleIds = [...new Set(idsParam(req, 'roleIds'))];
    await checkOwn(db, ctx, 'role', roleIds, 'roleIds');
    for (const r of rows) {
      try {
        await checkMemberships(db, ctx, { userId: r.id, roleIds, mayGrantRoles: true });
      } catch (e) {
        if (e instanceof FieldInputError) throw new FieldInputError('roleIds', e.text);
        throw e;
      }
    }
    // an approved registration starts counting against the tenant's account quota
    const approving = rows.filter((r) => r.status === 0).length;
    if (approving) await checkAccountQuota(db, ctx.tenantId, approving);
    await db.transaction(async (tx) => {
      const userIds = rows.map((r) => r.id);
      await tx.delete(schema.userRole).where(inArray(schema.userRole.userId, userIds));
      await tx
        .insert(schema.userRole)
        .values(userIds.flatMap((userId) => roleIds.map((roleId) => ({ userId, roleId }))));
      await tx
        .update(u)
        .set({ status: 1, updateUser: ctx.userId, updateTime: new Date() })
        .where(and(inArray(u.id, userIds), eq(u.status, 0)));
    });
    changed();
    return ok(req, true);
  });

  /** Lifts the sign-in lock of the accounts (the failure counters in the shared store). */
  app.post('/unlock', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'user_unlock');
    const rows = await scopedIds(req, ctx);
    await unlockAccounts(
      kv,
      ctx.tenantId,
      rows.map((r) => r.account),
    );
    return ok(req, true);
  });

  app.get('/platform-detail', async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(db, req, ['user_platform', 'user_view']);
    const id = idParam(req, 'id');
    const [row] = await db
      .select({ id: u.id, userType: u.userType, userExt: u.userExt })
      .from(u)
      .where(and(eq(u.id, id), await userConstraint(db, ctx)))
      .limit(1);
    if (!row) throw notFound();
    return ok(req, { ...row, userExt: row.userExt ?? '' });
  });

  app.post(
    '/update-platform',
    {
      schema: {
        querystring: z.object({
          userId: idString,
          userType: z.coerce.number().int().min(1).max(3),
          userExt: z.string().max(2000).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'user_platform');
      const { userId, userType, userExt } = req.query;
      await loadOne(ctx, userId);
      await assertManageableUsers(db, ctx, [userId]);
      const [updated] = await db
        .update(u)
        .set({ userType, userExt: userExt ?? null, updateUser: ctx.userId, updateTime: new Date() })
        .where(and(eq(u.id, userId), await userConstraint(db, ctx)))
        .returning({ id: u.id });
      if (!updated) throw notFound();
      return ok(req, true);
    },
  );

  /** The signed-in user's own profile (personal info page). */
  app.get('/info', async (req) => {
    const ctx = requireCtx(req);
    const [row] = await db
      .select(rowSelection)
      .from(u)
      .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId), notDeleted(u.isDeleted)))
      .limit(1);
    if (!row) throw notFound();
    return ok(req, output(row));
  });

  const InfoBody = z.object({
    avatar: z.string().max(500).optional(),
    realName: z.string().max(10).optional(),
    name: z.string().max(20).optional(),
    phone: z.string().optional(),
    email: z.string().optional(),
  });
  app.post('/update-info', async (req) => {
    const ctx = requireCtx(req);
    const parsed = InfoBody.safeParse(req.body ?? {});
    if (!parsed.success) throw badRequest();
    const body = parsed.data;
    // the same field rules as the users form (phone: spec §5 messages)
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
    const set: Partial<typeof u.$inferInsert> = { updateUser: ctx.userId, updateTime: new Date() };
    for (const k of ['avatar', 'realName', 'name', 'phone', 'email'] as const)
      if (body[k] !== undefined) set[k] = body[k] || null;
    await db
      .update(u)
      .set(set)
      .where(and(eq(u.id, ctx.userId), eq(u.tenantId, ctx.tenantId)));
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
      changed();
      return ok(req, true);
    },
  );
}
