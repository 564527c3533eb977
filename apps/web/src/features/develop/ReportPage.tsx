/**
 * 报表管理: the generic list, whose add / edit dialog is the report's designer — the resource (those the user
 * may read, with their fields, from `report/rest/resources`), then in the design the columns in order, the
 * filters (the resource's own list filters), the group field and the totals — beside the chart, the rows per
 * page and the orientation (the definition's fields). Per row 预览 (`report_preview`) shows the report's pages
 * as the server cut them, each A4 sheet under the same header, with 打印 (the very same pages printed: one
 * sheet each) and, with `report_export`, the PDF and the Excel file of the same pages.
 */
import './i18n';
import { type ReportDesign, reportResource } from '@smart/contracts/develop';
import { Button, Form, Input, Select, Space } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import type { FieldControlProps } from '../../platform/crud/types';
import { getData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import { ReportPreview } from './ReportPreview';

const BASE = `/api/${reportResource.service}/${reportResource.path}`;
const PREVIEW_CODE = `${reportResource.permission}_preview`;

export interface ReportField {
  name: string;
  label: string;
  type: string;
  number: boolean;
}
export interface ReportSource {
  key: string;
  label: string;
  fields: ReportField[];
}

let sources: Promise<ReportSource[]> | null = null;
/** the resources the user may report on, read once a visit of the page (the language is the page's) */
function useSources(): ReportSource[] {
  const [list, setList] = useState<ReportSource[]>([]);
  useEffect(() => {
    let live = true;
    sources ??= getData<ReportSource[]>(`${BASE}/resources`).catch(() => {
      sources = null;
      return [];
    });
    sources.then((l) => live && setList(l));
    return () => {
      live = false;
    };
  }, []);
  return list;
}

function ResourceControl({ value, onChange, id, disabled, placeholder, label }: FieldControlProps) {
  const list = useSources();
  return (
    <Select
      id={id}
      aria-label={label ?? placeholder}
      showSearch
      optionFilterProp="label"
      disabled={disabled}
      value={(value as string) || undefined}
      onChange={(v) => onChange?.(v)}
      placeholder={placeholder}
      options={list.map((s) => ({ value: s.key, label: s.label }))}
    />
  );
}

const FILTER_OPS = ['equal', 'notequal', 'like', 'ge', 'le', 'gt', 'lt'] as const;
const TOTAL_OPS = ['count', 'sum', 'avg', 'min', 'max'] as const;
const FILTER_WORD = {
  equal: 'develop.fEqual',
  notequal: 'develop.fNotequal',
  like: 'develop.fLike',
  ge: 'develop.fGe',
  le: 'develop.fLe',
  gt: 'develop.fGt',
  lt: 'develop.fLt',
} as const;
const TOTAL_WORD = {
  count: 'develop.opCount',
  sum: 'develop.opSum',
  avg: 'develop.opAvg',
  min: 'develop.opMin',
  max: 'develop.opMax',
} as const;

interface FilterLine {
  field: string;
  op: (typeof FILTER_OPS)[number];
  value: string;
}

function parseDesign(value: unknown): ReportDesign {
  try {
    const d = JSON.parse(String(value ?? '')) as ReportDesign;
    return d && Array.isArray(d.columns) ? d : { columns: [] };
  } catch {
    return { columns: [] };
  }
}

function filterLines(filters: Record<string, string> | undefined, fields: ReportField[]): FilterLine[] {
  return Object.entries(filters ?? {}).map(([key, value]) => {
    const m = /^(.+)_([a-z]+)$/.exec(key);
    const op = m && (FILTER_OPS as readonly string[]).includes(m[2]) ? (m[2] as FilterLine['op']) : undefined;
    const field = op && fields.some((f) => f.name === m?.[1]) ? (m?.[1] as string) : key;
    return { field, op: op ?? 'equal', value };
  });
}

/** The design of a report (`content`): columns, filters, group and totals over the chosen resource's fields. */
function DesignControl({ value, onChange, id }: FieldControlProps) {
  const { t } = useTranslation();
  const resourceKey = Form.useWatch('resourceKey') as string | undefined;
  const list = useSources();
  const source = list.find((s) => s.key === resourceKey);
  const fields = source?.fields ?? [];
  const design = useMemo(() => parseDesign(value), [value]);
  const [filters, setFilters] = useState<FilterLine[]>(() => filterLines(design.filters, fields));
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the resource's fields arrive
  useEffect(() => setFilters(filterLines(design.filters, fields)), [source]);
  const set = (next: Partial<ReportDesign>, lines = filters) => {
    const d: ReportDesign = { ...design, ...next };
    const f: Record<string, string> = {};
    for (const l of lines) if (l.field) f[l.op === 'equal' ? l.field : `${l.field}_${l.op}`] = l.value;
    d.filters = Object.keys(f).length ? f : undefined;
    if (!d.groupBy) delete d.groupBy;
    if (!d.totals?.length) delete d.totals;
    if (!d.filters) delete d.filters;
    onChange?.(JSON.stringify(d));
  };
  if (!source) return <div id={id}>{t('develop.pickResource')}</div>;
  const options = fields.map((f) => ({ value: f.name, label: f.label }));
  const totals = design.totals ?? [];
  return (
    <div id={id} className="report-designer" style={{ display: 'grid', gap: 8 }}>
      <div>
        <div>{t('develop.designColumns')}</div>
        <Select
          mode="multiple"
          aria-label={t('develop.designColumns')}
          style={{ width: '100%' }}
          value={design.columns}
          options={options}
          onChange={(columns: string[]) => set({ columns })}
        />
      </div>
      <div>
        <div>{t('develop.designGroup')}</div>
        <Select
          allowClear
          aria-label={t('develop.designGroup')}
          style={{ width: '100%' }}
          value={design.groupBy || undefined}
          options={options}
          onChange={(groupBy?: string) => set({ groupBy })}
        />
      </div>
      <div>
        <div>{t('develop.designTotals')}</div>
        {totals.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity of their own
          <Space key={i} style={{ display: 'flex', marginBottom: 4 }}>
            <Select
              aria-label={`${t('develop.designTotals')} ${i + 1}`}
              style={{ width: 180 }}
              value={line.field}
              options={fields
                .filter((f) => line.op === 'count' || f.number)
                .map((f) => ({ value: f.name, label: f.label }))}
              onChange={(field: string) =>
                set({ totals: totals.map((x, j) => (j === i ? { ...x, field } : x)) })
              }
            />
            <Select
              style={{ width: 120 }}
              value={line.op}
              options={TOTAL_OPS.map((op) => ({ value: op, label: t(TOTAL_WORD[op]) }))}
              onChange={(op: (typeof TOTAL_OPS)[number]) =>
                set({ totals: totals.map((x, j) => (j === i ? { ...x, op } : x)) })
              }
            />
            <Button size="small" onClick={() => set({ totals: totals.filter((_, j) => j !== i) })}>
              {t('develop.removeLine')}
            </Button>
          </Space>
        ))}
        <Button
          size="small"
          onClick={() =>
            set({ totals: [...totals, { field: design.columns[0] ?? fields[0].name, op: 'count' }] })
          }
        >
          {t('develop.addTotal')}
        </Button>
      </div>
      <div>
        <div>{t('develop.designFilters')}</div>
        {filters.map((line, i) => {
          const change = (patch: Partial<FilterLine>) => {
            const next = filters.map((x, j) => (j === i ? { ...x, ...patch } : x));
            setFilters(next);
            set({}, next);
          };
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity of their own
            <Space key={i} style={{ display: 'flex', marginBottom: 4 }}>
              <Select
                aria-label={`${t('develop.designFilters')} ${i + 1}`}
                style={{ width: 180 }}
                value={line.field}
                options={options}
                onChange={(field: string) => change({ field })}
              />
              <Select
                style={{ width: 120 }}
                value={line.op}
                options={FILTER_OPS.map((op) => ({ value: op, label: t(FILTER_WORD[op]) }))}
                onChange={(op: FilterLine['op']) => change({ op })}
              />
              <Input
                style={{ width: 180 }}
                aria-label={`${t('develop.filterValue')} ${i + 1}`}
                value={line.value}
                onChange={(e) => change({ value: e.target.value })}
              />
              <Button
                size="small"
                onClick={() => {
                  const next = filters.filter((_, j) => j !== i);
                  setFilters(next);
                  set({}, next);
                }}
              >
                {t('develop.removeLine')}
              </Button>
            </Space>
          );
        })}
        <Button
          size="small"
          onClick={() => setFilters([...filters, { field: fields[0].name, op: 'equal', value: '' }])}
        >
          {t('develop.addFilter')}
        </Button>
      </div>
    </div>
  );
}

