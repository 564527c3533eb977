import { checkField, checkRange, type FieldDef, requiredMessage } from '@smart/contracts';
import { DatePicker, Input, InputNumber, Select, Switch, TreeSelect } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { type FocusEvent, type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { md5Hex } from '../md5';
import { switcherIcon } from './a11y';
import { type TreeOption, useDict, useOptionTree } from './dict';
import { RefSelect } from './RefSelect';
import { checkedForDisplay, subtreeKeys, withAncestors } from './tree';

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
      const v = dayjs.isDayjs(value)
        ? formatForWire(f, value)
        : Array.isArray(value)
          ? value.join(',')
          : typeof value === 'boolean'
            ? Number(value) // a switch's on / off is 1 / 0 on the wire
            : value;
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

/** Form value → wire value (a typed password leaves the browser as its lower-case md5 hex only). */
export function toWireValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null) return '';
  if (f.type === 'password') return typeof v === 'string' && v !== '' ? md5Hex(v) : '';
  if (dayjs.isDayjs(v)) return formatForWire(f, v);
  if (Array.isArray(v)) return v.join(',');
  if (f.type === 'switch') return v ? 1 : 0;
  return v;
}

export interface FieldControlProps {
  field: FieldDef;
  placeholder: string;
  disabled?: boolean;
  value?: unknown;
  onChange?: (v: unknown) => void;
  id?: string;
  secretHint?: string;
  /** a tree ref: this node and its subtree cannot be picked (a row cannot be its own parent) */
  exclude?: string;
  /** the form's blur trigger (fields validated on blur) */
  onBlur?: (e: FocusEvent) => void;
}

export function FieldControl({
  field,
  placeholder,
  disabled,
  value,
  onChange,
  id,
  secretHint,
  exclude,
  onBlur,
}: FieldControlProps): ReactNode {
  const common = { id, disabled, placeholder, onBlur, 'aria-label': placeholder };
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
    case 'ref':
      if (field.tree)
        return (
          <RefTree field={field} {...common} value={value as string} onChange={onChange} exclude={exclude} />
        );
      // a row of another resource, found by its name through that resource's select endpoint
      if (field.ref) return <RefSelect field={field} {...common} value={value} onChange={onChange} />;
      break;
    case 'refs':
      return <RefSelect field={field} {...common} value={value} onChange={onChange} />;
    case 'password':
      return (
        <Input.Password
          {...common}
          autoComplete="new-password"
          maxLength={64}
          value={value as string}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
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
  }
  // text, mobile, email, a ref without a tree, and secrets
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

type IdsProps = {
  field: FieldDef;
  value?: string[];
  onChange?: (v: unknown) => void;
  id?: string;
  disabled?: boolean;
  placeholder: string;
};

/**
 * Several ids from a tree. Menus conduct (a menu checks its buttons) and the value keeps the half-checked
 * parents too, so a package's menus show in the tenant's menu; other trees (roles, depts, posts) pick
 * each node on its own.
 */
function TreeIds({ field, ...props }: IdsProps) {
  const { data, isLoading } = useOptionTree(field.tree);
  return field.tree === 'menu' ? (
    <ConductedIds {...props} data={data} loading={isLoading} />
  ) : (
    <StrictIds {...props} data={data} loading={isLoading} />
  );
}

const treeFieldNames = { label: 'title', value: 'value', children: 'children' };

function ConductedIds({
  value,
  onChange,
  data,
  loading,
  ...rest
}: Omit<IdsProps, 'field'> & { data?: TreeOption[]; loading: boolean }) {
  const shown = useMemo(() => (data ? checkedForDisplay(data, value ?? []) : []), [data, value]);
  return (
    <TreeSelect
      {...rest}
      switcherIcon={switcherIcon}
      treeCheckable
      showSearch
      showCheckedStrategy={TreeSelect.SHOW_ALL}
      loading={loading}
      maxTagCount={8}
      style={{ width: '100%' }}
      value={shown}
      onChange={(v: string[]) => onChange?.(withAncestors(data, v))}
      treeData={data ?? []}
      treeNodeFilterProp="title"
      fieldNames={treeFieldNames}
    />
  );
}

function StrictIds({
  value,
  onChange,
  data,
  loading,
  ...rest
}: Omit<IdsProps, 'field'> & { data?: TreeOption[]; loading: boolean }) {
  return (
    <TreeSelect
      {...rest}
      switcherIcon={switcherIcon}
      treeCheckable
      showSearch
      treeCheckStrictly
      treeDefaultExpandAll
      loading={loading}
      maxTagCount={8}
      style={{ width: '100%' }}
      value={(value ?? []).map((v) => ({ value: v, label: findTitle(data, v) ?? v }))}
      onChange={(v: { value: string }[]) => onChange?.(v.map((x) => String(x.value)))}
      treeData={data ?? []}
      treeNodeFilterProp="title"
      fieldNames={treeFieldNames}
    />
  );
}

function findTitle(nodes: TreeOption[] | undefined, key: string): string | undefined {
  for (const n of nodes ?? []) {
    if (n.value === key) return n.title;
    const hit = findTitle(n.children, key);
    if (hit) return hit;
  }
  return undefined;
}

/** One id from a tree; a parent field (default '0') offers the top level as the root of the tree. */
function RefTree({
  field,
  value,
  onChange,
  exclude,
  ...rest
}: {
  field: FieldDef;
  value?: string;
  onChange?: (v: unknown) => void;
  exclude?: string;
  id?: string;
  disabled?: boolean;
  placeholder: string;
}) {
  const { t } = useTranslation();
  const { data, isLoading } = useOptionTree(field.tree);
  const treeData = useMemo(() => {
    const excluded = new Set(exclude ? subtreeKeys(data, exclude) : []);
    const mark = (nodes: TreeOption[]): TreeOption[] =>
      nodes.map((n) => ({
        ...n,
        disabled: excluded.has(n.value),
        children: n.children?.length ? mark(n.children) : undefined,
      }));
    const nodes = mark(data ?? []);
    if (String(field.default) !== '0') return nodes;
    return [{ id: '0', parentId: '', key: '0', value: '0', title: t('crud.topLevel'), children: nodes }];
  }, [data, exclude, field.default, t]);
  return (
    <TreeSelect
      {...rest}
      switcherIcon={switcherIcon}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      loading={isLoading}
      style={{ width: '100%' }}
      value={value === undefined || value === null || value === '' ? undefined : String(value)}
      onChange={(v) => onChange?.(v ?? '')}
      treeData={treeData}
      treeDefaultExpandedKeys={['0']}
      fieldNames={treeFieldNames}
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
