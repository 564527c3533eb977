import { type DictCode, type FieldDef, L, type Text2 } from './types';

/**
 * Shorthands for the fields every area declares, so an area file reads as its list of fields. Each takes
 * the field's name and label and lets `opts` override anything. Not re-exported from the package: the
 * names are short on purpose and only make sense inside a definition file.
 */

export const text = (name: string, label: Text2, max: number, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'text',
  max,
  ...opts,
});

export const date = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'date',
  ...opts,
});

/** Several lines of text: a whole form row, not a list column. */
export const area = (name: string, label: Text2, max = 1000, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'textarea',
  max,
  span: 24,
  list: false,
  ...opts,
});

export const remark = (opts: Partial<FieldDef> = {}): FieldDef =>
  area('remark', L('备注', 'Remark'), 500, opts);

export const dict = (name: string, label: Text2, code: DictCode, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'dict',
  dict: code,
  ...opts,
});

/** A row of another resource, picked with the searchable selector; lists answer `<name less Id>Name`. */
export const ref = (
  name: string,
  label: Text2,
  target: string,
  example: string,
  opts: Partial<FieldDef> = {},
): FieldDef => ({ name, label, type: 'ref', ref: target, search: 'equal', example, ...opts });

/** Several rows of another resource (comma-joined ids), a whole form row. */
export const refs = (
  name: string,
  label: Text2,
  target: string,
  example: string,
  opts: Partial<FieldDef> = {},
): FieldDef => ({ name, label, type: 'refs', ref: target, span: 24, example, ...opts });

/** A contact number: a mobile or a landline with its area code (an office's 0731-84561234). */
export const phone = (
  name = 'phone',
  label = L('联系电话', 'Phone'),
  opts: Partial<FieldDef> = {},
): FieldDef => ({
  name,
  label,
  type: 'phone',
  max: 20,
  ...opts,
});

/** Yes or no, 0 unless set. */
export const flag = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'switch',
  default: 0,
  ...opts,
});

/** An amount of money (元 unless `unit` names another), never below 0. */
export const money = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'money',
  min: 0,
  max: 1_000_000_000,
  ...opts,
});
