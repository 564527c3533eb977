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
