import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../auth/context';
import { type Db, schema } from '../db';
import { notDeleted } from '../sql';
import { ADMIN_ROLE_ALIAS, roleAliases } from './permissions';

/** The five data-scope types of api-contract §Menus and permissions. */
export const SCOPE_ALL = 1;
export const SCOPE_OWN = 2;
export const SCOPE_DEPT = 3;
export const SCOPE_DEPT_TREE = 4;
export const SCOPE_CUSTOM = 5;

/** A custom scope: a condition over one whitelisted field. Values may name the caller: ${userId}, ${deptId}. */
export interface CustomScope {
  field: string;
  op: 'eq' | 'ne' | 'in';
  value: string | string[];
}

export function parseCustomScope(raw: string | null | undefined, allowed: Set<string>): CustomScope | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as CustomScope;
    if (!v || typeof v.field !== 'string' || !allowed.has(v.field)) return null;
    if (!['eq', 'ne', 'in'].includes(v.op)) return null;
    const values = Array.isArray(v.value) ? v.value : [v.value];
    if (!values.length || !values.every((x) => typeof x === 'string' || typeof x === 'number')) return null;
    return {
      field: v.field,
      op: v.op,
      value: Array.isArray(v.value) ? v.value.map(String) : String(v.value),
    };
  } catch {
    return null;
  }
}

const TTL_MS = 5_000;
const scopeCache = new Map<
  string,
  { at: number; rows: Promise<{ scopeType: number; scopeValue: string | null }[]> }
>();
export function clearScopeCache() {
  scopeCache.clear();
  subtrees.clear();
}

/** The data scopes of one resource granted to the caller's roles. */
function grantedScopes(db: Db, roleIds: string[], resourceCode: string) {
  const key = `${[...roleIds].sort().join(',')}|${resourceCode}`;
  const hit = scopeCache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.rows;
  const rows = roleIds.length
    ? db
        .selectDistinct({ scopeType: schema.scopeData.scopeType, scopeValue: schema.scopeData.scopeValue })
        .from(schema.scopeData)
        .innerJoin(
          schema.roleScope,
          and(eq(schema.roleScope.scopeId, schema.scopeData.id), eq(schema.roleScope.scopeCategory, 1)),
        )
        .where(
          and(
            inArray(schema.roleScope.roleId, roleIds),
            eq(schema.scopeData.resourceCode, resourceCode),
            notDeleted(schema.scopeData.isDeleted),
          ),
        )
        // a promise, not the query builder: awaiting a builder runs its query again every time
        .then((found) => found)
    : Promise.resolve([]);
  scopeCache.set(key, { at: Date.now(), rows });
  rows.catch(() => scopeCache.delete(key));
  return rows;
}

export interface ScopedColumns {
  /** who and which department created a row: absent from a table without base columns (a log, regions) */
  createUser?: PgColumn;
  createDept?: PgColumn;
  /** whitelisted columns a custom scope may name, by field name */
  fields: Record<string, PgColumn>;
}

/**
 * The row constraint a caller's data scope adds to every read and write of a resource: undefined when the
 * caller sees every row of its tenant (administrator, no scope granted, or a granted "all"). Several granted
 * scopes widen each other (any of them lets a row through). A scope by creator or department lets no row of
 * a table without those columns through.
 */
export async function dataScopeCondition(
  db: Db,
  ctx: RequestContext,
  resourceCode: string,
  cols: ScopedColumns,
): Promise<SQL | undefined> {
  if ((await roleAliases(db, ctx.roleIds)).includes(ADMIN_ROLE_ALIAS)) return undefined;
  const scopes = await grantedScopes(db, ctx.roleIds, resourceCode);
  if (!scopes.length || scopes.some((s) => s.scopeType === SCOPE_ALL)) return undefined;
  const parts: SQL[] = [];
  for (const s of scopes) {
    switch (s.scopeType) {
      case SCOPE_OWN:
        if (cols.createUser) parts.push(eq(cols.createUser, ctx.userId));
        break;
      case SCOPE_DEPT:
        if (ctx.deptId && cols.createDept) parts.push(eq(cols.createDept, ctx.deptId));
        break;
      case SCOPE_DEPT_TREE:
        if (ctx.deptId && cols.createDept)
          parts.push(inArray(cols.createDept, await deptSubtreeIds(db, ctx.tenantId, ctx.deptId)));
        break;
      case SCOPE_CUSTOM: {
        const c = parseCustomScope(s.scopeValue, new Set(Object.keys(cols.fields)));
        if (!c) break; // a malformed custom scope lets nothing through
        const col = cols.fields[c.field];
        const fillIn = (v: string) => (v === '${userId}' ? ctx.userId : v === '${deptId}' ? ctx.deptId : v);
        const values = (Array.isArray(c.value) ? c.value : [c.value]).map(fillIn);
        parts.push(
          c.op === 'eq' ? eq(col, values[0]) : c.op === 'ne' ? ne(col, values[0]) : inArray(col, values),
        );
        break;
      }
    }
  }
  // nothing valid granted: the caller sees no row
  return parts.length ? (or(...parts) as SQL) : sql`false`;
}

/**
 * The one access constraint of a table's rows for a caller, whoever reads or writes them (the engine, users,
 * workflow models): live rows, of the caller's tenant (a platform table — no tenant column — is the
 * platform tenant's alone, unless every tenant reads it: `readByEveryTenant`), within the caller's data
 * scope on the resource (`resourceCode`; none given: no data scope, the tenant's whole table). A table whose
 * removals delete rows (no `isDeleted`) has only live rows.
 */
export async function rowConstraint(
  db: Db,
  ctx: RequestContext,
  resourceCode: string | undefined,
  cols: ScopedColumns & { isDeleted?: PgColumn; tenantId?: PgColumn; readByEveryTenant?: boolean },
): Promise<SQL> {
  if (!cols.tenantId && !cols.readByEveryTenant && ctx.tenantId !== DEFAULT_TENANT_ID) return sql`false`;
  const parts: SQL[] = cols.isDeleted ? [notDeleted(cols.isDeleted)] : [];
  if (cols.tenantId) parts.push(eq(cols.tenantId, ctx.tenantId));
  const scope =
    resourceCode === undefined ? undefined : await dataScopeCondition(db, ctx, resourceCode, cols);
  if (scope) parts.push(scope);
  return parts.length ? (and(...parts) as SQL) : sql`true`;
}

/** A dept and every dept below it, within one tenant (ancestors holds the comma path from the root). */
export function deptSubtree(db: Db, tenantId: string, deptId: string) {
  const d = schema.dept;
  return db
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        eq(d.tenantId, tenantId),
        notDeleted(d.isDeleted),
        or(eq(d.id, deptId), sql`(',' || ${d.ancestors} || ',') like ${`%,${deptId},%`}`),
      ),
    );
}

/**
 * The ids of a dept and every dept below it, read first and passed as a list: the planner then estimates
 * the filter well and walks the page's index in order instead of sorting every match. Cached briefly.
 */
const subtrees = new Map<string, { at: number; ids: Promise<string[]> }>();
export function deptSubtreeIds(db: Db, tenantId: string, deptId: string): Promise<string[]> {
  const key = `${tenantId}|${deptId}`;
  const hit = subtrees.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.ids;
  if (subtrees.size > 5_000) subtrees.clear();
  const ids = deptSubtree(db, tenantId, deptId).then((rows) => {
    const list = rows.map((r) => r.id);
    return list.length ? list : ['0'];
  });
  subtrees.set(key, { at: Date.now(), ids });
  return ids;
}
