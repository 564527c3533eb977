import { and, eq, getTableName, inArray } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { keptWhileUnchanged } from '../../platform/db/changes';
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

const PARAM_TABLES = [getTableName(schema.param)];

/**
 * A tenant's settings in one read: for each key, parameter `<key>.<tenantId>` when set, else `<key>`, else
 * its fallback. Outside a transaction the answer is remembered while the parameters table is unchanged (the
 * change notifications say so, from every server); inside one, and while they cannot be heard, it is read.
 */
export async function tenantParams<K extends string>(
  db: Db,
  tenantId: string,
  fallbacks: Record<K, string>,
): Promise<Record<K, string>> {
  const keys = Object.keys(fallbacks) as K[];
  const wanted = [...keys, ...keys.map((k) => `${k}.${tenantId}`)];
  const rows = keptWhileUnchanged(db, PARAM_TABLES, `params|${wanted.join('|')}`, () =>
    db
      .select({ key: schema.param.paramKey, v: schema.param.paramValue })
      .from(schema.param)
      .where(and(inArray(schema.param.paramKey, wanted), notDeleted(schema.param.isDeleted)))
      .then((found) => new Map(found.map((r) => [r.key, r.v]))),
  );
  const by = await rows;
  return Object.fromEntries(
    keys.map((k) => [k, by.get(`${k}.${tenantId}`) ?? by.get(k) ?? fallbacks[k]]),
  ) as Record<K, string>;
}

/** A tenant's setting: parameter `<key>.<tenantId>` when set, else `<key>`, else the fallback. */
export async function tenantParamValue(
  db: Db,
  key: string,
  tenantId: string,
  fallback: string,
): Promise<string> {
  return (await tenantParams(db, tenantId, { [key]: fallback }))[key];
}
