import { checkField, type FieldDef, requiredMessage } from '@smart/contracts';
import { DatePicker, Input, InputNumber, Select, Switch, TreeSelect } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { currentLanguage } from '../i18n';
import { useDict, useOptionTree } from './dict';

/** antd form rules from the shared field rules: the browser says exactly what the server would. */
export function rulesFor(f: FieldDef): Rule[] {
  const lang = currentLanguage();
  const rules: Rule[] = [];
  if (f.required && !f.secret) rules.push({ required: true, message: requiredMessage(f)[lang] });
  rules.push({
    validator: async (_rule, value) => {
      const v = dayjs.isDayjs(value)
        ? formatForWire(f, value)
        : Array.isArray(value)
          ? value.join(',')
          : value;
      const err = checkField({ ...f, required: false }, v);
      if (err) throw new Error(err[lang]);
    },
  });
  return rules;
}

export function formatForWire(f: FieldDef, v: Dayjs): string {
  return v.format(f.type === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm:ss');
}

/** Row value → form value (dates become dayjs, comma lists become arrays). */
export function toFormValue(f: FieldDef, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (f.type === 'date' || f.type === 'datetime') return dayjs(String(v));
  if (f.type === 'dictMulti' || f.type === 'ids') return String(v).split(',').filter(Boolean);
  if (f.type === 'dict') return String(v);
  if (f.type === 'switch') return Number(v) === 1;
  return v;
}

/** Form value → wire value. */
export function toWireValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null) return '';
  if (dayjs.isDayjs(v)) return formatForWire(f, v);
  if (Array.isArray(v)) return v.join(',');
  if (f.type === 'switch') return v ? 1 : 0;
  return v;
}

export function FieldControl({
  field,
  placeholder,
  disabled,
  value,
  onChange,
  id,
  secretHint,
}: {
  field: FieldDef;
  placeholder: string;
  disabled?: boolean;
  value?: unknown;
  onChange?: (v: unknown) => void;
  id?: string;
  secretHint?: string;
}): ReactNode {
  const common = { id, disabled, placeholder, 'aria-label': placeholder };
  switch (field.type) {
    case 'textarea':
      return (
        <Input.TextArea
          {...common}
          rows={3}
          maxLength={field.max}
          showCount={!!field.max && !disabled}
          value={value as string}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
    case 'int':
    case 'decimal':
      return (
        <InputNumber
          {...common}
          style={{ width: '100%' }}
          min={field.min}
          max={field.max}
          precision={field.type === 'int' ? 0 : undefined}
          value={value as number}
          onChange={(v) => onChange?.(v)}
        />
      );
    case 'dict':
    case 'dictMulti':
      return <DictSelect field={field} {...common} value={value} onChange={onChange} />;
    case 'ids':
      return <TreeIds field={field} {...common} value={value as string[]} onChange={onChange} />;
    case 'switch':
      return (
        <Switch
          id={id}
          disabled={disabled}
          checked={!!value}
          onChange={(v) => onChange?.(v)}
          aria-label={placeholder}
        />
      );
    case 'date':
    case 'datetime':
      return (
        <DatePicker
          {...common}
          style={{ width: '100%' }}
          showTime={field.type === 'datetime'}
          value={value as Dayjs}
          onChange={(v) => onChange?.(v)}
        />
      );
    default:
      if (field.secret)
        return (
          <Input.Password
            {...common}
            placeholder={secretHint ?? placeholder}
            autoComplete="new-password"
            value={value as string}
            onChange={(e) => onChange?.(e.target.value)}
          />
        );
      return (
        <Input
          {...common}
          maxLength={field.max}
          allowClear={!disabled}
          value={value as string}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
  }
}

function DictSelect({
  field,
  value,
  onChange,
  ...rest
}: {
  field: FieldDef;
  value?: unknown;
  onChange?: (v: unknown) => void;
  id?: string;
  disabled?: boolean;
  placeholder: string;
}) {
  const { data, isLoading } = useDict(field.dict);
  return (
    <Select
      {...rest}
      allowClear
      loading={isLoading}
      mode={field.type === 'dictMulti' ? 'multiple' : undefined}
      style={{ width: '100%', minWidth: 160 }}
      value={value as string}
      onChange={(v) => onChange?.(v)}
      options={(data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }))}
    />
  );
}

function TreeIds({
  field,
  value,
  onChange,
  ...rest
}: {
  field: FieldDef;
  value?: string[];
  onChange?: (v: unknown) => void;
  id?: string;
  disabled?: boolean;
  placeholder: string;
}) {
  const { data, isLoading } = useOptionTree(field.tree);
  return (
    <TreeSelect
      {...rest}
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_ALL}
      treeDefaultExpandAll
      loading={isLoading}
      maxTagCount={8}
      style={{ width: '100%' }}
      value={value}
      onChange={(v) => onChange?.(v)}
      treeData={data ?? []}
      fieldNames={{ label: 'title', value: 'value', children: 'children' }}
    />
  );
}

/** A dictionary value shown as its label in a table cell. */
export function DictLabel({ code, value }: { code: string; value: unknown }) {
  const { data } = useDict(code);
  if (value === null || value === undefined || value === '') return null;
  const keys = String(value).split(',');
  return <>{keys.map((k) => data?.find((d) => d.dictKey === k)?.dictValue ?? k).join(', ')}</>;
}
