import { and, asc, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from './db';
import type { Lang } from './http/messages';
import { notDeleted } from './sql';

/**
 * Dictionary values in the caller's language, from one place. A dictionary row holds its value in Chinese
 * (`dict_value`) and, optionally, in English (`dict_value_en`): in English the English value where there
 * is one, else the Chinese. Every read that shows a dictionary value as a label uses `dictValueIn`; the
 * management screens read both columns as they are.
 */

type DictTable = typeof schema.dict | typeof schema.dictBiz;

/** The value of a row of `table` (platform dictionaries unless given) as shown in `lang`. */
export function dictValueIn(lang: Lang, table: DictTable = schema.dict): SQL<string> {
  // both tables have the same columns (dict_biz adds tenant_id)
  const d = table as typeof schema.dict;
  return lang === 'en'
    ? sql<string>`coalesce(nullif(${d.dictValueEn}, ''), ${d.dictValue})`
    : sql<string>`${d.dictValue}`;
}

export interface DictLabel {
  key: string;
  /** in the language asked for */
  value: string;
  zh: string;
  en: string | null;
}

/** The live entries of these platform dictionaries, in their order, labelled in `lang`: code → entries. */
export async function dictLabels(db: Db, codes: readonly string[], lang: Lang) {
  const out = new Map<string, DictLabel[]>(codes.map((c) => [c, []]));
  if (!codes.length) return out;
  const d = schema.dict;
  const rows = await db
    .select({ code: d.code, key: d.dictKey, value: dictValueIn(lang), zh: d.dictValue, en: d.dictValueEn })
    .from(d)
    .where(and(inArray(d.code, [...codes]), ne(d.parentId, '0'), notDeleted(d.isDeleted)))
    .orderBy(asc(d.sort), asc(d.id));
  for (const r of rows) out.get(r.code)?.push({ key: r.key, value: r.value, zh: r.zh, en: r.en });
  return out;
}
