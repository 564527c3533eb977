import { and, eq } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { notDeleted } from '../../platform/sql';

/** A system parameter's value (blade_param), or the fallback when it is missing. */
export async function paramValue(db: Db, key: string, fallback: string): Promise<string> {
  const [row] = await db
    .select({ v: schema.param.paramValue })
    .from(schema.param)
    .where(and(eq(schema.param.paramKey, key), notDeleted(schema.param.isDeleted)))
    .limit(1);
  return row?.v ?? fallback;
}

export async function paramNumber(db: Db, key: string, fallback: number): Promise<number> {
  const n = Number(await paramValue(db, key, String(fallback)));
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A tenant's setting: parameter `<key>.<tenantId>` when set, else `<key>`, else the fallback. */
export async function tenantParamValue(
  db: Db,
  key: string,
  tenantId: string,
  fallback: string,
): Promise<string> {
  return paramValue(db, `${key}.${tenantId}`, await paramValue(db, key, fallback));
}
