/**
 * Pure value helpers of the field kinds (no React): what is empty, comma lists, dates, date ranges and
 * switches on the wire, amounts and units, and the text of formatted text.
 */
import { type FieldDef, fieldKind, type Text2 } from '@smart/contracts/core';
import dayjs, { type Dayjs } from 'dayjs';

/** What every empty cell and empty value of a view shows, whatever its kind: an em dash, never `null`. */
export const EMPTY = '—';

/** Nothing to show or send: undefined, null, '' or an empty list. */
export const isEmptyValue = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A comma-joined list (ids, dictionary keys, image paths) or an array → its non-empty items. */
export function splitList(v: unknown): string[] {
  if (isEmptyValue(v)) return [];
  const items = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return items.map((s) => s.trim()).filter(Boolean);
}

export function formatForWire(f: Pick<FieldDef, 'type'>, v: Dayjs): string {
  return v.format(f.type === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm:ss');
}

/** A switch's value (1 / '1' / true) is on. */
export const isOn = (v: unknown): boolean => v === true || Number(v) === 1;

/** A switch of the add / edit form (on / off) → 1 / 0 on the wire. */
export const switchToWire = (v: unknown): 0 | 1 => (isOn(v) ? 1 : 0);

/**
 * The switch search filter (是 / 否 / 全部) → the query value: 是 sends 1, 否 sends 0, 全部 (empty) nothing.
 * A switch filter can say 否: its choice is a string, never a boolean that an empty form would also give.
 */
export function switchFilterToWire(v: unknown): '' | 0 | 1 {
  if (v === true || v === 1 || v === '1') return 1;
  if (v === false || v === 0 || v === '0') return 0;
  return '';
}

/** A date range's wire value (`YYYY-MM-DD,YYYY-MM-DD`) → the range picker's [start, end]; undefined if it is not one. */
export function dateRangeToForm(v: unknown): [Dayjs, Dayjs] | undefined {
  const [a, b, more] = Array.isArray(v) ? v : String(v).split(',');
  if (more !== undefined || !a || !b) return undefined;
  const start = dayjs(dayjs.isDayjs(a) ? a : String(a).trim());
  const end = dayjs(dayjs.isDayjs(b) ? b : String(b).trim());
  return start.isValid() && end.isValid() ? [start, end] : undefined;
}

/** The range picker's [start, end] → `YYYY-MM-DD,YYYY-MM-DD` ('' until both ends are picked). */
export function dateRangeToWire(v: unknown): string {
  if (typeof v === 'string') return v;
  const range = dateRangeToForm(v);
  return range ? range.map((d) => d.format('YYYY-MM-DD')).join(',') : '';
}

/** A date range as it reads: `2026-01-01 ~ 2026-03-31`. */
export const dateRangeText = (v: unknown): string => String(v).split(',').join(' ~ ');

/** The unit a number of the field is shown in: the field's own, else its kind's (money: 元); none otherwise. */
export const unitOf = (f: Pick<FieldDef, 'type' | 'unit'>): Text2 | undefined => f.unit ?? fieldKind(f).unit;

/**
 * An amount as it reads: thousands grouped, exactly two decimals (`1234.5` → `1,234.50`). Worked on the
 * decimal text, not a float, so that what the server answers (`"100.50"`) is shown digit for digit.
 */
export function formatMoney(v: unknown): string {
  let s = typeof v === 'number' ? v.toFixed(2) : String(v).trim();
  if (!/^-?\d+(?:\.\d+)?$/.test(s)) {
    const n = Number(s);
    if (!Number.isFinite(n)) return String(v);
    s = n.toFixed(2);
  }
  const negative = s.startsWith('-');
  const [whole, fraction = ''] = (negative ? s.slice(1) : s).split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  // more than two places (never from the server): rounded half up on the number
  const cents = fraction.length > 2 ? Number(`0.${fraction}`).toFixed(2).slice(2) : fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${grouped}.${cents}`;
}

/** A number and its unit, as it reads (`12.5 kW`, `1,234.50 元`); money is formatted as an amount. */
export function numberText(
  f: Pick<FieldDef, 'type' | 'unit'>,
  v: unknown,
  lang: 'zh' | 'en',
  withUnit = true,
): string {
  const n = f.type === 'money' ? formatMoney(v) : String(v);
  const unit = withUnit ? unitOf(f)?.[lang] : undefined;
  return unit ? `${n} ${unit}` : n;
}

/** The unit a list column of the field says once in its header: a number's (not a share's, drawn as a bar). */
export const columnUnit = (f: Pick<FieldDef, 'type' | 'unit' | 'percent'>): Text2 | undefined =>
  ['int', 'decimal', 'money'].includes(f.type) && !f.percent ? unitOf(f) : undefined;

/**
 * A list column's title: a number's unit said once, in the header as the exports write it (`预算资金(元)`,
 * `Budget (yuan)`), so its cells are figures alone and the column is no wider than its numbers; a label
 * that already names its unit is left as it is.
 */
export function columnTitle(
  f: Pick<FieldDef, 'type' | 'unit' | 'percent' | 'label'>,
  lang: 'zh' | 'en',
): string {
  const label = f.label[lang];
  const unit = columnUnit(f)?.[lang];
  if (!unit || label.includes(`(${unit})`)) return label;
  return lang === 'zh' ? `${label}(${unit})` : `${label} (${unit})`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The plain text of formatted text (HTML), blocks separated by a space, cut to `max` characters with …. */
export function htmlToText(html: unknown, max = 40): string {
  const text = String(html)
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<\/?(?:p|br|h[1-6]|li|tr|td|th|div|blockquote|pre|hr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? m;
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    })
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** JSON text shown or edited indented (two spaces); text that is not JSON is left as it is. */
export function prettyJson(v: unknown): string {
  if (typeof v !== 'string') return JSON.stringify(v, null, 2);
  try {
    return JSON.stringify(JSON.parse(v), null, 2);
  } catch {
    return v;
  }
}

/** A video the browser plays itself: an http(s) address of an .mp4 or .webm file (not a stream or a page). */
export function isPlayableVideo(v: unknown): boolean {
  try {
    const u = new URL(String(v));
    return (u.protocol === 'http:' || u.protocol === 'https:') && /\.(?:mp4|webm)$/i.test(u.pathname);
  } catch {
    return false;
  }
}

/** The last segment of a path (a file's name). */
export const baseName = (path: string): string => path.split('/').pop() || path;
