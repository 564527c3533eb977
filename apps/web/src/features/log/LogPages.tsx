/**
 * /log/usual, /log/api, /log/error — the generic list page over the logs' definitions (@smart/contracts/log:
 * fields, labels, filters; read-only), with a detail drawer that shows every field of the row, long ones
 * preformatted (GET <log>/detail?id=).
 */
import '../system/i18n';
import type { FieldDef, ResourceDef } from '@smart/contracts/core';
import { logApiResource, logErrorResource, logUsualResource } from '@smart/contracts/log';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Spin, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { resourceBase } from '../../platform/crud/query';
import { EMPTY, isEmptyValue } from '../../platform/crud/values';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';

/** an HTTP status, green below 400 */
const statusTag = (v: unknown) => <Tag color={Number(v) < 400 ? 'success' : 'error'}>{String(v)}</Tag>;

function LogDrawer({ def, row, onClose }: { def: ResourceDef; row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const detail = useQuery({
    queryKey: ['log-detail', def.key, row.id],
    queryFn: () => getData<Record<string, unknown>>(`${resourceBase(def)}/detail`, { id: row.id }),
    gcTime: 0,
  });
  const data = detail.data;
  const value = (f: FieldDef, v: unknown): ReactNode => {
    if (isEmptyValue(v)) return EMPTY;
    if (f.name === 'statusCode') return statusTag(v);
    if (f.type === 'textarea')
      return (
        <pre
          style={{
            margin: 0,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
            maxHeight: 320,
            overflow: 'auto',
          }}
        >
          {String(v)}
        </pre>
      );
    return String(v);
  };
  return (
    <Drawer
      open
      width={720}
      title={`${t('sys.log.detail')} · ${def.label[lang]}`}
      onClose={onClose}
      destroyOnHidden
    >
      {!data ? (
        <Spin />
      ) : (
        <Descriptions
          bordered
          size="small"
          column={1}
          items={def.fields
            .filter((f) => f.name in data)
            .map((f) => ({ key: f.name, label: f.label[lang], children: value(f, data[f.name]) }))}
        />
      )}
    </Drawer>
  );
}

function LogPage({ def }: { def: ResourceDef }) {
  return (
    <CrudPage
      key={def.key}
      def={def}
      rowName={(row) => String(row.requestUri ?? row.id)}
      columns={{
        render: { statusCode: (v) => (v === null || v === undefined ? null : statusTag(v)) },
      }}
      detailView={(row, close) => <LogDrawer def={def} row={row} onClose={close} />}
    />
  );
}

export function UsualLogPage() {
  return <LogPage def={logUsualResource} />;
}

export function ApiLogPage() {
  return <LogPage def={logApiResource} />;
}

export function ErrorLogPage() {
  return <LogPage def={logErrorResource} />;
}
