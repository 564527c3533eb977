import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { requireCtx } from '../auth/context';
import { type Db, schema } from '../db';
import { forbidden } from '../http/errors';
import { notDeleted } from '../sql';

/**
 * Permission codes (menu and button codes) granted to a set of roles. The same codes decide which buttons
 * the browser shows (menu/buttons); here they decide whether the server does the work.
 * Cached briefly per role set; a grant clears the cache of this instance at once.
 */
const TTL_MS = 5_000;
const cache = new Map<string, { at: number; codes: Promise<Set<string>> }>();

export function clearPermissionCache() {
  cache.clear();
  aliasCache.clear();
  held.clear();
}

/**
 * The roles a token names that its user still holds, live, in its tenant: a role removed from the user or
 * deleted stops counting within seconds on every instance (at once on the instance that changed it), and
 * every permission, scope and alias lookup starts from these. Remembered briefly per user and role set.
 */
const held = new Map<string, { at: number; ids: Promise<string[]> }>();
export function heldRoles(
  db: Db,
  tenantId: string,
  userId: string,
  tokenRoleIds: string[],
): Promise<string[]> {
  if (!tokenRoleIds.length) return Promise.resolve([]);
  const key = `${userId}|${tokenRoleIds.join(',')}`;
  const hit = held.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.ids;
  if (held.size > 50_000) held.clear();
  const ur = schema.userRole;
  const r = schema.role;
  const ids = db
    .select({ id: ur.roleId })
    .from(ur)
    .innerJoin(r, eq(r.id, ur.roleId))
    .where(
      and(
        eq(ur.userId, userId),
        inArray(ur.roleId, tokenRoleIds),
        eq(r.tenantId, tenantId),
        notDeleted(r.isDeleted),
      ),
    )
    .then((rows) => {
      const live = new Set(rows.map((x) => x.id));
      // the token's order is kept (the first is the one a narrowed token chose)
      return tokenRoleIds.filter((id) => live.has(id));
    });
  held.set(key, { at: Date.now(), ids });
  ids.catch(() => held.delete(key));
  return ids;
}

export function grantedCodes(db: Db, roleIds: string[]): Promise<Set<string>> {
  const key = [...roleIds].sort().join(',');
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.codes;
  const codes = roleIds.length
    ? db
        .selectDistinct({ code: schema.menu.code })
        .from(schema.roleMenu)
        .innerJoin(schema.menu, eq(schema.menu.id, schema.roleMenu.menuId))
        .where(and(inArray(schema.roleMenu.roleId, roleIds), notDeleted(schema.menu.isDeleted)))
        .then((rows) => new Set(rows.map((r) => r.code)))
    : Promise.resolve(new Set<string>());
  cache.set(key, { at: Date.now(), codes });
  codes.catch(() => cache.delete(key));
  return codes;
}

/** Refuses with 403 unless one of the caller's roles holds the code. */
export async function requirePermission(db: Db, req: FastifyRequest, code: string) {
  const ctx = requireCtx(req);
  const codes = await grantedCodes(db, ctx.roleIds);
  if (!codes.has(code)) throw forbidden();
}

/** Role aliases of the caller (administrator sees all rows of its tenant). */
const aliasCache = new Map<string, { at: number; aliases: Promise<string[]> }>();
export function roleAliases(db: Db, roleIds: string[]): Promise<string[]> {
  const key = [...roleIds].sort().join(',');
  const hit = aliasCache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.aliases;
  const aliases = roleIds.length
    ? db
        .select({ alias: schema.role.roleAlias })
        .from(schema.role)
        .where(and(inArray(schema.role.id, roleIds), notDeleted(schema.role.isDeleted)))
        .then((rows) => rows.map((r) => r.alias))
    : Promise.resolve([]);
  aliasCache.set(key, { at: Date.now(), aliases });
  return aliases;
}

export const ADMIN_ROLE_ALIAS = 'administrator';

/** Refuses with 403 unless the caller holds at least one of the codes. */
export async function requireAnyPermission(db: Db, req: FastifyRequest, codes: string[]) {
  const ctx = requireCtx(req);
  const granted = await grantedCodes(db, ctx.roleIds);
  if (!codes.some((c) => granted.has(c))) throw forbidden();
}