/** a report's resource by its name in the screen's language (the key where the user has no screen of it) */
function ResourceName({ value }: { value: unknown }) {
  const list = useSources();
  return <>{list.find((s) => s.key === value)?.label ?? String(value ?? '')}</>;
}

export default function ReportPage() {
  useSession((s) => s.permission); // re-render when grants change
  const { t } = useTranslation();
  const [previewOf, setPreviewOf] = useState<Row | null>(null);
  const close = useCallback(() => setPreviewOf(null), []);
  useEffect(
    () => () => {
      sources = null; // the next visit reads them again (grants or the language may have changed)
    },
    [],
  );
  return (
    <>
      <CrudPage
        def={reportResource}
        rowName={(row) => String(row.name ?? '')}
        addDefaults={{ content: JSON.stringify({ columns: [] }) }}
        columns={{ render: { resourceKey: (v) => <ResourceName value={v} /> } }}
        fields={{
          resourceKey: { control: (p) => <ResourceControl {...p} /> },
          content: { control: (p) => <DesignControl {...p} />, view: (v) => <code>{String(v ?? '')}</code> },
        }}
        rowActions={(row) =>
          can(PREVIEW_CODE) ? (
            <Button
              type="link"
              size="small"
              onClick={() => setPreviewOf(row)}
              aria-label={`${t('develop.preview')} ${row.name}`}
            >
              {t('develop.preview')}
            </Button>
          ) : null
        }
      />
      {previewOf && <ReportPreview row={previewOf} onClose={close} />}
    </>
  );
}
