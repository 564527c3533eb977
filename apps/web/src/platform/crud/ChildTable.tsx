/**
 * A definition's children (`ResourceDef.children`: a plan's steps) in the add / edit dialog and the view: one
 * line per row with the child's form fields — each its kind's control, named by the row (第 3 步 计划日期) —,
 * a button that adds a row and one that removes each. The dialog sends the rows with the record; the server
 * checks them by the child's definition, as the rules here do first.
 */

import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type ChildDecl, checkField, type FieldDef, fill } from '@smart/contracts/core';
import { placeholderOf } from '@smart/contracts/placeholder';
import { Button, Space, Table, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { FieldControl, toFormValue, toWireValue } from './fields';
import { kindOf } from './kinds';
import type { Row } from './types';
import { isEmptyValue } from './values';

/** A child row as the form holds it: its id once saved (a new one: a key of this form's), its fields as the wire has them. */
type ChildRow = Record<string, unknown> & { id?: string; _key?: string };

let newRows = 0;
/** a row's React key: its id, or the key it was given when added */
const rowKey = (r: ChildRow) => String(r.id ?? r._key);

/** The fields a child row is edited by: its form fields but the one that names the parent. */
export const childFields = (decl: ChildDecl): FieldDef[] =>
  decl.resource.fields.filter(
    (f) => f.name !== decl.via && f.form !== false && !f.readOnly && f.type !== 'password' && !f.secret,
  );

/**
 * A row's name on screen: the declaration's (第3步, Step 3) with a space between Chinese and a number, as the
 * console's labels write them (第 3 步); its test id is its English name (step-3).
 */
const rowName = (decl: ChildDecl, n: number, lang: 'zh' | 'en') =>
  fill(decl.row, { n })
    [lang].replace(/([\u4e00-\u9fff])(\d)/g, '$1 $2')
    .replace(/(\d)([\u4e00-\u9fff])/g, '$1 $2');
const rowTestId = (decl: ChildDecl, n: number) => fill(decl.row, { n }).en.toLowerCase().replace(/\W+/g, '-');

const rowsOf = (value: unknown): ChildRow[] => (Array.isArray(value) ? (value as ChildRow[]) : []);

/** The rows as they are sent: a kept row with its id, each field as the wire has it. */
export function childrenToWire(decl: ChildDecl, value: unknown): ChildRow[] {
  const fields = childFields(decl);
  return rowsOf(value).map((r) => ({
    ...(r.id ? { id: r.id } : {}),
    ...Object.fromEntries(fields.map((f) => [f.name, r[f.name] ?? ''])),
  }));
}

/** The form's rule: every row's fields by the child's own rules, the first problem named by its row. */
export function childRules(decl: ChildDecl): Rule[] {
  return [
    {
      validator: async (_rule, value) => {
        const lang = currentLanguage();
        for (const [i, row] of rowsOf(value).entries())
          for (const f of childFields(decl)) {
            const err = checkField(f, row[f.name]);
            if (err) throw new Error(`${rowName(decl, i + 1, lang)} ${err[lang]}`);
          }
      },
    },
  ];
}

/** The child rows of the add / edit dialog (a form control: value and onChange come from the form). */
export function ChildTable({
  decl,
  value,
  onChange,
  id,
  disabled,
  rowExtra,
}: {
  decl: ChildDecl;
  value?: unknown;
  onChange?: (rows: ChildRow[]) => void;
  id?: string;
  disabled?: boolean;
  /** what a screen shows after a row's controls (a step that is overdue, done by a record) */
  rowExtra?: (row: Row) => ReactNode;
}) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const rows = rowsOf(value);
  const fields = childFields(decl);
  const change = (i: number, name: string, v: unknown) =>
    onChange?.(rows.map((r, j) => (j === i ? { ...r, [name]: v } : r)));
  return (
    <fieldset id={id} aria-label={decl.label[lang]} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      {!rows.length && <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>}
      {rows.map((r, i) => {
        const n = rowName(decl, i + 1, lang);
        return (
          <Space
            key={rowKey(r)}
            wrap
            style={{ display: 'flex', marginBottom: 8 }}
            data-testid={rowTestId(decl, i + 1)}
          >
            <Typography.Text style={{ minWidth: 52, display: 'inline-block' }}>{n}</Typography.Text>
            {fields.map((f) => (
              <div key={f.name} style={{ minWidth: f.type === 'textarea' ? 220 : 140 }}>
                <FieldControl
                  field={f}
                  resource={decl.resource.key}
                  disabled={disabled}
                  label={`${n} ${f.label[lang]}`}
                  placeholder={placeholderOf(f, lang)}
                  value={toFormValue(f, r[f.name])}
                  onChange={(v) => change(i, f.name, toWireValue(f, v))}
                />
              </div>
            ))}
            {rowExtra?.(r as Row)}
            <Button
              aria-label={t('crud.removeRow', { row: n })}
              icon={<DeleteOutlined />}
              disabled={disabled}
              onClick={() => onChange?.(rows.filter((_, j) => j !== i))}
            />
          </Space>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        disabled={disabled}
        onClick={() => onChange?.([...rows, { _key: `new-${++newRows}` }])}
      >
        {decl.add[lang]}
      </Button>
    </fieldset>
  );
}

/** The child rows of the view dialog: a small table of their fields as values (words, names, days). */
export function ChildView({ decl, record }: { decl: ChildDecl; record: Row }) {
  const lang = currentLanguage();
  const rows = rowsOf(record[decl.name]) as Row[];
  const fields = childFields(decl);
  return (
    <section style={{ marginTop: 16 }}>
      <Typography.Title level={5}>{decl.label[lang]}</Typography.Title>
      <Table<Row>
        size="small"
        rowKey={(r) => String(r.id)}
        pagination={false}
        dataSource={rows}
        columns={[
          {
            key: 'n',
            title: '#',
            width: 48,
            render: (_v, _r, i) => i + 1,
          },
          ...fields.map((f) => ({
            key: f.name,
            title: f.label[lang],
            render: (_v: unknown, r: Row) =>
              isEmptyValue(r[f.name]) ? '-' : kindOf(f).view(r[f.name], r, f),
          })),
        ]}
      />
    </section>
  );
}
