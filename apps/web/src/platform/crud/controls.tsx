/**
 * The form controls of the field kinds (kinds.tsx says which kind uses which): typed text, numbers, dates,
 * dictionary selects, tree pickers, the yes/no switch and its search filter. Each takes FieldControlProps.
 */
import { deploymentDay } from '@smart/contracts/core';
import { DatePicker, Input, InputNumber, Select, Space, Switch, TreeSelect } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { switcherIcon } from './a11y';
import { type TreeOption, useDict, useOptionTree } from './dict';
import { checkedForDisplay, subtreeKeys, withAncestors } from './tree';
import type { FieldControlProps } from './types';
import { unitOf } from './values';

const common = ({ id, disabled, placeholder, onBlur, label }: FieldControlProps) => ({
  id,
  disabled,
  placeholder,
  onBlur,
  'aria-label': label ?? placeholder,
});

/**
 * One line of text (text, mobile, phone, email, ID number, a place, a video address); a secret is typed
 * hidden, never shown. `hint`: the placeholder when the kind has a better one (经度,纬度…) than 请输入….
 */
export function TextControl({ hint, ...props }: FieldControlProps & { hint?: string }) {
  const { field, value, onChange, disabled, secretHint, placeholder } = props;
  if (field.secret)
    return (
      <Input.Password
        {...common(props)}
        placeholder={secretHint ?? placeholder}
        autoComplete="new-password"
        value={value as string}
        onChange={(e) => onChange?.(e.target.value)}
      />
    );
  return (
    <Input
      {...common(props)}
      placeholder={hint ?? placeholder}
      maxLength={field.max}
      allowClear={!disabled}
      value={value as string}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}

export function TextAreaControl(props: FieldControlProps) {
  const { field, value, onChange, disabled } = props;
  return (
    <Input.TextArea
      {...common(props)}
      rows={3}
      maxLength={field.max}
      showCount={!!field.max && !disabled}
      value={value as string}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}

/** A number (int, decimal, money: two decimal places); a unit the field is in (元, kW, 亩…) stands after it. */
export function NumberControl(props: FieldControlProps) {
  const { field, value, onChange, id } = props;
  const unit = unitOf(field)?.[currentLanguage()];
  const unitId = unit && id ? `${id}-unit` : undefined;
  const input = (
    <InputNumber
      {...common(props)}
      aria-describedby={unitId}
      style={{ width: '100%' }}
      min={field.min}
      max={field.max}
      precision={field.type === 'int' ? 0 : field.type === 'money' ? 2 : undefined}
      value={value as number}
      onChange={(v) => onChange?.(v)}
    />
  );
  if (!unit) return input;
  return (
    <Space.Compact style={{ width: '100%' }}>
      {input}
      <Space.Addon id={unitId}>{unit}</Space.Addon>
    </Space.Compact>
  );
}

/** A day after the deployment's today (its `TZ`), which a `notAfterToday` field's picker does not offer. */
export const isFutureDay = (d: Dayjs): boolean => d.format('YYYY-MM-DD') > deploymentDay();

export function DateControl(props: FieldControlProps) {
  const { field, value, onChange } = props;
  return (
    <DatePicker
      {...common(props)}
      style={{ width: '100%' }}
      showTime={field.type === 'datetime'}
      disabledDate={field.notAfterToday ? isFutureDay : undefined}
      value={value as Dayjs}
      onChange={(v) => onChange?.(v)}
    />
  );
}

/** From and to days (dateRange): the range picker keeps the start on or before the end. */
export function DateRangeControl(props: FieldControlProps) {
  const { t } = useTranslation();
  const { id, disabled, placeholder, value, onChange, label } = props;
  return (
    <DatePicker.RangePicker
      id={id}
      disabled={disabled}
      aria-label={label ?? placeholder}
      placeholder={[t('crud.startDate'), t('crud.endDate')]}
      style={{ width: '100%' }}
      value={value as [Dayjs, Dayjs] | undefined}
      onChange={(v) => onChange?.(v ?? undefined)}
    />
  );
}

/** JSON typed as text (json, polygon): monospace; `hint` is the placeholder (an example of the kind). */
export function CodeAreaControl({ hint, ...props }: FieldControlProps & { hint?: string }) {
  const { field, value, onChange, disabled } = props;
  return (
    <Input.TextArea
      {...common(props)}
      placeholder={hint ?? props.placeholder}
      autoSize={{ minRows: 4, maxRows: 14 }}
      spellCheck={false}
      maxLength={field.max}
      showCount={!!field.max && !disabled}
      style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 }}
      value={value as string}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}

/** Typed in clear, sent as its md5 (fields.tsx toWireValue); never filled in from a record. */
export function PasswordControl(props: FieldControlProps) {
  const { value, onChange } = props;
  return (
    <Input.Password
      {...common(props)}
      autoComplete="new-password"
      maxLength={64}
      value={value as string}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}

/** The add / edit form's on / off. */
export function SwitchControl({ id, disabled, value, onChange, placeholder, label }: FieldControlProps) {
  return (
    <Switch
      id={id}
      disabled={disabled}
      checked={!!value}
      onChange={(v) => onChange?.(v)}
      aria-label={label ?? placeholder}
    />
  );
}

/**
 * The search form's yes / no filter: 全部 (sends nothing), 是 (1) or 否 (0). A select, not a switch, so that
 * 否 can be searched for; its accessible name is the field's label.
 */
export function SwitchFilter({ field, id, disabled, value, onChange }: FieldControlProps) {
  const { t } = useTranslation();
  const label = field.label[currentLanguage()];
  return (
    <Select
      id={id}
      disabled={disabled}
      aria-label={label}
      placeholder={t('common.all')}
      style={{ minWidth: 100 }}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(v) => onChange?.(v ?? '')}
      options={[
        { value: '', label: t('common.all') },
        { value: '1', label: t('common.yes') },
        { value: '0', label: t('common.no') },
      ]}
    />
  );
}

/** One key (dict) or several (dictMulti) of a dictionary, shown by their values. */
export function DictSelect(props: FieldControlProps) {
  const { field, value, onChange } = props;
  const { data, isLoading } = useDict(field.dict);
  return (
    <Select
      {...common(props)}
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

type TreeIdsProps = Omit<FieldControlProps, 'field' | 'value'> & {
  value?: string[];
  data?: TreeOption[];
  loading: boolean;
};

/**
 * Several ids from a tree. Menus conduct (a menu checks its buttons) and the value keeps the half-checked
 * parents too, so a package's menus show in the tenant's menu; other trees (roles, depts, posts) pick
 * each node on its own.
 */
export function TreeIds(props: FieldControlProps) {
  const { field, value, onChange } = props;
  const { data, isLoading } = useOptionTree(field.tree);
  const rest = { ...common(props), value: value as string[] | undefined, onChange, data, loading: isLoading };
  return field.tree === 'menu' ? <ConductedIds {...rest} /> : <StrictIds {...rest} />;
}

const treeFieldNames = { label: 'title', value: 'value', children: 'children' };

/** A leaf named with its parent (`用户管理·新增`): a tag of a picked button says which menu it belongs to. */
export function withContext(nodes: TreeOption[], parent?: string): (TreeOption & { tagLabel: string })[] {
  return nodes.map((n) => ({
    ...n,
    tagLabel: parent && !n.children?.length ? `${parent}·${n.title}` : n.title,
    children: n.children?.length ? withContext(n.children, n.title) : n.children,
  }));
}

/** A node's title with its parent's for a leaf (what the tags of a menu pick show). */
export function contextTitle(nodes: TreeOption[] | undefined, key: string): string | undefined {
  const find = (list: ReturnType<typeof withContext>): string | undefined => {
    for (const n of list) {
      if (n.value === key) return n.tagLabel;
      const hit = find((n.children ?? []) as ReturnType<typeof withContext>);
      if (hit) return hit;
    }
    return undefined;
  };
  return find(withContext(nodes ?? []));
}

function ConductedIds({ value, onChange, data, loading, ...rest }: TreeIdsProps) {
  const shown = useMemo(() => (data ? checkedForDisplay(data, value ?? []) : []), [data, value]);
  const named = useMemo(() => withContext(data ?? []), [data]);
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
      treeData={named}
      treeNodeFilterProp="title"
      treeNodeLabelProp="tagLabel"
      fieldNames={treeFieldNames}
    />
  );
}

function StrictIds({ value, onChange, data, loading, ...rest }: TreeIdsProps) {
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

export function findTitle(nodes: TreeOption[] | undefined, key: string): string | undefined {
  for (const n of nodes ?? []) {
    if (n.value === key) return n.title;
    const hit = findTitle(n.children, key);
    if (hit) return hit;
  }
  return undefined;
}

/** One id from a tree; a parent field (default '0') offers the top level as the root of the tree. */
export function RefTree(props: FieldControlProps) {
  const { field, value, onChange, exclude } = props;
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
      {...common(props)}
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
