/**
 * The paged list the flow and work screens share: a search form, a toolbar, a table paged 10/30/50/100/200
 * (spec §9) with a labelled group of row actions. Every list is cached under FLOW_QUERY, so one
 * invalidation after a claim, an approval or a deployment refreshes whichever list is open.
 */

import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { PAGE_SIZES, type Page } from '@smart/contracts/core';
import { placeholderFor } from '@smart/contracts/placeholder';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Select, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDict } from '../../platform/crud/dict';
import { compactParams } from '../../platform/crud/query';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { FLOW_QUERY } from './api';

export interface SearchField {
  name: string;
  label: string;
  /** text (default), the `flow` dictionary's categories, or fixed options */
  kind?: 'text' | 'category' | 'select';
  options?: { value: string; label: string }[];
}

export interface PagedListProps<T> {
  /** what is listed, for screen readers (the search form and the table are named after it) */
  title: string;
  url: string;
  rowKey: (row: T) => string;
  rowName: (row: T) => string;
  search: SearchField[];
  columns: ColumnsType<T>;
  actions?: (row: T) => ReactNode;
  toolbar?: ReactNode;
}

/** Marks every flow and work list stale; the visible one refetches now, the others when shown again. */
export function useRefreshFlowLists() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: [FLOW_QUERY] });
}

/** The `flow` dictionary's categories (流程类型) as a select. */
export function CategorySelect({
  value,
  onChange,
  id,
  placeholder,
  allowClear = true,
  ...aria
}: {
  value?: string;
  onChange?: (v: string | undefined) => void;
  id?: string;
  placeholder?: string;
  allowClear?: boolean;
  'aria-label'?: string;
  'aria-required'?: boolean;
}) {
  const { data, isLoading } = useDict('flow');
  return (
    <Select
      id={id}
      {...aria}
      value={value || undefined}
      onChange={(v) => onChange?.(v)}
      placeholder={placeholder}
      allowClear={allowClear}
      loading={isLoading}
      style={{ minWidth: 180 }}
      options={(data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }))}
    />
  );
}

export function PagedList<T extends object>(props: PagedListProps<T>) {
  const { title, url, rowKey, rowName, search, columns, actions, toolbar } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm();
  // ids of the search fields are prefixed with this (kept-alive pages must not share ids)
  const formName = `search${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const refresh = useRefreshFlowLists();
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [paging, setPaging] = useState({ current: 1, size: 10 });

  const query = useQuery({
    queryKey: [FLOW_QUERY, url, paging, filters],
    queryFn: async () => {
      const page = await getData<Page<T>>(url, { current: paging.current, size: paging.size, ...filters });
      return { records: page?.records ?? [], total: page?.total ?? 0 };
    },
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });

  const onSearch = (values: Record<string, unknown>) => {
    setFilters(compactParams(values));
    setPaging((p) => ({ ...p, current: 1 }));
  };

  const all: ColumnsType<T> = [
    ...columns,
    ...(actions
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            fixed: 'right' as const,
            render: (_: unknown, row: T) => (
              <Space size={0} wrap role="group" aria-label={t('common.rowActions', { name: rowName(row) })}>
                {actions(row)}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      {search.length > 0 && (
        <Form
          form={form}
          name={formName}
          layout="inline"
          onFinish={onSearch}
          style={{ marginBottom: 16, rowGap: 12 }}
          aria-label={t('wf.searchOf', { title })}
          role="search"
        >
          {search.map((f) => (
            <Form.Item key={f.name} name={f.name} label={f.label}>
              {f.kind === 'category' ? (
                <CategorySelect
                  aria-label={f.label}
                  placeholder={placeholderFor(f.label, 'one', currentLanguage())}
                />
              ) : f.kind === 'select' ? (
                <Select
                  aria-label={f.label}
                  allowClear
                  style={{ minWidth: 140 }}
                  placeholder={placeholderFor(f.label, 'one', currentLanguage())}
                  options={f.options}
                />
              ) : (
                <Input allowClear placeholder={placeholderFor(f.label, 'typed', currentLanguage())} />
              )}
            </Form.Item>
          ))}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                {t('common.search')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  onSearch({});
                }}
              >
                {t('common.clear')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      )}
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>{toolbar}</Space>
        <Tooltip title={t('common.refresh')}>
          <Button aria-label={t('common.refresh')} icon={<ReloadOutlined />} onClick={() => refresh()} />
        </Tooltip>
      </Space>
      <section aria-label={title}>
        <Table<T>
          rowKey={rowKey}
          size="middle"
          columns={all}
          dataSource={query.data?.records ?? []}
          loading={query.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('common.empty') }}
          pagination={{
            current: paging.current,
            pageSize: paging.size,
            total: query.data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showTotal: (total) => t('common.total', { total }),
            onChange: (current, size) => setPaging({ current: size === paging.size ? current : 1, size }),
          }}
        />
      </section>
    </Card>
  );
}
