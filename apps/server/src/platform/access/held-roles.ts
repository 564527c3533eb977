import { and, eq, inArray } from 'drizzle-orm';
import { type Db, schema } from '../db';
import { notDeleted } from '../sql';

/**
 * The roles a token names that its user still holds, live, in its tenant: a role removed from the user or
 * deleted stops counting within seconds on every instance (at once on the instance that changed it), and
 * every permission, scope and alias lookup starts from these. Remembered briefly per user and role set.
 *
 * A module of its own: the request context (`auth/context.ts`) reads it while it builds `req.ctx`, and the
 * permission checks read `req.ctx`, so neither may import the other's module for it.
 */
const TTL_MS = 5_000;
const held = new Map<string, { at: number; ids: Promise<string[]> }>();

export function clearHeldRoles() {
  held.clear();
}

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
