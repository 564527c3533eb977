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
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ID = /^\d{1,19}$/;

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
  ['dict', 'dictMulti', 'ids', 'ref', 'date', 'datetime', 'switch'].includes(f.type);

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
  switch (f.type) {
    case 'int':
    case 'decimal': {
      const n = typeof value === 'number' ? value : Number(s);
      if (!Number.isFinite(n) || (f.type === 'int' && !Number.isInteger(n)))
        return localize(FIELD_MESSAGES.number, label);
      if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max))
        return localize(FIELD_MESSAGES.range, label);
      return null;
    }
    case 'switch':
      return s === '0' || s === '1' ? null : localize(FIELD_MESSAGES.format, label);
    case 'mobile':
      if (s.length !== 11) return PHONE_MESSAGES.length;
      return MOBILE.test(s) ? null : PHONE_MESSAGES.format;
    case 'email':
      if (!EMAIL.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'date':
      if (!DATE.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'datetime':
      if (!DATETIME.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'ref':
      if (!ID.test(s)) return localize(FIELD_MESSAGES.format, label);
      break;
    case 'ids':
      if (!s.split(',').every((x) => ID.test(x))) return localize(FIELD_MESSAGES.format, label);
      break;
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
    default:
      return 255;
  }
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
    if (f.readOnly || f.form === false) continue;
    const present = Object.hasOwn(body, f.name);
    // on update, an absent field keeps its value; on create, absent means empty
    if (!present && mode === 'update') continue;
    const raw = body[f.name];
    if (f.secret && isEmpty(raw)) continue; // keep the stored secret; creation hooks demand one
    const err = checkField(f, raw);
    if (err) return { error: { field: f.name, message: err } };
    record[f.name] = normalize(f, raw);
  }
  return { record };
}

function normalize(f: FieldDef, v: unknown): unknown {
  if (isEmpty(v)) return f.default ?? null;
  if (f.type === 'int' || f.type === 'switch') return Math.trunc(Number(v));
  if (f.type === 'decimal') return String(Number(v));
  return typeof v === 'string' ? v.trim() : String(v);
}
