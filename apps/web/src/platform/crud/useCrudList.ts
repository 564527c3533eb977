/**
 * The list controller of the generic page: what is listed (filters from the search form plus the fixed
 * ones, paging, the tree's expanded rows), the selection, the query, refresh and delete. The page's
 * components (search form, toolbar, columns, dialogs) read and change the list only through it.
 */
import { type FieldDef, type Page, pagingKeys, type ResourceDef } from '@smart/contracts/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, postData } from '../http/client';
import { toFilterValue } from './fields';
import { compactParams, type DateRange, dateRangeParams, resourceBase } from './query';
import { stripEmptyChildren } from './tree';
import type { CrudContext, Row } from './types';

export function flattenRows(rows: Row[], into = new Map<string, Row>()): Map<string, Row> {
  for (const r of rows) {
    into.set(r.id, r);
    if (r.children?.length) flattenRows(r.children, into);
  }
  return into;
}

export interface CrudListOptions {
  def: ResourceDef;
  listUrl?: string;
  fixedFilters?: Record<string, string>;
  enabled?: boolean;
  /** the fields the search form sends */
  searchFields: FieldDef[];
}

export function useCrudList({
  def,
  listUrl: url,
  fixedFilters,
  enabled = true,
  searchFields,
}: CrudListOptions) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [paging, setPaging] = useState({ current: 1, size: def.pageSize ?? 10 });
  const [selected, setSelected] = useState<string[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);

  const base = resourceBase(def);
  const listUrl = url ?? `${base}/${def.listPath ?? 'list'}`;
  const tree = !!def.tree;
  const fixed = fixedFilters ?? {};
  const sent = { ...filters, ...fixed };
  // another choice of the side panel is another list: its selection and paging start afresh
  const fixedKey = JSON.stringify(fixed);
  const [lastFixed, setLastFixed] = useState(fixedKey);
  if (lastFixed !== fixedKey) {
    setLastFixed(fixedKey);
    setSelected([]);
    setPaging((p) => ({ ...p, current: 1 }));
  }

  const query = useQuery({
    queryKey: ['crud', def.key, listUrl, tree ? null : paging, filters, fixed],
    queryFn: async (): Promise<{ records: Row[]; total: number }> => {
      if (tree) {
        const nodes = stripEmptyChildren(await getData<Row[]>(listUrl, sent));
        return { records: nodes, total: flattenRows(nodes).size };
      }
      const [pageKey, sizeKey] = pagingKeys(def);
      const page = await getData<Page<Row>>(listUrl, {
        [pageKey]: paging.current,
        [sizeKey]: paging.size,
        ...sent,
      });
      return { records: page?.records ?? [], total: page?.total ?? 0 };
    },
    enabled,
    placeholderData: keepPreviousData,
  });
  const records = enabled ? (query.data?.records ?? []) : [];
  const byId = useMemo(() => flattenRows(records), [records]);

  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['crud', def.key] });
    // pickers built from this resource (parent selects, user forms) follow its changes
    await qc.invalidateQueries({ queryKey: ['tree', def.key] });
  };
  const ctx: CrudContext = {
    selectedIds: selected,
    selectedRows: selected.map((id) => byId.get(id)).filter((r): r is Row => !!r),
    filters: sent,
    refresh,
    clearSelection: () => setSelected([]),
  };

  /** the search form's values → the list's filters, from the first page */
  const search = (values: Record<string, unknown>) => {
    const next: Record<string, unknown> = {};
    for (const f of searchFields) next[f.name] = toFilterValue(f, values[f.name]);
    setFilters({ ...compactParams(next), ...dateRangeParams(values.createTime as DateRange) });
    setPaging((p) => ({ ...p, current: 1 }));
  };

  /** asks, then deletes these rows */
  const remove = (ids: string[]) => {
    if (!ids.length) {
      message.warning(t('common.selectAtLeastOne'));
      return;
    }
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('common.confirmDelete'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await postData(`${base}/remove`, undefined, { ids: ids.join(',') });
        message.success(t('common.deleted'));
        setSelected((s) => s.filter((id) => !ids.includes(id)));
        await refresh();
      },
    });
  };

  return {
    tree,
    records,
    total: query.data?.total ?? 0,
    loading: query.isFetching,
    paging,
    /** antd's pagination change: another page size starts from the first page */
    changePage: (current: number, size: number) =>
      setPaging({ current: size === paging.size ? current : 1, size }),
    selected,
    setSelected,
    expanded,
    setExpanded,
    search,
    remove,
    refresh,
    ctx,
  };
}

export type CrudList = ReturnType<typeof useCrudList>;
