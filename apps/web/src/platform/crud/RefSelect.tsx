/**
 * The picker of `ref` / `refs` fields: a searchable select over the referenced resource's
 * `<path>/select?keyword=` (server-side search within the caller's tenant and scope), so a row is chosen by
 * its name, never by typing an id. The current value's labels come from `select?ids=`.
 */
import type { FieldDef } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { getData } from '../http/client';
import { resourceBase } from './query';
import { definitionByKey, loadedDefinition } from './resource-pages';

export interface RefOption {
  id: string;
  label: string;
  hint?: string;
}

const asIds = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String).filter(Boolean)
    : v === undefined || v === null || v === ''
      ? []
      : String(v).split(',').filter(Boolean);

/** What a searchable picker sends: the text typed (`typed`), as `keyword` a moment after typing stops. */
export function useTypedKeyword() {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  return { typed, keyword, setTyped };
}

export function RefSelect({
  field,
  value,
  onChange,
  id,
  disabled,
  placeholder,
  label,
  unusedBy,
}: {
  field: FieldDef;
  value?: unknown;
  onChange?: (v: unknown) => void;
  id?: string;
  disabled?: boolean;
  placeholder: string;
  /** its accessible name when not the placeholder */
  label?: string;
  /** only rows no record of this resource's field names yet (`FieldControlProps.unusedBy`) */
  unusedBy?: string;
}) {
  // the referenced definition: usually of the page's own area, already loaded; otherwise loaded on demand
  const ref = field.ref ?? '';
  const target = useQuery({
    queryKey: ['ref-definition', ref],
    queryFn: () => definitionByKey(ref),
    initialData: () => loadedDefinition(ref),
    enabled: !!ref,
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
  const url = target ? `${resourceBase(target)}/select` : '';
  const multiple = field.type === 'refs';
  const ids = asIds(value);
  const { keyword, setTyped } = useTypedKeyword();

  const found = useQuery({
    queryKey: ['ref-select', field.ref, keyword, unusedBy],
    queryFn: () => getData<RefOption[]>(url, { keyword, size: 20, ...(unusedBy ? { unusedBy } : {}) }),
    enabled: !!url && !disabled,
    staleTime: 10_000,
  });
  const current = useQuery({
    queryKey: ['ref-select-ids', field.ref, ids.join(',')],
    queryFn: () => getData<RefOption[]>(url, { ids: ids.join(',') }),
    enabled: !!url && ids.length > 0,
    staleTime: 60_000,
  });
  const options = useMemo(() => {
    const byId = new Map<string, RefOption>();
    for (const o of current.data ?? []) byId.set(o.id, o);
    for (const o of found.data ?? []) byId.set(o.id, o);
    return [...byId.values()].map((o) => ({
      value: o.id,
      label: o.label,
      title: o.hint ? `${o.label} ${o.hint}` : o.label,
      hint: o.hint,
    }));
  }, [current.data, found.data]);

  return (
    <Select
      id={id}
      aria-label={label ?? placeholder}
      placeholder={placeholder}
      disabled={disabled}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      mode={multiple ? 'multiple' : undefined}
      loading={found.isFetching}
      style={{ width: '100%', minWidth: 180 }}
      value={multiple ? ids : (ids[0] ?? undefined)}
      onChange={(v) => {
        setTyped('');
        onChange?.(multiple ? (v as string[]) : (v ?? ''));
      }}
      options={options}
      optionRender={(o) => (
        <span>
          {o.label}
          {o.data.hint && <span style={{ color: '#8c8c8c', marginLeft: 8 }}>{o.data.hint}</span>}
        </span>
      )}
      notFoundContent={found.isFetching ? undefined : null}
    />
  );
}
