import { createHash } from 'node:crypto';
import { type DictDecl, PLATFORM_DICTS } from '@smart/contracts';
import { inArray, sql } from 'drizzle-orm';
import { type Db, schema } from '../platform/db';

/**
 * The platform dictionaries declared in code (the platform's and every area's, `PLATFORM_DICTS`) brought
 * into blade_dict, as the menus are: run at a start whenever the declarations changed since the last
 * (`dictsStep`), so a dictionary or an entry declared later reaches installs seeded before. What an
 * administrator did is kept: a dictionary or entry present (even removed) is never written again, except an
 * English value still missing where the Chinese is still the declared one.
 */

/** The declarations as a seed step's name: a start after they changed syncs them again. */
export const dictsStep = (decls: readonly DictDecl[] = PLATFORM_DICTS) =>
  `dicts-${createHash('sha1').update(JSON.stringify(decls)).digest('hex').slice(0, 16)}`;

/** A dictionary's entries as rows under their parent row, in the declared order. */
export const entryRows = (code: string, items: DictDecl['items'], parentId: string) =>
  items.map((e, i) => ({
    parentId,
    code,
    dictKey: e.key,
    dictValue: e.zh,
    dictValueEn: e.en,
    remark: e.remark,
    sort: i + 1,
  }));

export async function syncDicts(db: Db, decls: readonly DictDecl[] = PLATFORM_DICTS): Promise<number> {
  const d = schema.dict;
  const codes = decls.map((x) => x.code);
  const rows = await db
    .select({ id: d.id, parentId: d.parentId, code: d.code, key: d.dictKey })
    .from(d)
    .where(inArray(d.code, codes));
  const parentOf = new Map(rows.filter((r) => r.parentId === '0').map((r) => [r.code, r.id]));
  const present = new Set(rows.filter((r) => r.parentId !== '0').map((r) => `${r.code}\u0000${r.key}`));
  const newParents = decls.filter((x) => !parentOf.has(x.code));
  if (newParents.length) {
    const made = await db
      .insert(d)
      .values(
        newParents.map(({ code, label }, i) => ({
          parentId: '0',
          code,
          dictValue: label.zh,
          dictValueEn: label.en,
          sort: 100 + i,
        })),
      )
      .returning({ id: d.id, code: d.code });
    for (const p of made) parentOf.set(p.code, p.id);
  }
  const entries = decls.flatMap(({ code, items }) =>
    entryRows(code, items, parentOf.get(code)!).filter((r) => !present.has(`${code}\u0000${r.dictKey}`)),
  );
  for (let i = 0; i < entries.length; i += 500) await db.insert(d).values(entries.slice(i, i + 500));
  await fillDictEnglish(db, decls);
  return newParents.length + entries.length;
}

/**
 * The declared English value of every dictionary and entry still without one, where the Chinese value is
 * still the declared one (an entry an administrator renamed is left for them to translate).
 */
export async function fillDictEnglish(db: Db, decls: readonly DictDecl[] = PLATFORM_DICTS) {
  const parents = decls.map((d) => sql`(${d.code}, ${d.label.zh}, ${d.label.en})`);
  await db.execute(sql`update blade_dict d set dict_value_en = v.en
    from (values ${sql.join(parents, sql`, `)}) as v(code, zh, en)
    where d.parent_id = '0' and d.code = v.code and d.dict_value = v.zh and d.dict_value_en is null`);
  const entries = decls.flatMap((d) => d.items.map((e) => sql`(${d.code}, ${e.key}, ${e.zh}, ${e.en})`));
  await db.execute(sql`update blade_dict d set dict_value_en = v.en
    from (values ${sql.join(entries, sql`, `)}) as v(code, dict_key, zh, en)
    where d.parent_id <> '0' and d.code = v.code and d.dict_key = v.dict_key and d.dict_value = v.zh
      and d.dict_value_en is null`);
}
