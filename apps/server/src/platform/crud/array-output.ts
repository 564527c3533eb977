/**
 * A list page's rows as answered, built straight from the driver's arrays (the hot path of every list read):
 * what the engine's `answer` writes for rows read through Drizzle, at a fraction of the cost.
 */
import type { FieldDef, ResourceDef } from '@smart/contracts';
import { Column, is, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { formatDateTime, formatInstant, timestamptzMs } from '../format';
import type { ResourceHooks } from './binding';
import { dictLabelOf, type Labels, nameKey } from './dict-names';

/** the last time stamp formatted: a row's update time is often its creation time, and rows come in runs */
let lastStamp = { raw: '', tz: '', text: '' };
/** what formatDateTime(new Date(raw), tz) writes for the text of a timestamptz */
function stampText(raw: string, tz: string): string {
  if (raw === lastStamp.raw && tz === lastStamp.tz) return lastStamp.text;
  const text = formatInstant(timestamptzMs(raw), tz);
  lastStamp = { raw, tz, text };
  return text;
}

/** the labels of a page without dictionary fields */
export const NO_LABELS: Labels = new Map();

/**
 * The engine's `answer` (see mountResource) of rows that arrive as arrays in the order of `selection`: each
 * value decoded by its column (`mapFromDriverValue`, as Drizzle does), booleans as 0/1, time stamps
 * formatted (a date field's to the day), the base columns, the labels of dictionary values
 * (`<field>Name`, as attachDictNames writes them), then the binding's `toRow`. The keys come in the same
 * order as `output` writes them. A time stamp column's text is read into an instant directly
 * (timestamptzMs: what `new Date(text)` reads) instead of through a Date. Built in one object literal
 * per row, so a page of rows costs one allocation each and no key is added afterwards.
 */
export function arrayOutput(
  def: ResourceDef,
  visible: FieldDef[],
  besideExtra: string[],
  selection: Record<string, PgColumn | SQL>,
  dictNames: FieldDef[],
  toRow: ResourceHooks['toRow'],
): (row: unknown[], tz: string, labels: Labels) => Record<string, unknown> {
  const keys = Object.keys(selection);
  const index = new Map(keys.map((k, i) => [k, i]));
  /** a timestamptz column whose decoder turns text into a Date: formatted from its text instead */
  const isStamp = (c: PgColumn | SQL) =>
    is(c, Column) &&
    c.columnType === 'PgTimestamp' &&
    (c as unknown as { withTimezone?: boolean }).withTimezone === true;
  const read = (key: string) => {
    const i = index.get(key);
    if (i === undefined) return () => undefined;
    const col = selection[key];
    // a column decodes its value; a binding's SQL (`beside`) by its own decoder (as-is unless mapWith)
    const decoder = is(col, Column)
      ? col
      : (col as unknown as { decoder: { mapFromDriverValue(v: unknown): unknown } }).decoder;
    // most columns (text, varchar, bigint as text) keep what the driver gave: no call per value for those
    if (decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue) return (row: unknown[]) => row[i];
    return (row: unknown[]) => {
      const raw = row[i];
      return raw === null || raw === undefined ? raw : decoder.mapFromDriverValue(raw);
    };
  };
  /**
   * A time stamp column as output writes it: a field's Date formatted (a date field's to the day) and any
   * other value as it is; a base column's (createTime, updateTime) always formatted, '' when null.
   */
  const stamp = (key: string, as: 'day' | 'time' | 'base') => {
    const i = index.get(key);
    const col = i === undefined ? undefined : selection[key];
    const get = read(key);
    const format = (v: unknown, tz: string) => {
      if (as === 'base') return formatDateTime(v as Date | null | undefined, tz);
      if (typeof v === 'boolean') return Number(v);
      if (!(v instanceof Date)) return v;
      return as === 'day' ? formatDateTime(v, tz).slice(0, 10) : formatDateTime(v, tz);
    };
    if (i === undefined || !col || !isStamp(col)) return (row: unknown[], tz: string) => format(get(row), tz);
    return (row: unknown[], tz: string) => {
      const raw = row[i];
      if (typeof raw !== 'string') return format(get(row), tz);
      const text = stampText(raw, tz);
      return as === 'day' ? text.slice(0, 10) : text;
    };
  };
  type Part = [string, (row: unknown[], tz: string, labels: Labels) => unknown];
  const parts: Part[] = [['id', read('id')]];
  if (def.tenant) parts.push(['tenantId', read('tenantId')]);
  for (const f of visible) {
    parts.push([f.name, stamp(f.name, f.type === 'date' ? 'day' : 'time')]);
  }
  for (const k of besideExtra) parts.push([k, read(k)]);
  if (def.baseColumns !== false) {
    parts.push(['status', read('status')]);
    parts.push(['createTime', stamp('createTime', 'base')]);
    parts.push(['updateTime', stamp('updateTime', 'base')]);
  }
  for (const f of dictNames) {
    const key = nameKey(f);
    if (parts.some(([k]) => k === key)) continue; // answered beside the row (attachDictNames keeps it too)
    const get = read(f.name);
    const code = f.dict as string;
    parts.push([key, (row, _tz, labels) => dictLabelOf(f, labels.get(code), get(row))]);
  }
  // one object literal with the keys in that order (a repeated key keeps its first place and takes the last
  // value, as assignments do): every row gets the same shape at once instead of growing key by key
  if (parts.some(([key]) => key === '__proto__'))
    return (row, tz, labels) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of parts) out[key] = value(row, tz, labels);
      return toRow ? toRow(out) : out;
    };
  const values = parts.map(([, value]) => value);
  const literal = parts.map(([key], i) => `${JSON.stringify(key)}: v[${i}](row, tz, labels)`).join(', ');
  const build = new Function('v', `return (row, tz, labels) => ({ ${literal} });`)(values) as (
    row: unknown[],
    tz: string,
    labels: Labels,
  ) => Record<string, unknown>;
  return toRow ? (row, tz, labels) => toRow(build(row, tz, labels)) : build;
}
