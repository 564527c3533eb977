import { and, eq, inArray } from 'drizzle-orm';
import type { RequestContext } from '../auth/context';
import { type Db, schema } from '../db';
import { ApiError, FieldInputError } from '../http/errors';
import { t } from '../http/messages';
import { notDeleted } from '../sql';
import { ADMIN_ROLE_ALIAS } from './permissions';
import { deptSubtreeIds, SCOPE_ALL } from './scope';

/**
 * No escalation: nobody hands out, or acts on, more than they hold themselves.
 *
 * What a set of roles may do is its privileges: the administrator alias (everything in its tenant), the
 * permission codes of its menus and buttons, its API scopes, and per resource its data scopes — where a
 * resource with no scope, or with an "all" scope, is unrestricted, and otherwise restricted to the union
 * of its scopes (as `dataScopeCondition` reads them). `within(a, b)` says a can do nothing b cannot.
 *
 * The rules built on it: a role given to a user, and the grants given to a role, must be within the
 * caller's privileges; a user (or role) whose privileges exceed the caller's is out of the caller's reach
 * (no edit, reset, removal, grant); a non-administrator changes neither their own roles and departments
 * nor places users outside their own department subtree. The administrator passes every rule.
 */
export interface Privileges {
  admin: boolean;
  codes: Set<string>;
  apiScopes: Set<string>;
  /** per resource code: its data scope ids, or 'all' when unrestricted (absent: unrestricted) */
  dataScopes: Map<string, Set<string> | 'all'>;
}

const TTL_MS = 5_000;
const cache = new Map<string, { at: number; value: Promise<Privileges> }>();
export function clearPrivilegeCache() {
  cache.clear();
}

export function privilegesOf(db: Db, roleIds: string[]): Promise<Privileges> {
  const key = [...new Set(roleIds)].sort().join(',');
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  if (cache.size > 10_000) cache.clear();
  const value = readPrivileges(db, key ? key.split(',') : []);
  cache.set(key, { at: Date.now(), value });
  value.catch(() => cache.delete(key));
  return value;
}

async function readPrivileges(db: Db, roleIds: string[]): Promise<Privileges> {
  const none: Privileges = { admin: false, codes: new Set(), apiScopes: new Set(), dataScopes: new Map() };
  if (!roleIds.length) return none;
  const r = schema.role;
  const roles = await db
    .select({ alias: r.roleAlias })
    .from(r)
    .where(and(inArray(r.id, roleIds), notDeleted(r.isDeleted)));
  if (roles.some((x) => x.alias === ADMIN_ROLE_ALIAS)) return { ...none, admin: true };
  const menus = await db
    .selectDistinct({ code: schema.menu.code })
    .from(schema.roleMenu)
    .innerJoin(schema.menu, eq(schema.menu.id, schema.roleMenu.menuId))
    .where(and(inArray(schema.roleMenu.roleId, roleIds), notDeleted(schema.menu.isDeleted)));
  const rs = schema.roleScope;
  const apis = await db
    .selectDistinct({ id: schema.scopeApi.id })
    .from(rs)
    .innerJoin(schema.scopeApi, eq(schema.scopeApi.id, rs.scopeId))
    .where(and(inArray(rs.roleId, roleIds), eq(rs.scopeCategory, 2), notDeleted(schema.scopeApi.isDeleted)));
  const data = await db
    .selectDistinct({
      id: schema.scopeData.id,
      resource: schema.scopeData.resourceCode,
      type: schema.scopeData.scopeType,
    })
    .from(rs)
    .innerJoin(schema.scopeData, eq(schema.scopeData.id, rs.scopeId))
    .where(and(inArray(rs.roleId, roleIds), eq(rs.scopeCategory, 1), notDeleted(schema.scopeData.isDeleted)));
  return {
    admin: false,
    codes: new Set(menus.map((m) => m.code)),
    apiScopes: new Set(apis.map((a) => a.id)),
    dataScopes: dataScopeMap(data),
  };
}

function dataScopeMap(rows: { id: string; resource: string; type: number }[]) {
  const map = new Map<string, Set<string> | 'all'>();
  for (const row of rows) {
    const seen = map.get(row.resource);
    if (seen === 'all') continue;
    if (row.type === SCOPE_ALL) map.set(row.resource, 'all');
    else map.set(row.resource, new Set([...(seen ?? []), row.id]));
  }
  return map;
}

const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));

