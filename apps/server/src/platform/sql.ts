import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** A LIKE pattern that matches `text` literally anywhere: the user's % and _ are not wildcards. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `is_deleted = 0` written as a constant, not a bound parameter: the tables' partial indexes are declared
 * `WHERE is_deleted = 0`, and only a constant lets PostgreSQL use them in a prepared statement's generic
 * plan (with a parameter it falls back to scanning and sorting the whole table, or plans every execution).
 */
export function notDeleted(column: AnyColumn): SQL {
  return sql`${column} = 0`;
}
