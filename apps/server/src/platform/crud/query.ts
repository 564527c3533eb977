import type { FieldDef, ResourceDef } from '@smart/contracts';
import { DEFAULT_PAGE_SIZE, isId, MAX_PAGE_SIZE } from '@smart/contracts';
import { and, asc, desc, eq, gt, gte, ilike, inArray, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { invalidField } from '../http/errors';
import { containsPattern } from '../sql';

/**
 * Turns a list request's query string into paging, filters and order, accepting only what the definition
 * whitelists. Any other key, an unknown sort column or a malformed value is a 400: nothing of the query
 * reaches SQL except as a bound parameter.
 */

const SUFFIX_OPS = [
  'equal',
  'notequal',
  'like',
  'ge',
  'le',
  'gt',
  'lt',
  'in',
  'dategt',
  'datelt',
  'datege',
  'datele',
] as const;
type SuffixOp = (typeof SUFFIX_OPS)[number];

const PAGING_KEYS: Record<NonNullable<ResourceDef['paging']>, [string, string]> = {
  current: ['current', 'size'],
  page: ['page', 'size'],
  currentPage: ['currentPage', 'pageSize'],
};

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const DATE_RE = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

export interface ListQuery {
  current: number;
  size: number;
  where: SQL[];
  orderBy: SQL[];
}

export interface ColumnSet {
  /** filterable and sortable columns by field name */
  byField: Map<string, { column: PgColumn; field?: FieldDef }>;
}

function parseValue(name: string, field: FieldDef | undefined, raw: string, col: PgColumn): string | number {
  if (raw.length > 500) throw invalidField(name);
  if (
    col.dataType === 'number' ||
    (field && (field.type === 'int' || field.type === 'switch' || field.type === 'decimal'))
  ) {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw invalidField(name);
    return n;
  }
  if ((field?.type === 'ref' || name === 'id') && !isId(raw)) throw invalidField(name);
  return raw;
}

export function parseListQuery(
  def: ResourceDef,
  cols: ColumnSet,
  query: Record<string, unknown>,
  extraKeys: Set<string> = new Set(),
): ListQuery {
  const [pageKey, sizeKey] = PAGING_KEYS[def.paging ?? 'current'];
  const where: SQL[] = [];
  const orderBy: SQL[] = [];
  let current = 1;
  let size = def.pageSize ?? DEFAULT_PAGE_SIZE;
  const byName = (name: string) => cols.byField.get(name) ?? cols.byField.get(camel(name));

  for (const [key, rawValue] of Object.entries(query)) {
    if (extraKeys.has(key)) continue;
    const raw = Array.isArray(rawValue) ? String(rawValue[0]) : String(rawValue ?? '');
    if (key === pageKey || key === sizeKey) {
      const n = Number(raw);
      const max = key === pageKey ? 1_000_000 : MAX_PAGE_SIZE;
      if (!Number.isInteger(n) || n < 1 || n > max) throw invalidField(key);
      if (key === pageKey) current = n;
      else size = n;
      continue;
    }
    if (key === 'ascs' || key === 'descs') {
      if (!raw) continue;
      for (const name of raw.split(',')) {
        const c = byName(name.trim());
        if (!c || c.field?.sortable === false) throw invalidField(name, 'unknownSort');
        orderBy.push(key === 'ascs' ? asc(c.column) : desc(c.column));
      }
      continue;
    }
    if (raw === '') continue; // an empty search box filters nothing
    const m = /^(.+)_([a-z]+)$/.exec(key);
    const suffix = m && (SUFFIX_OPS as readonly string[]).includes(m[2]) ? (m[2] as SuffixOp) : undefined;
    const name = suffix ? m![1] : key;
    const c = byName(name);
    if (!c) throw invalidField(key, 'unknownFilter');
    const op: SuffixOp = suffix ?? (c.field?.search === 'like' ? 'like' : 'equal');
    where.push(condition(c.column, c.field, name, op, raw));
  }
  return { current, size, where, orderBy };
}

function condition(col: PgColumn, field: FieldDef | undefined, name: string, op: SuffixOp, raw: string): SQL {
  if (op.startsWith('date')) {
    if (!DATE_RE.test(raw)) throw invalidField(name);
    // wall-clock times are the server's time zone; a bare date means the whole day
    const tz = process.env.TZ || 'Asia/Shanghai';
    const at = sql`(${raw}::timestamp at time zone ${tz})`;
    const bare = raw.length === 10;
    if (op === 'dategt' || op === 'datege') return sql`${col} >= ${at}`;
    if (bare) return sql`${col} < (${raw}::timestamp + interval '1 day') at time zone ${tz}`;
    return op === 'datelt' ? sql`${col} < ${at}` : sql`${col} <= ${at}`;
  }
  if (op === 'in') {
    const values = raw.split(',').map((x) => parseValue(name, field, x, col));
    if (values.length > 500) throw invalidField(name);
    return inArray(col, values);
  }
  if (op === 'like') return ilike(col, containsPattern(raw));
  const v = parseValue(name, field, raw, col);
  switch (op) {
    case 'equal':
      return eq(col, v);
    case 'notequal':
      return ne(col, v);
    case 'ge':
      return gte(col, v);
    case 'le':
      return lte(col, v);
    case 'gt':
      return gt(col, v);
    default:
      return lt(col, v);
  }
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export { and, snake };
