import { checkField, checkRange, type FieldDef, requiredMessage } from '@smart/contracts/core';
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
  const other = f.notBefore ? fields.find((x) => x.name === f.notBefore) : undefined;
  if (other)
    rules.push(({ getFieldValue }) => ({
      validator: async (_rule, value) => {
        const wire = (x: FieldDef, v: unknown) => (dayjs.isDayjs(v) ? formatForWire(x, v) : v);
        const err = checkRange(f, wire(f, value), other, wire(other, getFieldValue(other.name)));
        if (err) throw new Error(err[lang]);
      },
    }));
  return rules;
}

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
