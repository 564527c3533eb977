import { type FieldDef, type ResourceDef, refLabelKey } from '@smart/contracts';
import type { Db } from '../db';
import { changesOf } from '../db/changes';
import { dictLabels } from '../dicts';
import { FieldInputError } from '../http/errors';
import type { Lang } from '../http/messages';

/**
 * `<field>Name` beside every dictionary column of an answered row (category → categoryName, scopeType →
 * scopeTypeName), in the caller's language, as the family's screens show them. The labels come from a
 * small cache of the platform dictionaries: kept while `blade_dict` is unchanged (every server hears of a
 * change, platform/db/changes.ts) and for a few seconds at most when changes cannot be heard, so answering
 * a page costs no query per row, and usually none at all.
 */

/** the table whose versions stamp the kept labels; list answers that carry labels read it too */
export const DICT_TABLE = 'blade_dict';
const DICT_TABLES = [DICT_TABLE];

const MAX_AGE_MS = 60_000;
const UNHEARD_MAX_AGE_MS = 3_000;

export type Labels = Map<string, Map<string, string>>;
const kept = new Map<string, { at: number; stamp: string | undefined; labels: Promise<Labels> }>();

/** The dictionary fields whose labels a row of this resource carries (not where the name is taken). */
export function dictNameFields(def: ResourceDef): FieldDef[] {
  // a field of that name, or the label of a reference (categoryId → categoryName), keeps its own
  const taken = new Set(def.fields.map((f) => f.name));
  for (const f of def.fields) if (f.type === 'ref' || f.type === 'refs') taken.add(refLabelKey(f));
  return def.fields.filter(
    (f) => (f.type === 'dict' || f.type === 'dictMulti') && f.dict && !f.secret && !taken.has(nameKey(f)),
  );
}

export const nameKey = (f: Pick<FieldDef, 'name'>) => `${f.name}Name`;

/** Forgets the kept labels (a dictionary written on this server). */
export function forgetDictNames() {
  kept.clear();
}

/** The labels of the dictionaries `fields` name, in `lang`: dictionary code → key → label. */
export function dictLabelsOf(db: Db, fields: FieldDef[], lang: Lang): Promise<Labels> {
  const named = codesOf(fields);
  return labelsOf(db, named.codes, named.keys[lang], lang);
}

/**
 * The dictionary codes of `fields`, once each, in one order, and the key of their kept labels in each
 * language: made once per list of fields (every list request asks for the same list's labels).
 */
const codesByFields = new WeakMap<FieldDef[], { codes: string[]; keys: Record<Lang, string> }>();
function codesOf(fields: FieldDef[]) {
  let named = codesByFields.get(fields);
  if (!named) {
    const codes = [...new Set(fields.map((f) => f.dict as string))].sort();
    const joined = codes.join(',');
    named = { codes, keys: { zh: `zh|${joined}`, en: `en|${joined}` } };
    codesByFields.set(fields, named);
  }
  return named;
}

function labelsOf(db: Db, codes: string[], key: string, lang: Lang): Promise<Labels> {
  const changes = changesOf(db);
  const stamp = changes?.listening ? changes.stamp(DICT_TABLES) : undefined;
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && hit.stamp === stamp && now - hit.at < (stamp === undefined ? UNHEARD_MAX_AGE_MS : MAX_AGE_MS))
    return hit.labels;
  if (kept.size > 1_000) kept.clear();
  const labels = dictLabels(db, codes, lang).then(
    (byCode) =>
      new Map([...byCode].map(([code, entries]) => [code, new Map(entries.map((e) => [e.key, e.value]))])),
  );
  kept.set(key, { at: now, stamp, labels });
  labels.catch(() => kept.delete(key));
  return labels;
}

/**
 * The label of one stored value of a dictionary field: '' for no value, a key without an entry as it is,
 * the keys of a multiple choice (`a,b`) each labelled and joined with 、.
 */
export function dictLabelOf(f: FieldDef, byKey: Map<string, string> | undefined, v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const text = String(v);
  if (!text.includes(',')) return byKey?.get(text) ?? text;
  return text
    .split(',')
    .map((k) => byKey?.get(k) ?? k)
    .join(f.type === 'dictMulti' ? '、' : ',');
}

/** Adds the `<field>Name` labels to rows as answered (in place); a key without an entry is shown as is. */
export async function attachDictNames(
  db: Db,
  fields: FieldDef[],
  lang: Lang,
  rows: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  if (!fields.length || !rows.length) return rows;
  const labels = await dictLabelsOf(db, fields, lang);
  for (const f of fields) {
    const byKey = labels.get(f.dict as string);
    const key = nameKey(f);
    for (const r of rows) if (!Object.hasOwn(r, key)) r[key] = dictLabelOf(f, byKey, r[f.name]);
  }
  return rows;
}

/**
 * A dictionary field holds keys of its dictionary (as they are now: an administrator may add entries), one
 * or, for a multiple choice, several comma-joined; anything else is a 400 naming the field, in the Excel
 * import's words. A dictionary without entries (not seeded) is not judged, nor is the field's default.
 */
const dictFieldsOf = new WeakMap<ResourceDef, FieldDef[]>();
export async function checkDictKeys(db: Db, def: ResourceDef, record: Record<string, unknown>) {
  let fields = dictFieldsOf.get(def);
  if (!fields) {
    fields = def.fields.filter((f) => (f.type === 'dict' || f.type === 'dictMulti') && f.dict);
    dictFieldsOf.set(def, fields);
  }
  const sent = fields.filter(
    (f) => record[f.name] !== undefined && record[f.name] !== null && record[f.name] !== '',
  );
  if (!sent.length) return;
  const labels = await dictLabelsOf(db, fields, 'zh');
  for (const f of sent) {
    const byKey = labels.get(f.dict as string);
    if (!byKey?.size) continue;
    const value = String(record[f.name]);
    // the definition's own default is valid by declaration (a menu's action 0: no button place)
    if (f.default !== undefined && value === String(f.default)) continue;
    const keys = f.type === 'dictMulti' ? value.split(',') : [value];
    if (keys.some((k) => !byKey.has(k)))
      throw new FieldInputError(f.name, {
        zh: `${f.label.zh}"${value}"不是可选值`,
        en: `${f.label.en} "${value}" is not one of the options`,
      });
  }
}
