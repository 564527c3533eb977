import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../platform/db';

/** Rows of a seed step, 500 to a statement (well under PostgreSQL's 65 535 parameters). */
export async function insertAll(db: Db, table: PgTable, rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += 500) await db.insert(table).values(rows.slice(i, i + 500) as never);
}
