import { isId } from '../constants';
import type { FieldDef, ResourceDef, Text2 } from './types';

/**
 * Field rules, written once and run on both ends: the web's form rules call `checkField`, and the server
 * calls `parseRecord` on every submit body. Messages are the spec's where it gives them.
 */

export const PHONE_MESSAGES = {
  empty: { zh: '手机号码不能为空', en: 'phone number cannot be empty' },
  length: { zh: '手机号码长度不为11位', en: 'phone number length is not 11' },
  format: { zh: '手机号码格式不正确', en: 'phone number format is incorrect' },
} as const;

const MOBILE = /^1[3-9]\d{9}$/;
/** a landline: area code 0xx or 0xxx, a 7–8 digit number, an optional extension (0731-84561234-801) */
const LANDLINE = /^0\d{2,3}-?\d{7,8}(?:-\d{1,6})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DATETIME_OPTIONAL_SECONDS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;
const ID = { test: isId };

/** The range of an `int` field (a PostgreSQL integer column) whatever its own min and max say. */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
/** The largest magnitude of a `decimal` field without its own max: the widest column is numeric(14,2). */
export const DECIMAL_MAX = 999_999_999_999.99;
/** A dictionary key is kept in a varchar(10) or an integer column. */
export const DICT_KEY_MAX = 10;

/** A real day of the calendar (year 1 on): 2024-02-29 is one, 2024-02-30, 2023-02-29 and 2024-13-01 are not. */
export function isCalendarDay(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || y < 1 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** `YYYY-MM-DD` naming a real day. */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * `YYYY-MM-DD HH:mm:ss` (or, with `optionalSeconds`, also `YYYY-MM-DD HH:mm`) naming a real day and a real
 * time of it: 00:00:00 to 23:59:59.
 */
export function isDateTime(s: string, optionalSeconds = false): boolean {
  const m = (optionalSeconds ? DATETIME_OPTIONAL_SECONDS : DATETIME).exec(s);
  return (
    !!m &&
    isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6] ?? 0) <= 59
  );
}

/** Text PostgreSQL cannot store: a NUL character. */
export const hasNul = (s: string) => s.includes('\u0000');

const fill = (t: Text2, vars: Record<string, string | number>): Text2 => {
  let { zh, en } = t;
  for (const [k, v] of Object.entries(vars)) {
    zh = zh.replaceAll(`{${k}}`, String(v));
    en = en.replaceAll(`{${k}}`, String(v));
  }
  return { zh, en };
};

export const FIELD_MESSAGES = {
  required: { zh: '请输入{label}', en: 'please enter {label}' },
  requiredSelect: { zh: '请选择{label}', en: 'please select {label}' },
  tooLong: { zh: '{label}长度不能超过{max}个字符', en: '{label} must be at most {max} characters' },
  tooShort: { zh: '{label}长度不能少于{min}个字符', en: '{label} must be at least {min} characters' },
  format: { zh: '{label}格式不正确', en: '{label} has an incorrect format' },
  number: { zh: '{label}必须是数字', en: '{label} must be a number' },
  range: { zh: '{label}超出允许范围', en: '{label} is out of range' },
} as const;

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const selectLike = (f: FieldDef) =>
  ['dict', 'dictMulti', 'ids', 'ref', 'refs', 'date', 'datetime', 'switch', 'image'].includes(f.type);

/** The message for a missing required value. */
export function requiredMessage(f: FieldDef): Text2 {
  if (f.requiredMessage) return f.requiredMessage;
  if (f.type === 'mobile') return PHONE_MESSAGES.empty;
  const label = f.label;
  const t = selectLike(f) ? FIELD_MESSAGES.requiredSelect : FIELD_MESSAGES.required;
  return { zh: t.zh.replace('{label}', label.zh), en: t.en.replace('{label}', label.en.toLowerCase()) };
}

