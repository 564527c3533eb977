import { inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, schema } from '../platform/db';

/** Rows of a seed step, 500 to a statement (well under PostgreSQL's 65 535 parameters). */
export async function insertAll(db: Db, table: PgTable, rows: Record<string, unknown>[]) {
  for (let i = 0; i < rows.length; i += 500) await db.insert(table).values(rows.slice(i, i + 500) as never);
}

/** A system parameter a module seeds (参数管理): its name, key, default value and what it does. */
export interface SeededParam {
  paramName: string;
  paramKey: string;
  paramValue: string;
  remark: string;
}

/**
 * The parameters of `wanted` that no row holds yet, added (an install seeded before a module had them gets
 * them; a value someone changed is never touched).
 */
export async function addMissingParams(db: Db, wanted: SeededParam[]) {
  const present = new Set(
    (
      await db
        .select({ key: schema.param.paramKey })
        .from(schema.param)
        .where(
          inArray(
            schema.param.paramKey,
            wanted.map((w) => w.paramKey),
          ),
        )
    ).map((r) => r.key),
  );
  const missing = wanted.filter((w) => !present.has(w.paramKey));
  if (missing.length) await db.insert(schema.param).values(missing);
}
