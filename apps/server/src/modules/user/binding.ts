import { randomUUID } from 'node:crypto';
import { and, eq, exists, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { grantedCodes } from '../../platform/access/permissions';
import {
  assertAssignableDepts,
  assertAssignableRoles,
  assertManageableUsers,
  isAdministrator,
  rolesOfUsers,
} from '../../platform/access/privileges';
import { deptSubtreeIds } from '../../platform/access/scope';
import type { RequestContext } from '../../platform/auth/context';
import { generatePassword, hashSecret, md5Hex } from '../../platform/auth/password';
import { endSessions } from '../../platform/auth/sessions';
import type { ResourceHooks } from '../../platform/crud/binding';
import { type EndpointCall, endpoint } from '../../platform/crud/endpoints';
import { transaction } from '../../platform/crud/write';
import { type Db, schema } from '../../platform/db';
import { badRequest, FieldInputError, notFound, TextError } from '../../platform/http/errors';
import { csvIdText, idString } from '../../platform/http/ids';
import { unlockAccounts } from '../auth/signin';
import { paramValue } from '../system/params';
import { checkAccountQuota } from '../system/tenant';

/**
 * Users on the resource engine (definition: packages/contracts `userResource`): the list, detail, submit,
 * remove, select and Excel are the engine's; what is a user's own is here — roles and departments kept
 * beside the row (blade_user_role, blade_user_dept), the password, the account quota, sessions that end
 * with a new password or a removal, and the actions of the users screen (reset password, grant, unlock,
 * platform settings) as endpoints that inherit the engine's tenant, data scope and permission checks.
 */

const u = schema.user;

/** a user's roles and departments as the list answers them (ids and names, comma-joined) */
const BESIDE = {
  roleId: sql<string>`(select string_agg(ur.role_id::text, ',') from blade_user_role ur where ur.user_id = blade_user.id)`,
  deptId: sql<string>`(select string_agg(ud.dept_id::text, ',') from blade_user_dept ud where ud.user_id = blade_user.id)`,
  roleName: sql<string>`(select string_agg(r.role_name, ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id)`,
  // the roles' English names (a role without one keeps its Chinese name), for the list read in English
  roleNameEn: sql<string>`(select string_agg(coalesce(nullif(r.name_en, ''), r.role_name), ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id)`,
  deptName: sql<string>`(select string_agg(d.dept_name, ',') from blade_user_dept ud join blade_dept d on d.id = ud.dept_id where ud.user_id = blade_user.id)`,
  avatar: u.avatar,
  userType: u.userType,
};

/** The parameter of a tenant's initial password (参数管理); `<key>.<tenantId>` sets one tenant's own. */
export const INIT_PASSWORD_PARAM = 'account.initPassword';

/**
 * The initial password the administrator configured for the tenant, or null when none is set or it is one
 * anyone could guess: fewer than 8 characters, not both letters and digits, or a run of one character.
 */
async function initialPassword(db: Db, tenantId: string): Promise<string | null> {
  const own = await paramValue(db, `${INIT_PASSWORD_PARAM}.${tenantId}`, '');
  const value = (own || (await paramValue(db, INIT_PASSWORD_PARAM, ''))).trim();
  const guessable =
    value.length < 8 || !/[A-Za-z]/.test(value) || !/\d/.test(value) || /^(.)\1*$/.test(value);
  return guessable ? null : value;
}

const csv = (v: unknown) => (typeof v === 'string' && v ? [...new Set(v.split(','))] : []);

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
    .where(and(inArray(t.id, ids), eq(t.tenantId, ctx.tenantId), eq(t.isDeleted, 0)));
  if (rows.length !== new Set(ids).size)
    throw new FieldInputError(field, { zh: '所选项不存在', en: 'A chosen item does not exist' });
}

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
  change: { userId?: string; roleIds?: string[]; deptIds?: string[]; mayGrantRoles: boolean },
) {
  const now = change.userId
    ? (await membershipsOf(db, [change.userId])).get(change.userId)!
    : { roleIds: [], deptIds: [] };
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
const holds = async (db: Db, ctx: RequestContext, code: string) =>
  (await grantedCodes(db, ctx.roleIds)).has(code);

/**
 * The password of an imported account: random, known to nobody (the administrator issues one with 重置密码,
 * shown once, when the person needs it), so no account ever starts with a default anyone can guess. One
 * hash per server, not one per row: argon2 is slow on purpose.
 */
let unknownPassword: Promise<string> | undefined;
const importedPassword = () => {
  unknownPassword ??= hashSecret(md5Hex(randomUUID()));
  return unknownPassword;
};

/** Ids from `?userIds=` that are all users the caller may see and may act on. */
async function usersInReach({ resource, ctx, scope }: EndpointCall<unknown>, userIds: string) {
  const ids = [...new Set(userIds.split(','))];
  const rows = await resource.db
    .select({ id: u.id, account: u.account, status: u.status })
    .from(u)
    .where(and(inArray(u.id, ids), scope));
  if (rows.length !== ids.length) throw notFound();
  await assertManageableUsers(resource.db, ctx, ids);
  return rows;
}

/** The user binding: hooks of the engine's routes and the screen's actions. */
export function userHooks(deps: Pick<AppDeps, 'db' | 'kv' | 'sessions'>): ResourceHooks {
  const { db, kv, sessions } = deps;
  return {
    beside: BESIDE,
    // the list (and its export) may narrow to a department and everything below it
    extraKeys: ['deptId'],
    async extraWhere(ctx, query) {
      const deptId = query.deptId;
      if (!deptId) return undefined;
      if (!/^\d{1,19}$/.test(deptId)) throw badRequest('fieldInvalid', { field: 'deptId' });
      // as a list, so the page index is walked in order
      const depts = await deptSubtreeIds(db, ctx.tenantId, deptId);
      return exists(
        db
          .select({ one: sql`1` })
          .from(schema.userDept)
          .where(and(eq(schema.userDept.userId, u.id), inArray(schema.userDept.deptId, depts))),
      );
    },
    // the family's clients read `user/list` and edit with `user/update` (family.ts mounts the aliases)
    updatePath: 'update',
    toRow: (row) => ({
      ...row,
      roleId: row.roleId ?? '',
      deptId: row.deptId ?? '',
      postId: row.postId ?? '',
      roleName: row.roleName ?? '',
      roleNameEn: row.roleNameEn ?? '',
      deptName: row.deptName ?? '',
      birthday: row.birthday ?? '',
    }),
    async beforeWrite(ctx, record, mode, id, _original, via) {
      if (mode === 'update') await assertManageableUsers(db, ctx, [id!]);
      if (mode === 'create' && !record.password) {
        if (via !== 'import')
          throw new FieldInputError('password', { zh: '请输入密码', en: 'please enter password' });
        record.password = await importedPassword();
        record.mustChangePassword = true;
      } else if (record.password) {
        // a password someone else typed is an initial one: its owner must change it first
        record.password = await hashSecret(String(record.password));
        record.mustChangePassword = true;
      }
      const roleIds = csv(record.roleId);
      const deptIds = csv(record.deptId);
      const postIds = csv(record.postId);
      await checkOwn(db, ctx, 'role', roleIds, 'roleId');
      await checkOwn(db, ctx, 'dept', deptIds, 'deptId');
      await checkOwn(db, ctx, 'post', postIds, 'postId');
      if (record.postId !== undefined) record.postId = postIds.join(',') || null;
      await checkMemberships(db, ctx, {
        userId: id,
        roleIds: record.roleId === undefined ? undefined : roleIds,
        deptIds: record.deptId === undefined ? undefined : deptIds,
        mayGrantRoles: await holds(db, ctx, 'user_role'),
      });
    },
    beforeCreate: (ctx, records, tx) => checkAccountQuota(tx, ctx.tenantId, records.length),
    /** roles and departments, all rows of a statement at once; a new password ends the user's sessions */
    async afterChange(_ctx, changes, tx) {
      for (const [field, table, column] of [
        ['roleId', schema.userRole, 'roleId'],
        ['deptId', schema.userDept, 'deptId'],
      ] as const) {
        const given = changes.filter((c) => c.record[field] !== undefined);
        if (!given.length) continue;
        const userIds = given.map((c) => c.row.id as string);
        await tx.delete(table).where(inArray(table.userId, userIds));
        const pairs = given.flatMap((c) =>
          csv(c.record[field]).map((target) => ({ userId: c.row.id as string, [column]: target })),
        );
        if (pairs.length) await tx.insert(table).values(pairs as never);
      }
      const newPassword = changes.filter((c) => c.mode === 'update' && c.record.password);
      if (newPassword.length)
        await endSessions(
          tx,
          newPassword.map((c) => c.row.id as string),
        );
    },
    async beforeRemove(ctx, ids, tx) {
      if (ids.includes(ctx.userId))
        throw new FieldInputError('ids', { zh: '不能删除当前登录用户', en: 'You cannot remove yourself' });
      await assertManageableUsers(tx, ctx, ids);
    },
    afterDelete: (_ctx, ids, tx) => endSessions(tx, ids),
    // once committed: every server forgets the ended sessions now, not when their tokens expire
    async afterCommit(_ctx, done) {
      const ended =
        done.mode === 'remove'
          ? done.ids
          : done.mode === 'update'
            ? done.ids.filter((_, i) => done.records?.[i]?.password)
            : [];
      if (ended.length) await sessions.publish(ended);
    },
    endpoints: [
      /**
       * Resets each user's password to the tenant's initial password when the administrator configured one
       * (`account.initPassword.<tenantId>`, else `account.initPassword`, on 参数管理: what the family's client
       * calls 重置为初始密码, its users told that password by their administrator), else to a new random
       * password. Answered once either way (the administrator passes it on); the user must change it at the
       * next sign-in, and every session the user had ends now. A configured password anyone could guess
       * (`123456`, shorter than 8, without both letters and digits) is not used: a random one is.
       * The family's console shows 操作成功 and nothing of the answer, so a random password would never reach
       * its administrator: asked from that console (a family session) without a usable configured password,
       * nothing is changed and the refusal (which it shows) says what to configure.
       */
      endpoint({
        method: 'POST',
        path: 'reset-password',
        codeSuffix: '_reset',
        query: z.object({ userIds: csvIdText }).strict(),
        async handler(call) {
          const rows = await usersInReach(call, call.query.userIds);
          const configured = await initialPassword(db, call.ctx.tenantId);
          if (!configured && call.ctx.familyClient)
            throw new TextError(400, {
              zh: `未设置可用的初始密码：请在参数管理中设置 ${INIT_PASSWORD_PARAM}（至少 8 位，含字母和数字），或在本系统的控制台重置（新密码只显示一次）`,
              en: `No usable initial password is configured: set ${INIT_PASSWORD_PARAM} on the parameters screen (8 or more characters, letters and digits), or reset from this system's own console (the new password is shown once)`,
            });
          const issued = await Promise.all(
            rows.map(async (r) => {
              const password = configured ?? generatePassword();
              return { id: r.id, account: r.account, password, hash: await hashSecret(md5Hex(password)) };
            }),
          );
          // through the users' write path: a new password ends the user's sessions (afterChange)
          await transaction(db, async (tx) => {
            for (const r of issued)
              await call.resource.patch(
                call.ctx,
                tx,
                r.id,
                { password: r.hash, mustChangePassword: true },
                call.scope,
              );
          });
          await sessions.publish(issued.map((r) => r.id));
          call.reply.header('cache-control', 'no-store');
          return issued.map(({ id, account, password }) => ({ id, account, password }));
        },
      }),
      /** Grants roles; an account awaiting approval (guest registration) is approved by it. */
      endpoint({
        method: 'POST',
        path: 'grant',
        codeSuffix: '_role',
        query: z.object({ userIds: csvIdText, roleIds: csvIdText }).strict(),
        async handler(call) {
          const { ctx, resource } = call;
          const rows = await usersInReach(call, call.query.userIds);
          const roleIds = [...new Set(call.query.roleIds.split(','))];
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
          // through the users' write path: the roles are written beside the row (afterChange)
          await transaction(db, async (tx) => {
            for (const r of rows)
              await resource.patch(
                ctx,
                tx,
                r.id,
                { roleId: roleIds.join(','), ...(r.status === 0 ? { status: 1 } : {}) },
                call.scope,
              );
          });
          return true;
        },
      }),
      /** Lifts the sign-in lock of the accounts (the failure counters in the shared store). */
      endpoint({
        method: 'POST',
        path: 'unlock',
        codeSuffix: '_unlock',
        query: z.object({ userIds: csvIdText }).strict(),
        async handler(call) {
          const rows = await usersInReach(call, call.query.userIds);
          await unlockAccounts(
            kv,
            call.ctx.tenantId,
            rows.map((r) => r.account),
          );
          return true;
        },
      }),
      endpoint({
        method: 'GET',
        path: 'platform-detail',
        codeSuffix: ['_platform', '_view'],
        query: z.object({ id: idString }).strict(),
        async handler({ scope, query }) {
          const [row] = await db
            .select({ id: u.id, userType: u.userType, userExt: u.userExt })
            .from(u)
            .where(and(eq(u.id, query.id), scope))
            .limit(1);
          if (!row) throw notFound();
          return { ...row, userExt: row.userExt ?? '' };
        },
      }),
      endpoint({
        method: 'POST',
        path: 'update-platform',
        codeSuffix: '_platform',
        query: z
          .object({
            userId: idString,
            userType: z.coerce.number().int().min(1).max(3),
            userExt: z.string().max(2000).optional(),
          })
          .strict(),
        async handler({ ctx, scope, query, resource }) {
          const [seen] = await db
            .select({ id: u.id })
            .from(u)
            .where(and(eq(u.id, query.userId), scope))
            .limit(1);
          if (!seen) throw notFound();
          await assertManageableUsers(db, ctx, [query.userId]);
          await transaction(db, (tx) =>
            resource.patch(
              ctx,
              tx,
              query.userId,
              { userType: query.userType, userExt: query.userExt ?? null },
              scope,
            ),
          );
          return true;
        },
      }),
    ],
  };
}
