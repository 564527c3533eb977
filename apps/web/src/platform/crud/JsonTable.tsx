/**
 * A JSON value read as a table in the view (a field that declares `table`): an array of objects, or an
 * object whose entries are rows of `key` and `value` (a score per rule). A column with `ref` shows the names
 * of the rows its ids name (the referenced resource's `select?ids=`), a money column an amount.
 */
import type { FieldDef } from '@smart/contracts/core';
import { useQueries } from '@tanstack/react-query';
import { Table } from 'antd';
import { getData } from '../http/client';
import { currentLanguage } from '../i18n';
import { resourceBase } from './query';
import { definitionByKey, loadedDefinition } from './resource-pages';
import { EMPTY, isEmptyValue, numberText } from './values';

type Cell = Record<string, unknown>;

/** The rows of a JSON table value: an array of objects as they are, an object as `{ key, value }` rows. */
export function jsonRows(value: unknown): Cell[] {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (Array.isArray(v)) return v.filter((r): r is Cell => !!r && typeof r === 'object');
  if (v && typeof v === 'object') return Object.entries(v).map(([key, value]) => ({ key, value }));
  return [];
}

async function namesOf(ref: string, ids: string[]): Promise<Record<string, string>> {
  const def = loadedDefinition(ref) ?? (await definitionByKey(ref));
  if (!def || !ids.length) return {};
  const found = await getData<{ id: string; label: string }[]>(`${resourceBase(def)}/select`, {
    ids: ids.join(','),
  });
  return Object.fromEntries(found.map((o) => [o.id, o.label]));
}

export function JsonTable({ field, value }: { field: FieldDef; value: unknown }) {
  const lang = currentLanguage();
  const columns = field.table ?? [];
  const rows = jsonRows(value);
  const refCols = columns.filter((c) => c.ref);
  const names = useQueries({
    queries: refCols.map((c) => {
      const ids = [...new Set(rows.map((r) => String(r[c.key] ?? '')).filter(Boolean))];
      return {
        queryKey: ['ref-select-ids', c.ref, ids.join(',')],
        queryFn: () => namesOf(c.ref as string, ids),
        staleTime: 60_000,
      };
    }),
  });
  const nameOf = (key: string, id: unknown) => {
    const i = refCols.findIndex((c) => c.key === key);
    return names[i]?.data?.[String(id)] ?? String(id);
  };
  if (!rows.length) return <>{EMPTY}</>;
  return (
    <Table<Cell>
      size="small"
      pagination={false}
      rowKey={(r) => rows.indexOf(r)}
      dataSource={rows}
      aria-label={field.label[lang]}
      columns={columns.map((c) => ({
        key: c.key,
        dataIndex: c.key,
        title: c.label[lang],
        align: c.type && c.type !== 'text' ? ('right' as const) : undefined,
        render: (v: unknown) =>
          isEmptyValue(v)
            ? EMPTY
            : c.ref
              ? nameOf(c.key, v)
              : c.type === 'money'
                ? numberText({ type: 'money' }, v, lang)
                : String(v),
      }))}
    />
  );
}
