import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, schema } from '../db';
import { canonicalRoute } from '../http/aliases';
import { forbidden } from '../http/errors';
import { notDeleted } from '../sql';
import { ADMIN_ROLE_ALIAS, roleAliases } from './permissions';

/**
 * API scopes: a scope names a path (exact, `*` for one segment, `**` for the rest); once a path is covered
 * by a scope, only roles granted that scope may call it (api-contract §Menus and permissions). Paths no
 * scope covers are governed by permission codes alone. The administrator passes.
 */
const TTL_MS = 5_000;
type Scope = { id: string; pattern: RegExp };
/** the scopes, and once read the list itself (most requests then decide without waiting for a promise) */
let cached: { at: number; scopes: Promise<Scope[]>; known?: Scope[] } | undefined;
const grants = new Map<string, { at: number; ids: Promise<Set<string>> }>();

export function clearApiScopeCache() {
  cached = undefined;
  grants.clear();
}

export function pathPattern(scopePath: string): RegExp {
  const escaped = scopePath
    .split('/')
    .map((seg) => (seg === '**' ? '.*' : seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')))
    .join('/');
  return new RegExp(`^${escaped.replace('/.*', '(/.*)?')}$`);
}

function allScopes(db: Db) {
  if (cached && Date.now() - cached.at < TTL_MS) return cached;
  const entry: NonNullable<typeof cached> = {
    at: Date.now(),
    scopes: db
      .select({ id: schema.scopeApi.id, path: schema.scopeApi.scopePath })
      .from(schema.scopeApi)
      .where(notDeleted(schema.scopeApi.isDeleted))
      .then((rows) => rows.map((r) => ({ id: r.id, pattern: pathPattern(r.path) }))),
  };
  entry.scopes.then(
    (list) => {
      entry.known = list;
    },
    () => {
      if (cached === entry) cached = undefined;
    },
  );
  cached = entry;
  return entry;
}

function grantedScopeIds(db: Db, roleIds: string[]) {
  const key = [...roleIds].sort().join(',');
  const hit = grants.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.ids;
  const ids = roleIds.length
    ? db
        .select({ id: schema.roleScope.scopeId })
        .from(schema.roleScope)
        .where(and(inArray(schema.roleScope.roleId, roleIds), eq(schema.roleScope.scopeCategory, 2)))
        .then((rows) => new Set(rows.map((r) => r.id)))
    : Promise.resolve(new Set<string>());
  grants.set(key, { at: Date.now(), ids });
  return ids;
}

export function installApiScopes(app: FastifyInstance, db: Db) {
  /** the scopes covering a route: its own path's, and where it is an alias, those of the route it stands for */
  const covering = (scopes: Scope[], path: string) => {
    const canonical = canonicalRoute(path);
    return scopes.filter(
      (s) => s.pattern.test(path) || (canonical !== undefined && s.pattern.test(canonical)),
    );
  };
  const check = async (coveredBy: Scope[] | Promise<Scope[]>, roleIds: string[]) => {
    const covered = await coveredBy;
    if (!covered.length) return;
    if ((await roleAliases(db, roleIds)).includes(ADMIN_ROLE_ALIAS)) return;
    const granted = await grantedScopeIds(db, roleIds);
    if (!covered.some((s) => granted.has(s.id))) throw forbidden();
  };
  // a callback hook: a route no scope covers (most) is decided at once when the scopes are known, with no
  // promise made on its way
  app.addHook('preHandler', (req, _reply, done) => {
    const ctx = req.ctx;
    // the route the router chose, never the raw URL: `%70aram`, `//`, a trailing slash, another case or
    // `..` either reach no route at all or reach one whose pattern is what the scope names
    const path = ctx ? req.routeOptions.url : undefined;
    if (!ctx || !path) return done();
    const { scopes, known } = allScopes(db);
    const covered = known && covering(known, path);
    if (covered && !covered.length) return done();
    check(covered || scopes.then((list) => covering(list, path)), ctx.roleIds).then(() => done(), done);
  });
}
