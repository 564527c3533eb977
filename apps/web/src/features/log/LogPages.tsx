/**
 * /log/usual, /log/api, /log/error — read-only lists (the generic page: search, date range, paging) with a
 * detail drawer (GET <log>/detail?id=).
 */
import '../system/i18n';
import type { FieldDef, ResourceDef, Text2 } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Spin, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { getData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';

export type LogKind = 'usual' | 'api' | 'error';

const text = (zh: string, en: string): Text2 => ({ zh, en });

/** Every column a log row may have, with its label; long ones are shown preformatted. */
const COLUMNS: Record<string, Text2> = {
  serviceId: text('服务ID', 'Service'),
  serverHost: text('服务器名', 'Server host'),
  serverIp: text('服务器IP', 'Server IP'),
  env: text('运行环境', 'Environment'),
  method: text('请求方法', 'Method'),
  requestUri: text('请求地址', 'Request URI'),
  userAgent: text('用户代理', 'User agent'),
  remoteIp: text('操作IP', 'Remote IP'),
  methodClass: text('方法类', 'Method class'),
  methodName: text('方法名', 'Method name'),
  params: text('请求参数', 'Parameters'),
  createBy: text('操作人', 'Operator'),
  createTime: text('操作时间', 'Time'),
  type: text('日志类型', 'Type'),
  title: text('日志名称', 'Title'),
  time: text('耗时(毫秒)', 'Duration (ms)'),
  statusCode: text('状态码', 'Status'),
  logLevel: text('日志级别', 'Level'),
  logId: text('日志编号', 'Log id'),
  logData: text('日志数据', 'Data'),
  exceptionName: text('异常名', 'Exception'),
  message: text('异常信息', 'Message'),
  stackTrace: text('堆栈', 'Stack trace'),
  fileName: text('文件名', 'File'),
  lineNumber: text('行号', 'Line'),
};
const LONG = new Set(['params', 'userAgent', 'logData', 'message', 'stackTrace']);

const col = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label: COLUMNS[name],
  type: LONG.has(name) ? 'textarea' : 'text',
  ...extra,
});

const search = { search: 'like' } as const;

/** The list of each log: what the screen shows and filters (the server whitelists the same keys). */
export const LOG_DEFS: Record<LogKind, ResourceDef> = {
  usual: {
    key: 'logUsual',
    label: text('通用日志', 'Usual log'),
    service: 'dfem-log',
    path: 'usual',
    route: '/log/usual',
    permission: 'log_usual',
    tenant: true,
    fields: [
      col('serviceId', { search: 'equal' }),
      col('logLevel'),
      col('logId'),
      col('requestUri', search),
      col('createBy', search),
      col('remoteIp'),
    ],
  },
  api: {
    key: 'logApi',
    label: text('接口日志', 'API log'),
    service: 'dfem-log',
    path: 'api',
    route: '/log/api',
    permission: 'log_api',
    tenant: true,
    fields: [
      col('serviceId', { search: 'equal' }),
      col('title'),
      col('method'),
      col('requestUri', search),
      col('statusCode'),
      col('time'),
      col('createBy', search),
      col('remoteIp'),
    ],
  },
  error: {
    key: 'logError',
    label: text('错误日志', 'Error log'),
    service: 'dfem-log',
    path: 'error',
    route: '/log/error',
    permission: 'log_error',
    tenant: true,
    fields: [
      col('serviceId', { search: 'equal' }),
      col('exceptionName'),
      col('message'),
      col('requestUri', search),
      col('createBy', search),
      col('remoteIp'),
    ],
  },
};

function LogDrawer({ def, row, onClose }: { def: ResourceDef; row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const detail = useQuery({
    queryKey: ['log-detail', def.key, row.id],
    queryFn: () => getData<Record<string, unknown>>(`/api/${def.service}/${def.path}/detail`, { id: row.id }),
    gcTime: 0,
  });
  const data = detail.data;
  const value = (key: string, v: unknown): ReactNode => {
    if (v === null || v === undefined || v === '') return '-';
    if (key === 'statusCode') return <Tag color={Number(v) < 400 ? 'success' : 'error'}>{String(v)}</Tag>;
    if (LONG.has(key))
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
          items={Object.keys(COLUMNS)
            .filter((k) => k in data)
            .map((k) => ({ key: k, label: COLUMNS[k][lang], children: value(k, data[k]) }))}
        />
      )}
    </Drawer>
  );
}

export function LogPage({ kind }: { kind: LogKind }) {
  const def = LOG_DEFS[kind];
  return (
    <CrudPage
      key={kind}
      def={def}
      rowName={(row) => String(row.requestUri ?? row.id)}
      columns={{
        render: {
          statusCode: (v) =>
            v === null || v === undefined ? null : (
              <Tag color={Number(v) < 400 ? 'success' : 'error'}>{String(v)}</Tag>
            ),
        },
      }}
      detailView={(row, close) => <LogDrawer def={def} row={row} onClose={close} />}
    />
  );
}

export function UsualLogPage() {
  return <LogPage kind="usual" />;
}

export function ApiLogPage() {
  return <LogPage kind="api" />;
}

export function ErrorLogPage() {
  return <LogPage kind="error" />;
}