/** Checks one value; null when it is acceptable. */
export function checkField(f: FieldDef, value: unknown): Text2 | null {
  if (isEmpty(value)) return f.required ? requiredMessage(f) : null;
  const label = f.label;
  const s = typeof value === 'string' ? value : String(value);
  // no column can hold a NUL character, whatever the field's type
  if (hasNul(s)) return localize(FIELD_MESSAGES.format, label);
  switch (f.type) {
    case 'int':
    case 'decimal': {
      const n = typeof value === 'number' ? value : Number(s);
      if (!Number.isFinite(n) || (f.type === 'int' && !Number.isInteger(n)))
        return localize(FIELD_MESSAGES.number, label);
      if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max))
        return localize(FIELD_MESSAGES.range, label);
      // and whatever min and max say, within what the column holds
      if (f.type === 'int' ? n < INT_MIN || n > INT_MAX : Math.abs(n) > DECIMAL_MAX)
        return localize(FIELD_MESSAGES.range, label);
      return null;
    }
    case 'switch':
      return s === '0' || s === '1' ? null : localize(FIELD_MESSAGES.format, label);
    case 'mobile':
      if (s.length !== 11) return PHONE_MESSAGES.length;
      return MOBILE.test(s) ? null : PHONE_MESSAGES.format;
    case 'phone':
      if (!MOBILE.test(s) && !LANDLINE.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'email':
      if (!EMAIL.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'date':
      if (!isDate(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'datetime':
      if (!isDateTime(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'dict':
      // a numeric key may be kept in an integer column
      if (/^-?\d+$/.test(s.trim()) && (Number(s) < INT_MIN || Number(s) > INT_MAX))
        return localize(FIELD_MESSAGES.range, label);
      break;
    case 'ref':
      if (!ID.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'ids':
      if (!s.split(',').every((x) => ID.test(x))) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'refs': {
      const ids = s.split(',');
      if (ids.length > 500 || !ids.every((x) => ID.test(x))) return localize(FIELD_MESSAGES.format, label);
      return null;
    }
    case 'idcard': {
      const why = idCardProblem(s);
      if (why) return localize(ID_CARD_MESSAGES[why], label);
      break;
    }
    case 'image':
      if (s.length > (f.max ?? 2000) || !s.split(',').every((x) => ISSUED_IMAGE_PATH.test(x)))
        return localize(FIELD_MESSAGES.format, label);
      return null;
    case 'password':
      // what reaches the server is the md5 of what was typed; the browser checks the typed length
      return /^[0-9a-f]{32}$/.test(s) ? null : localize(FIELD_MESSAGES.format, label);
  }
  if (typeof value !== 'string' && typeof value !== 'number') return localize(FIELD_MESSAGES.format, label);
  const max = f.max ?? defaultMax(f);
  if (s.length > max) return fill(localize(FIELD_MESSAGES.tooLong, label), { max });
  if (f.min !== undefined && s.length < f.min)
    return fill(localize(FIELD_MESSAGES.tooShort, label), { min: f.min });
  if (f.pattern && !new RegExp(`^(?:${f.pattern})$`).test(s))
    return f.patternMessage ?? localize(FIELD_MESSAGES.format, label);
  return null;
}

function localize(t: Text2, label: Text2): Text2 {
  return { zh: t.zh.replaceAll('{label}', label.zh), en: t.en.replaceAll('{label}', label.en) };
}

export function defaultMax(f: FieldDef): number {
  switch (f.type) {
    case 'textarea':
      return 2000;
    case 'ids':
      return 20000;
    case 'dict':
      return DICT_KEY_MAX;
    case 'phone':
      return 20;
    default:
      return 255;
  }
}

/** Where a `ref` / `refs` field's label is answered in list and detail rows: villagerId → villagerName. */
export function refLabelKey(f: Pick<FieldDef, 'name'>): string {
  if (f.name.endsWith('Ids')) return `${f.name.slice(0, -3)}Names`;
  if (f.name.endsWith('Id')) return `${f.name.slice(0, -2)}Name`;
  return `${f.name}Name`;
}

/**
 * An image field holds only paths the server itself issued for an upload (avatar or business image, a
 * random name): never another URL, another API path (an <img> would call it) or a path with `..`.
 */
export const ISSUED_IMAGE_PATH =
  /^\/api\/(?:dfem-resource\/file\/avatar|dfem-hope-manage\/file\/image)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:png|jpg)$/;

export const ID_CARD_MESSAGES = {
  format: { zh: '{label}应为18位,末位可为X', en: '{label} must be 18 characters, the last may be X' },
  region: { zh: '{label}的地区码无效', en: '{label} has an invalid region code' },
  birth: { zh: '{label}中的出生日期无效', en: '{label} holds an invalid birth date' },
  check: { zh: '{label}校验位不正确', en: '{label} has a wrong check digit' },
} as const;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';
const PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61,
  62, 63, 64, 65, 71, 81, 82, 83, 91,
]);

/** The GB 11643 check character of the first 17 digits. */
export function idCardCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

/** Why a resident ID number is invalid, or null: 18 characters, a province, a real past date, the check digit. */
export function idCardProblem(id: string): keyof typeof ID_CARD_MESSAGES | null {
  if (!/^\d{17}[\dXx]$/.test(id)) return 'format';
  if (!PROVINCES.has(Number(id.slice(0, 2)))) return 'region';
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (
    y < 1900 ||
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== m - 1 ||
    date.getUTCDate() !== d ||
    date.getTime() > Date.now()
  )
    return 'birth';
  return idCardCheckDigit(id) === id[17].toUpperCase() ? null : 'check';
}

/** The birth date (YYYY-MM-DD) and sex (1 male, 2 female: the 17th digit's parity) a valid ID number states. */
export function idCardInfo(id: string): { birthDate: string; sex: '1' | '2' } | null {
  if (idCardProblem(id)) return null;
  return {
    birthDate: `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`,
    sex: Number(id[16]) % 2 === 1 ? '1' : '2',
  };
}

export const RANGE_MESSAGE = {
  zh: '{label}不能早于{other}',
  en: '{label} cannot be before {other}',
} as const;

/** A date that comes before the one it must not precede (`notBefore`): its message, else null. */
export function checkRange(f: FieldDef, value: unknown, other: FieldDef, otherValue: unknown): Text2 | null {
  if (isEmpty(value) || isEmpty(otherValue)) return null;
  // dates and date-times on the wire compare as text (YYYY-MM-DD[ HH:mm:ss])
  if (String(value) >= String(otherValue).slice(0, String(value).length)) return null;
  return {
    zh: RANGE_MESSAGE.zh.replace('{label}', f.label.zh).replace('{other}', other.label.zh),
    en: RANGE_MESSAGE.en.replace('{label}', f.label.en).replace('{other}', other.label.en),
  };
}

export const AGREE_MESSAGES = {
  birthDate: { zh: '{label}与身份证号码不一致', en: '{label} does not agree with the ID number' },
  sex: { zh: '{label}与身份证号码不一致', en: '{label} does not agree with the ID number' },
} as const;

/**
 * Checks between fields of one record (a date not before another, an ID number and the birth date and sex
 * it states); the first
 * disagreement, naming the field that disagrees, or null. Only values present in the record are compared.
 */
export function checkRecord(def: ResourceDef, record: Record<string, unknown>): FieldError | null {
  for (const f of def.fields) {
    if (!f.notBefore) continue;
    const other = def.fields.find((x) => x.name === f.notBefore);
    const err = other && checkRange(f, record[f.name], other, record[other.name]);
    if (err) return { field: f.name, message: err };
  }
  for (const f of def.fields) {
    if (f.type !== 'idcard' || !f.agrees || isEmpty(record[f.name])) continue;
    const info = idCardInfo(String(record[f.name]));
    if (!info) continue;
    for (const kind of ['birthDate', 'sex'] as const) {
      const other = f.agrees[kind];
      const target = other && def.fields.find((x) => x.name === other);
      if (!target || isEmpty(record[target.name])) continue;
      if (String(record[target.name]).slice(0, 10) !== info[kind])
        return { field: target.name, message: localize(AGREE_MESSAGES[kind], target.label) };
    }
  }
  return null;
}

export interface FieldError {
  field: string;
  message: Text2;
}

/**
 * Validates a submit body against the definition and returns the clean record: known, writable fields only
 * (ids, tenant and base columns never come from a body), numbers as numbers, empty strings as null.
 */
export function parseRecord(
  def: ResourceDef,
  body: Record<string, unknown>,
  mode: 'create' | 'update',
): { record: Record<string, unknown>; error?: undefined } | { error: FieldError; record?: undefined } {
  const record: Record<string, unknown> = {};
  for (const f of def.fields) {
    if (f.readOnly || f.form === false) {
      // computed by the server and never read from a body; a malformed value is still bad input
      const err = Object.hasOwn(body, f.name) ? checkField({ ...f, required: false }, body[f.name]) : null;
      if (err) return { error: { field: f.name, message: err } };
      continue;
    }
    const present = Object.hasOwn(body, f.name);
    // on update, an absent field keeps its value; on create, absent means empty
    if (!present && mode === 'update') continue;
    const raw = body[f.name];
    if (f.secret && isEmpty(raw)) continue; // keep the stored secret; creation hooks demand one
    const err = checkField(f, raw);
    if (err) return { error: { field: f.name, message: err } };
    record[f.name] = normalize(f, raw);
  }
  const disagreement = checkRecord(def, record);
  if (disagreement) return { error: disagreement };
  return { record };
}

function normalize(f: FieldDef, v: unknown): unknown {
  if (isEmpty(v)) return f.default ?? null;
  if (f.type === 'int' || f.type === 'switch') return Math.trunc(Number(v));
  if (f.type === 'decimal') return String(Number(v));
  if (f.type === 'idcard') return String(v).trim().toUpperCase();
  return typeof v === 'string' ? v.trim() : String(v);
}
