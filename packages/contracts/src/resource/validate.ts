import { isId } from '../constants';
import { FIELD_MESSAGES, fill, hasNul, idCardInfo, localize, PHONE_MESSAGES } from './formats';
import { fieldKind } from './kinds';
import { deploymentDay } from './today';
import type { FieldDef, ResourceDef, Text2 } from './types';

/**
 * Field rules, written once and run on both ends: the web's form rules call `checkField`, and the server
 * calls `parseRecord` on every submit body. Messages are the spec's where it gives them.
 */

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The message for a missing required value. */
export function requiredMessage(f: FieldDef): Text2 {
  if (f.requiredMessage) return f.requiredMessage;
  // every phone number says the spec's words (§5), a contact number as a mobile does
  if (f.type === 'mobile' || f.type === 'phone') return PHONE_MESSAGES.empty;
  const label = f.label;
  const t = fieldKind(f).picked ? FIELD_MESSAGES.requiredSelect : FIELD_MESSAGES.required;
  return { zh: t.zh.replace('{label}', label.zh), en: t.en.replace('{label}', label.en.toLowerCase()) };
}

/** Checks one value: its kind's rule (kinds.ts), then, where the kind says so, the text rules; null when valid. */
export function checkField(f: FieldDef, value: unknown): Text2 | null {
  if (isEmpty(value)) return f.required ? requiredMessage(f) : null;
  const label = f.label;
  const s = typeof value === 'string' ? value : String(value);
  // no column can hold a NUL character, whatever the field's type
  if (hasNul(s)) return localize(FIELD_MESSAGES.format, label);
  const kind = fieldKind(f);
  const own = kind.check?.(s, f, value) ?? null;
  // a day to come, where the field says none can be: counted in the deployment's day
  if (!own && f.notAfterToday && s.slice(0, 10) > deploymentDay())
    return localize(FIELD_MESSAGES.future, label);
  if (own || !kind.textRules) return own;
  if (typeof value !== 'string' && typeof value !== 'number') return localize(FIELD_MESSAGES.format, label);
  const max = f.max ?? defaultMax(f);
  if (s.length > max) return fill(localize(FIELD_MESSAGES.tooLong, label), { max });
  if (f.min !== undefined && s.length < f.min)
    return fill(localize(FIELD_MESSAGES.tooShort, label), { min: f.min });
  if (f.pattern && !new RegExp(`^(?:${f.pattern})$`).test(s))
    return f.patternMessage ?? localize(FIELD_MESSAGES.format, label);
  return null;
}

/**
 * Whether a text names a row of a resource: an id, or, for a resource keyed by a field of its own
 * (`ResourceDef.idField`: a region's code), a value that field's rule accepts.
 */
export function isRowKey(def: Pick<ResourceDef, 'idField' | 'fields'>, value: string): boolean {
  if (!def.idField) return isId(value);
  const f = def.fields.find((x) => x.name === def.idField);
  return f !== undefined && checkField({ ...f, required: true }, value) === null;
}

/** The longest value of a field that sets no max: its kind's. */
export const defaultMax = (f: FieldDef): number => fieldKind(f).max;

/** Where a `ref` / `refs` field's label is answered in list and detail rows: villagerId → villagerName. */
export function refLabelKey(f: Pick<FieldDef, 'name'>): string {
  if (f.name.endsWith('Ids')) return `${f.name.slice(0, -3)}Names`;
  if (f.name.endsWith('Id')) return `${f.name.slice(0, -2)}Name`;
  return `${f.name}Name`;
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

export const NOT_ABOVE_MESSAGE = {
  zh: '{label}不能超过{other}',
  en: '{label} cannot exceed {other}',
} as const;

/** The other fields of the record a field's rules read (`notBefore`, `requiredWhen`, `notAbove`). */
export function relatedFields(f: FieldDef): string[] {
  return [f.notBefore, f.requiredWhen?.field, f.notAbove?.field].filter((x): x is string => !!x);
}

/** Whether another field's value makes a field required (`requiredWhen`). */
export function requiredBy(f: FieldDef, other: unknown): boolean {
  const w = f.requiredWhen;
  if (!w) return false;
  if (w.is) return !isEmpty(other) && w.is.includes(String(other));
  return w.blank ? isEmpty(other) : !isEmpty(other);
}

/**
 * A field's rules that read other fields of the record — not before another day, required by another
 * field's value, not above another number — the same on both ends: the server's `checkRecord` and the
 * form's rule for the field (with the values on the form). `has` says which fields the record holds: a
 * rule is judged only when the record holds both of its fields (an update that sends one side is
 * judged by the engine against the stored row). The first problem, or null.
 */
export function checkRelated(
  f: FieldDef,
  fields: readonly FieldDef[],
  record: Record<string, unknown>,
  has: (name: string) => boolean = (name) => Object.hasOwn(record, name),
): Text2 | null {
  const find = (name: string) => fields.find((x) => x.name === name);
  const before = f.notBefore ? find(f.notBefore) : undefined;
  if (before && has(f.name) && has(before.name)) {
    const err = checkRange(f, record[f.name], before, record[before.name]);
    if (err) return err;
  }
  const w = f.requiredWhen;
  if (w && has(f.name) && has(w.field) && isEmpty(record[f.name]) && requiredBy(f, record[w.field]))
    return w.message ?? requiredMessage({ ...f, required: true });
  const above = f.notAbove ? find(f.notAbove.field) : undefined;
  if (above && has(f.name) && has(above.name)) {
    const v = record[f.name];
    const limit = record[above.name];
    if (!isEmpty(v) && !isEmpty(limit) && Number(v) > Number(limit))
      return (
        f.notAbove?.message ?? {
          zh: NOT_ABOVE_MESSAGE.zh.replace('{label}', f.label.zh).replace('{other}', above.label.zh),
          en: NOT_ABOVE_MESSAGE.en
            .replace('{label}', f.label.en)
            .replace('{other}', above.label.en.toLowerCase()),
        }
      );
  }
  return null;
}

export const AGREE_MESSAGES = {
  birthDate: { zh: '{label}与身份证号码不一致', en: '{label} does not agree with the ID number' },
  sex: { zh: '{label}与身份证号码不一致', en: '{label} does not agree with the ID number' },
} as const;

/**
 * Checks between fields of one record (a date not before another, a field another one's value makes
 * required, a number not above another, an ID number and the birth date and sex it states); the first
 * disagreement, naming the field that disagrees, or null. Only values present in the record are compared.
 */
export function checkRecord(def: ResourceDef, record: Record<string, unknown>): FieldError | null {
  for (const f of def.fields) {
    if (!relatedFields(f).length) continue;
    const err = checkRelated(f, def.fields, record);
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
    // keep the stored secret (an empty value, or its stand-in sent back); creation hooks demand one
    if (f.secret && (isEmpty(raw) || (f.secretShown !== undefined && raw === f.secretShown))) continue;
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
  const own = fieldKind(f).normalize;
  if (own) return own(v);
  return typeof v === 'string' ? v.trim() : String(v);
}