/** a can do nothing that b cannot. */
export function within(a: Privileges, b: Privileges): boolean {
  if (b.admin) return true;
  if (a.admin) return false;
  if (!subset(a.codes, b.codes) || !subset(a.apiScopes, b.apiScopes)) return false;
  for (const [resource, bScopes] of b.dataScopes) {
    if (bScopes === 'all') continue;
    const aScopes = a.dataScopes.get(resource);
    // b sees only some rows of this resource: a must be restricted there too, to scopes b holds
    if (aScopes === undefined || aScopes === 'all' || !subset(aScopes, bScopes)) return false;
  }
  return true;
}

/** The privileges a grant would give one role: these menus, API scopes and data scopes. */
export async function privilegesOfGrant(
  db: Db,
  grant: { menuIds: string[]; apiScopeIds: string[]; dataScopeIds: string[] },
): Promise<Privileges> {
  const codes = grant.menuIds.length
    ? await db
        .selectDistinct({ code: schema.menu.code })
        .from(schema.menu)
        .where(and(inArray(schema.menu.id, grant.menuIds), notDeleted(schema.menu.isDeleted)))
    : [];
  const data = grant.dataScopeIds.length
    ? await db
        .select({
          id: schema.scopeData.id,
          resource: schema.scopeData.resourceCode,
          type: schema.scopeData.scopeType,
        })
        .from(schema.scopeData)
        .where(and(inArray(schema.scopeData.id, grant.dataScopeIds), notDeleted(schema.scopeData.isDeleted)))
    : [];
  return {
    admin: false,
    codes: new Set(codes.map((c) => c.code)),
    apiScopes: new Set(grant.apiScopeIds),
    dataScopes: dataScopeMap(data),
  };
}

export async function isAdministrator(db: Db, ctx: RequestContext): Promise<boolean> {
  return (await privilegesOf(db, ctx.roleIds)).admin;
}

const beyond = (field: string) =>
  new FieldInputError(field, { zh: t('zh', 'roleBeyondOwn'), en: t('en', 'roleBeyondOwn') });

/** Every role given must be within the caller's privileges (and never the administrator role, unless the caller is one). */
export async function assertAssignableRoles(db: Db, ctx: RequestContext, roleIds: string[], field: string) {
  const own = await privilegesOf(db, ctx.roleIds);
  if (own.admin) return;
  for (const roleId of new Set(roleIds))
    if (!within(await privilegesOf(db, [roleId]), own)) throw beyond(field);
}

/** The roles every one of these users holds now (removed roles excluded). */
export async function rolesOfUsers(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return out;
  const rows = await db
    .select({ userId: schema.userRole.userId, roleId: schema.userRole.roleId })
    .from(schema.userRole)
    .where(inArray(schema.userRole.userId, userIds));
  for (const r of rows) out.get(r.userId)?.push(r.roleId);
  return out;
}

/** Which of these users the caller may act on: those who can do nothing the caller cannot. */
export async function manageableUsers(db: Db, ctx: RequestContext, userIds: string[]): Promise<Set<string>> {
  const own = await privilegesOf(db, ctx.roleIds);
  if (own.admin) return new Set(userIds);
  const out = new Set<string>();
  for (const [userId, roles] of await rolesOfUsers(db, userIds))
    if (within(await privilegesOf(db, roles), own)) out.add(userId);
  return out;
}

/** Refuses (403) when any of these users can do something the caller cannot. */
export async function assertManageableUsers(db: Db, ctx: RequestContext, userIds: string[]) {
  const ok = await manageableUsers(db, ctx, userIds);
  if (userIds.some((id) => !ok.has(id))) throw new ApiError(403, 'userBeyondOwn');
}

/** Refuses (403) when any of these roles can do something the caller cannot. */
export async function assertManageableRoles(db: Db, ctx: RequestContext, roleIds: string[]) {
  const own = await privilegesOf(db, ctx.roleIds);
  if (own.admin) return;
  for (const roleId of new Set(roleIds))
    if (!within(await privilegesOf(db, [roleId]), own)) throw new ApiError(403, 'roleBeyondOwn');
}

/**
 * Departments a non-administrator may place users in: their own department and those below it (a place
 * in a department widens what department data scopes show). The administrator: any of its tenant.
 */
export async function assertAssignableDepts(db: Db, ctx: RequestContext, deptIds: string[], field: string) {
  if (!deptIds.length || (await isAdministrator(db, ctx))) return;
  const allowed = ctx.deptId
    ? new Set(await deptSubtreeIds(db, ctx.tenantId, ctx.deptId))
    : new Set<string>();
  if (deptIds.some((id) => !allowed.has(id)))
    throw new FieldInputError(field, {
      zh: '只能把用户放在本部门及其下级部门',
      en: 'Users can be placed only in your own department and those below it',
    });
}
