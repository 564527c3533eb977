import { type AnyColumn, type Column, getTableName, type SQL, sql } from 'drizzle-orm';

/** A LIKE pattern that matches `text` literally anywhere: the user's % and _ are not wildcards. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The characters of a text, lower-cased, as an array (`string_to_array(lower(…), null)`): what a contains
 * field's characters index holds (model.ts), and what a search of one or two characters asks it for. A
 * trigram index cannot serve a term shorter than three characters, and on Chinese names that is the usual
 * search: a surname.
 */
export function charactersOf(value: AnyColumn | string): SQL {
  return typeof value === 'string'
    ? sql`string_to_array(lower(${value}::text), null)`
    : sql`string_to_array(lower(${value}), null)`;
}

/** terms shorter than this have no trigram: the characters index narrows them (query.ts) */
export const TRIGRAM_LENGTH = 3;

/**
 * `is_deleted = 0` written as a constant, not a bound parameter: the tables' partial indexes are declared
 * `WHERE is_deleted = 0`, and only a constant lets PostgreSQL use them in a prepared statement's generic
 * plan (with a parameter it falls back to scanning and sorting the whole table, or plans every execution).
 */
export function notDeleted(column: AnyColumn): SQL {
  return sql`${column} = 0`;
}

/**
 * A column named by its table (`"hope_villager"."id"`), for a subquery that reads the outer row: Drizzle
 * leaves a lone table's columns unqualified, and an unqualified name inside a subquery is the subquery's own
 * table's when it has one of that name (`m.tenant_id = "tenant_id"` would compare the subquery's row with
 * itself).
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** The rows of `db.execute` on either driver (node-postgres answers `{ rows }`, PGlite too). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const r = result as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

/**
 * The id the next row will get (every table's ids come from one sequence), drawn before it is written: a
 * row that another row names as its cause in the same transaction (an exchange and its ledger debit).
 */
export async function nextId(db: { execute: (q: SQL) => Promise<unknown> }): Promise<string> {
  return String(rowsOf(await db.execute(sql`select nextval('blade_id_seq')::text as id`))[0].id);
}

/**
 * Many rows' values as one array parameter per column, `unnest($1::bigint[], $2::integer[], …)`: the source
 * of one UPDATE that writes many rows their own values (`update t set c = v.c from <this> as v(id, c)
 * where t.id = v.id`). A parameter per column, not per value: the statement's text and its preparation
 * stay the same whatever the number of rows.
 */
export function unnestOf(columns: [values: unknown[], type: string][]): SQL {
  return sql`unnest(${sql.join(
    columns.map(([values, type]) => {
      if (!/^[a-z ]+$/.test(type)) throw new Error(`unnestOf: type ${type}`);
      return sql`${sql.param(values)}::${sql.raw(type)}[]`;
    }),
    sql`, `,
  )})`;
}

/** `n` ids drawn at once from the one sequence (see `nextId`). */
export async function nextIds(db: { execute: (q: SQL) => Promise<unknown> }, n: number): Promise<string[]> {
  if (n <= 1) return n === 1 ? [await nextId(db)] : [];
  const rows = rowsOf(
    await db.execute(sql`select nextval('blade_id_seq')::text as id from generate_series(1, ${n})`),
  );
  return rows.map((r) => String(r.id));
}
