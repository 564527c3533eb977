import {
  checkField,
  checkRelated,
  type FieldDef,
  relatedFields,
  requiredMessage,
} from '@smart/contracts/core';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { currentLanguage } from '../i18n';
import { kindOf } from './kinds';
import type { FieldControlProps } from './types';
import { formatForWire } from './values';

export { DictLabel } from './kinds';
export type { FieldControlProps } from './types';
export { formatForWire } from './values';

/**
 * antd form rules from the shared field rules: the browser says exactly what the server would. A password
 * is typed in clear (the server checks its md5), required when a record is added and absent otherwise.
 */
export function rulesFor(
  f: FieldDef,
  mode: 'add' | 'edit' | 'view' = 'add',
  fields: FieldDef[] = [],
): Rule[] {
  const lang = currentLanguage();
  if (f.type === 'password') {
    return mode === 'add'
      ? [{ required: true, whitespace: true, message: requiredMessage({ ...f, required: true })[lang] }]
      : [];
  }
  const rules: Rule[] = [];
  if (f.required && !f.secret) rules.push({ required: true, message: requiredMessage(f)[lang] });
  rules.push({
    validator: async (_rule, value) => {
      // what would be sent: a day, a date range, a list, a switch's 1 / 0 as the wire has them
      const v = value === undefined || value === null ? value : toWireValue(f, value);
      const err = checkField({ ...f, required: false }, v);
      if (err) throw new Error(err[lang]);
    },
  });
  // the rules that read other fields (a day not before another, required by another's value, a number
  // not above another): the same function the server runs, with the values on the form
  const related = relatedFields(f)
    .map((name) => fields.find((x) => x.name === name))
    .filter((x): x is FieldDef => !!x);
  if (related.length)
    rules.push(({ getFieldValue }) => ({
      validator: async (_rule, value) => {
        const record: Record<string, unknown> = { [f.name]: wireOf(f, value) };
        for (const o of related) record[o.name] = wireOf(o, getFieldValue(o.name));
        const err = checkRelated(f, fields, record);
        if (err) throw new Error(err[lang]);
      },
    }));
  return rules;
}

/** A form value as the wire has it (a day, a list, a switch's 1 / 0); empty stays empty. */
const wireOf = (f: FieldDef, v: unknown): unknown =>
  v === undefined || v === null || v === '' ? '' : toWireValue(f, v);

/** Row value → form value (dates become dayjs, comma lists become arrays, a switch on / off). */
export function toFormValue(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  const kind = kindOf(f);
  return kind.toForm ? kind.toForm(v, f) : v;
}

/** Form value → wire value (a typed password leaves the browser as its lower-case md5 hex only). */
export function toWireValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null) return '';
  const kind = kindOf(f);
  if (kind.toWire) return kind.toWire(v, f);
  if (dayjs.isDayjs(v)) return formatForWire(f, v);
  if (Array.isArray(v)) return v.join(',');
  return v;
}

/** Search form value → query value (a switch filter's 否 is 0, its 全部 nothing). */
export function toFilterValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null) return '';
  const kind = kindOf(f);
  return kind.toFilter ? kind.toFilter(v, f) : toWireValue(f, v);
}

/** The add / edit dialog's control of a field: its kind's. */
export function FieldControl(props: FieldControlProps): ReactNode {
  return kindOf(props.field).control(props);
}

/** The search form's control of a field: its kind's. */
export function FieldSearchControl(props: FieldControlProps): ReactNode {
  return kindOf(props.field).search(props);
}
