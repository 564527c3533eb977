import type { FieldDef, ResourceDef } from '@smart/contracts';
import {
  DEFAULT_PAGE_SIZE,
  fieldKind,
  hasNul,
  INT_MAX,
  INT_MIN,
  isDate,
  isDateTime,
  isId,
  MAX_PAGE_SIZE,
  pagingKeys,
} from '@smart/contracts';
import { and, asc, desc, eq, gt, gte, ilike, inArray, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { invalidField } from '../http/errors';
import { charactersOf, containsPattern, TRIGRAM_LENGTH } from '../sql';

/**
 * Turns a list request's query string into paging, filters and order, accepting only what the definition
 * whitelists. Any other key, an unknown sort column or a malformed value is a 400: nothing of the query
 * reaches SQL except as a bound parameter. A value must also be one its column can be compared with — an
 * operator the column's kind has no use for (`_like` on a number or a date, a date operator on text), a
 * number beyond an integer column, an impossible date, an id past 2^63 − 1 or a NUL character is a 400
 * naming the field, never a database error.
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

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** What a column holds, for what may be asked of it. */
type Kind = 'text' | 'int' | 'numeric' | 'bool' | 'id' | 'date';

/** The operators each kind of column takes; `like` only on text, the date operators only on dates. */
const OPS: Record<Kind, readonly SuffixOp[]> = {
  text: ['equal', 'notequal', 'like', 'ge', 'le', 'gt', 'lt', 'in'],
  int: ['equal', 'notequal', 'ge', 'le', 'gt', 'lt', 'in'],
  numeric: ['equal', 'notequal', 'ge', 'le', 'gt', 'lt', 'in'],
  bool: ['equal', 'notequal', 'in'],
  id: ['equal', 'notequal', 'in'],
  date: ['equal', 'notequal', 'ge', 'le', 'gt', 'lt', 'in', 'dategt', 'datelt', 'datege', 'datele'],
};

const INT_RANGE: Record<string, [number, number]> = {
  PgSmallInt: [-32768, 32767],
  PgInteger: [INT_MIN, INT_MAX],
  PgSerial: [INT_MIN, INT_MAX],
  PgBigInt53: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function kindOf(col: PgColumn, field: FieldDef | undefined): Kind {
  const type = col.columnType;
  if (type in INT_RANGE) return 'int';
  if (type === 'PgNumeric' || type === 'PgReal' || type === 'PgDoublePrecision') return 'numeric';
  if (type === 'PgBoolean') return 'bool';
  if (type.startsWith('PgTimestamp') || type === 'PgDate' || type === 'PgDateString') return 'date';
  if (col.getSQLType() === 'bigint') return 'id';
  if (col.dataType === 'number') return 'numeric';
  // a column the engine does not know by type: the field's kind says what it holds
  return field ? fieldKind(field).filter : 'text';
}

/** The largest magnitude a numeric(p, s) column holds (unbounded when declared without precision). */
function numericLimit(col: PgColumn): number {
  const { precision, scale } = col as unknown as { precision?: number; scale?: number };
  return precision ? 10 ** (precision - (scale ?? 0)) : Number.POSITIVE_INFINITY;
}

const COMPARE = { equal: '=', notequal: '<>', ge: '>=', le: '<=', gt: '>', lt: '<' } as const;

/** A date (`YYYY-MM-DD`) or wall-clock time (`YYYY-MM-DD HH:mm[:ss]`) that exists. */
const isDateValue = (raw: string) => (raw.length === 10 ? isDate(raw) : isDateTime(raw, true));

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

function parseValue(
  name: string,
  field: FieldDef | undefined,
  raw: string,
  col: PgColumn,
): string | number | boolean {
  const bad = () => invalidField(name, 'fieldInvalid', field?.label);
  if (raw.length > 500 || hasNul(raw)) throw bad();
  switch (kindOf(col, field)) {
    case 'int': {
      const n = Number(raw);
      const [min, max] = INT_RANGE[col.columnType] ?? [INT_MIN, INT_MAX];
      if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw bad();
      return n;
    }
    case 'numeric': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || Math.abs(n) >= numericLimit(col)) throw bad();
      return n;
    }
    case 'bool':
      if (raw !== '0' && raw !== '1' && raw !== 'true' && raw !== 'false') throw bad();
      return raw === '1' || raw === 'true';
    case 'id':
      if (!isId(raw)) throw bad();
      return raw;
    case 'date':
      if (!isDateValue(raw)) throw bad();
      return raw;
    default:
      if (name === 'id' && !isId(raw)) throw bad();
      return raw;
  }
}

