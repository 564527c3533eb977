import type { FieldDef, ResourceDef, Text2 } from '@smart/contracts';
import { fieldKind, refLabelKey } from '@smart/contracts';
import type { CellValue } from 'exceljs';
import type { Db } from '../../db';
import { dictLabels } from '../../dicts';
import type { Lang } from '../../http/messages';
import { mountedByKey } from '../refs';

/** The columns of a resource's Excel files, and how a cell is written and read (export, template, import). */

export const YES = new Set(['是', '1', 'yes', 'y', 'true']);
export const NO = new Set(['否', '0', 'no', 'n', 'false']);

export interface Column {
  key: string;
  header: Text2;
  field: FieldDef;
  /** the referenced row's key (an ID number) beside its name: what an import matches first */
  refKey?: boolean;
  /** that key's own field (its kind decides how a public notice masks it) */
  keyField?: FieldDef;
}

/** The columns of a resource's files: fields marked for Excel, or its list columns. */
export function excelColumns(def: ResourceDef): Column[] {
  const cols: Column[] = [];
  for (const f of def.fields) {
    if (f.secret || f.type === 'password') continue;
    // ids of a tree (a user's roles) only where declared: by their names, as people read them
    if (f.type === 'ids' && !(f.tree && f.excel)) continue;
    if (!(f.excel ?? (f.list !== false && f.type !== 'image'))) continue;
    cols.push({ key: f.name, header: f.label, field: f });
    const target = f.type === 'ref' && f.ref ? mountedByKey.get(f.ref)?.def : undefined;
    const [targetKey, ...more] = target ? keyFields(target) : [];
    const keyField = targetKey && !more.length && target?.fields.find((x) => x.name === targetKey);
    if (keyField)
      cols.push({
        key: `${f.name}$key`,
        header: { zh: `${f.label.zh}${keyField.label.zh}`, en: `${f.label.en} ${keyField.label.en}` },
        field: f,
        refKey: true,
        keyField,
      });
  }
  return cols;
}

export type DictIndex = Map<string, { byKey: Map<string, string>; byLabel: Map<string, string> }>;

/**
 * The platform dictionaries the columns use: key → label in the request's language (what an export writes
 * and a template offers), and label → key for either language (a file written in Chinese or in English
 * imports alike; the request's language wins where the two languages share a label).
 */
export async function loadDicts(db: Db, def: ResourceDef, lang: Lang): Promise<DictIndex> {
  const codes = [...new Set(def.fields.filter((f) => f.dict).map((f) => f.dict!))];
  const labels = await dictLabels(db, codes, lang);
  const out: DictIndex = new Map();
  for (const code of codes) {
    const byKey = new Map<string, string>();
    const byLabel = new Map<string, string>();
    const entries = labels.get(code) ?? [];
    for (const e of entries) {
      byKey.set(e.key, e.value);
      byLabel.set(e.value, e.key);
    }
    // the other language's labels, where they name no entry already
    for (const e of entries)
      for (const other of [e.zh, e.en])
        if (other && !byLabel.has(other) && !byKey.has(other)) byLabel.set(other, e.key);
    out.set(code, { byKey, byLabel });
  }
  return out;
}

/** The labels a template offers for a dictionary column: one per entry, in the request's language. */
export const dictOptions = (dicts: DictIndex, code: string) => [...(dicts.get(code)?.byKey.values() ?? [])];

export const header = (c: Column, lang: Lang) => c.header[lang];

/** A number column (int, decimal, money): written as a number, not as text. */
export const isNumber = (f: FieldDef) =>
  f.type !== 'switch' && ['int', 'numeric'].includes(fieldKind(f).filter);

/**
 * How a public notice shows a column: masked by the kind of what it holds (an ID number, a phone) or
 * because the definition marks it personal; a personal text of several lines is left out ('omit').
 */
export function noticeMask(c: Column): 'idcard' | 'phone' | 'text' | 'omit' | undefined {
  const f = c.refKey ? c.keyField : c.field;
  if (!f) return undefined;
  if (f.type === 'idcard') return 'idcard';
  if (f.type === 'mobile' || f.type === 'phone') return 'phone';
  if (!c.refKey && f.personal) return f.type === 'textarea' || f.type === 'richText' ? 'omit' : 'text';
  return undefined;
}

/**
 * How a column's cell is written from an answered row, decided once for the column (an export calls it for
 * every row): the referenced row's key or label, the dictionary's labels, the switch's word, a number.
 */
export function cellWriter(
  c: Column,
  dicts: DictIndex,
  lang: Lang,
): (row: Record<string, unknown>) => unknown {
  const f = c.field;
  const name = f.name;
  if (c.refKey) {
    const key = c.key;
    return (row) => row[key] ?? null;
  }
  if (f.type === 'ref' || f.type === 'refs' || f.type === 'ids') {
    const label = refLabelKey(f);
    return (row) => row[label] || null;
  }
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (f.dict) {
    const byKey = dicts.get(f.dict)?.byKey;
    const labelOf = (k: string) => byKey?.get(k) ?? k;
    return (row) => {
      const v = row[name];
      if (empty(v)) return null;
      const s = String(v);
      return s.includes(',') ? s.split(',').map(labelOf).join(',') : labelOf(s);
    };
  }
  if (f.type === 'switch') {
    const [yes, no] = lang === 'en' ? ['Yes', 'No'] : ['是', '否'];
    return (row) => {
      const v = row[name];
      return empty(v) ? null : Number(v) === 1 ? yes : no;
    };
  }
  if (isNumber(f))
    return (row) => {
      const v = row[name];
      if (empty(v)) return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : String(v);
    };
  return (row) => {
    const v = row[name];
    return empty(v) ? null : v;
  };
}

/** A cell as the text a person typed: dates as YYYY-MM-DD, formulas by their result, rich text joined. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    const date = `${value.getUTCFullYear()}-${p(value.getUTCMonth() + 1)}-${p(value.getUTCDate())}`;
    const time = `${p(value.getUTCHours())}:${p(value.getUTCMinutes())}:${p(value.getUTCSeconds())}`;
    return time === '00:00:00' ? date : `${date} ${time}`;
  }
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return cellText(value.result as CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

/** 2026/1/5 and 2026.1.5 are how people type dates: both mean 2026-01-05. */
export function normalizeDate(s: string): string {
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(.*)$/.exec(s);
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}${m[4]}` : s;
}

/** What a template's note says of each column. */
export function describe(c: Column, dicts: DictIndex, lang: Lang, def: ResourceDef): string {
  const f = c.field;
  const parts: string[] = [];
  const en = lang === 'en';
  if (c.refKey)
    parts.push(en ? 'identifies the row named beside it when names repeat' : '同名时用于确定是哪一位');
  else {
    if (f.required) parts.push(en ? 'required' : '必填');
    if (keyFields(def).includes(f.name))
      parts.push(en ? 'a row with an existing value updates that row' : '已存在的值将更新该行,而不是新增');
    if (f.dict) parts.push(`${en ? 'one of' : '可选值'}: ${dictOptions(dicts, f.dict).join(', ')}`);
    const hint = fieldKind(f).excelHint?.(f);
    if (hint) parts.push(hint[lang]);
  }
  return parts.join('; ');
}

export const norm = (v: unknown) => String(v).trim().toUpperCase();

/** The field(s) whose values identify a row of the file: excel.key, one name or several. */
export function keyFields(def: ResourceDef): string[] {
  const k = def.excel?.key;
  return k === undefined ? [] : Array.isArray(k) ? k : [k];
}