export function parseListQuery(
  def: ResourceDef,
  cols: ColumnSet,
  query: Record<string, unknown>,
  extraKeys: Set<string> = new Set(),
): ListQuery {
  const [pageKey, sizeKey] = pagingKeys(def);
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
    const kind = kindOf(c.column, c.field);
    const op: SuffixOp = suffix ?? (c.field?.search === 'like' && kind === 'text' ? 'like' : 'equal');
    // `_like` on a number or a date, a date operator on text: an operator the column has no use for
    if (!OPS[kind].includes(op)) throw invalidField(key, 'unknownFilter');
    where.push(condition(c.column, c.field, name, op, raw));
  }
  return { current, size, where, orderBy };
}

function condition(col: PgColumn, field: FieldDef | undefined, name: string, op: SuffixOp, raw: string): SQL {
  // wall-clock times are the server's time zone
  const tz = process.env.TZ || 'Asia/Shanghai';
  if (op.startsWith('date')) {
    if (hasNul(raw) || !isDateValue(raw)) throw invalidField(name, 'fieldInvalid', field?.label);
    // a bare date means the whole day
    const at = sql`(${raw}::timestamp at time zone ${tz})`;
    const bare = raw.length === 10;
    if (op === 'dategt' || op === 'datege') return sql`${col} >= ${at}`;
    if (bare) return sql`${col} < (${raw}::timestamp + interval '1 day') at time zone ${tz}`;
    return op === 'datelt' ? sql`${col} < ${at}` : sql`${col} <= ${at}`;
  }
  if (op === 'like') {
    if (raw.length > 500 || hasNul(raw)) throw invalidField(name, 'fieldInvalid', field?.label);
    return containsFilter(col, raw, field);
  }
  if (kindOf(col, field) === 'date') {
    // checked text, cast by the database: a time stamp is a wall-clock time of the server's zone
    const stamp = col.columnType.startsWith('PgTimestamp');
    const at = (v: string | number | boolean) =>
      stamp ? sql`(${v}::timestamp at time zone ${tz})` : sql`${v}::date`;
    if (op === 'in') {
      const values = raw.split(',').map((x) => parseValue(name, field, x, col));
      if (values.length > 500) throw invalidField(name, 'fieldInvalid', field?.label);
      return sql`${col} in (${sql.join(values.map(at), sql`, `)})`;
    }
    const v = at(parseValue(name, field, raw, col));
    return sql`${col} ${sql.raw(COMPARE[op as keyof typeof COMPARE])} ${v}`;
  }
  if (op === 'in') {
    const values = raw.split(',').map((x) => parseValue(name, field, x, col));
    if (values.length > 500) throw invalidField(name, 'fieldInvalid', field?.label);
    return inArray(col, values);
  }
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

/**
 * A contains filter (ILIKE '%…%') on a column; where its field is declared `search: 'like'`, a term of one or
 * two characters is found through the field's characters index (model.ts), which no trigram can serve.
 */
export function containsFilter(col: PgColumn, raw: string, field: FieldDef | undefined): SQL {
  const contains = ilike(col, containsPattern(raw));
  const length = [...raw.toLowerCase()].length;
  if (field?.search !== 'like' || length === 0 || length >= TRIGRAM_LENGTH) return contains;
  // one character is in a text exactly when ILIKE finds it there (ILIKE compares the lower-cased texts), and
  // said once: PostgreSQL multiplies the shares of rows two conditions keep as if unrelated, so the pair
  // looked 30 times rarer than it is, and a page sorted every match instead of reading the newest first
  const characters = sql`${charactersOf(col)} @> ${charactersOf(raw)}`;
  return length === 1 ? characters : (and(contains, characters) as SQL);
}

export { and, snake };
