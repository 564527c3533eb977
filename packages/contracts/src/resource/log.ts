import { type FieldDef, type FieldType, L, type ResourceDef, type Text2 } from './types';

/**
 * The three logs of spec §7 (dfem-log): rows the server alone writes — the usual log (sign-in, sign-out,
 * grants), the API log (every mutating call and every sign-in) and the error log (unexpected errors, and the
 * browser's reports) — listed newest first and viewed, never added, edited or removed (`readOnly`). Their
 * tables (blade_log_usual / _api / _error, apps/server/src/platform/db/schema.ts) keep no base columns and
 * nothing is soft-deleted; each row's time is its `createTime` field. The engine serves list and detail; the
 * binding (apps/server/src/modules/log/binding.ts) adds the browser's error report and holds the lists to
 * the spec's filters: the request URI and the account (contains), the service, and the time
 * (`createTime_dategt` / `createTime_datelt`).
 */

const column = (
  name: string,
  label: Text2,
  type: FieldType,
  max?: number,
  extra: Partial<FieldDef> = {},
): FieldDef => ({ name, label, type, ...(max ? { max } : {}), ...extra });

/** what every log row says of where it came from, by name */
const ORIGIN = {
  serviceId: column('serviceId', L('服务ID', 'Service'), 'text', 32, { search: 'equal' }),
  serverHost: column('serverHost', L('服务器名', 'Server host'), 'text', 255, { list: false }),
  serverIp: column('serverIp', L('服务器IP', 'Server IP'), 'text', 255, { list: false }),
  env: column('env', L('运行环境', 'Environment'), 'text', 255, { list: false }),
  method: column('method', L('请求方法', 'Method'), 'text', 10),
  requestUri: column('requestUri', L('请求地址', 'Request URI'), 'text', 255, { search: 'like' }),
  userAgent: column('userAgent', L('用户代理', 'User agent'), 'textarea', 1000, { list: false }),
  remoteIp: column('remoteIp', L('操作IP', 'Remote IP'), 'text', 255),
  methodClass: column('methodClass', L('方法类', 'Method class'), 'text', 255, { list: false }),
  methodName: column('methodName', L('方法名', 'Method name'), 'text', 255, { list: false }),
  params: column('params', L('请求参数', 'Parameters'), 'textarea', undefined, { list: false }),
  createBy: column('createBy', L('操作人', 'Operator'), 'text', 64, { search: 'like' }),
  // stamped by the database when the row is written
  createTime: column('createTime', L('操作时间', 'Time'), 'datetime', undefined, { readOnly: true }),
};
const hidden = (f: FieldDef): FieldDef => ({ ...f, list: false });

const logResource = (
  key: string,
  label: Text2,
  path: string,
  permission: string,
  fields: FieldDef[],
): ResourceDef => ({
  key,
  label,
  service: 'dfem-log',
  path,
  route: `/log/${path}`,
  permission,
  tenant: true,
  readOnly: true,
  softDelete: false,
  baseColumns: false,
  fields,
});

const o = ORIGIN;

/** 通用日志: the columns listed first, in the list's order, then those the detail shows besides. */
export const logUsualResource = logResource('logUsual', L('通用日志', 'Usual log'), 'usual', 'log_usual', [
  o.serviceId,
  column('logLevel', L('日志级别', 'Level'), 'text', 10),
  column('logId', L('日志编号', 'Log id'), 'text', 100),
  o.requestUri,
  o.createBy,
  o.remoteIp,
  o.createTime,
  column('logData', L('日志数据', 'Data'), 'textarea', undefined, { list: false }),
  o.serverHost,
  o.serverIp,
  o.env,
  hidden(o.method),
  o.userAgent,
  o.methodClass,
  o.methodName,
  o.params,
]);

/** 接口日志 */
export const logApiResource = logResource('logApi', L('接口日志', 'API log'), 'api', 'log_api', [
  o.serviceId,
  column('title', L('日志名称', 'Title'), 'text', 255),
  o.method,
  o.requestUri,
  column('statusCode', L('状态码', 'Status'), 'int'),
  column('time', L('耗时(毫秒)', 'Duration (ms)'), 'int'),
  o.createBy,
  o.remoteIp,
  o.createTime,
  column('type', L('日志类型', 'Type'), 'text', 2, { list: false }),
  o.serverHost,
  o.serverIp,
  o.env,
  o.userAgent,
  o.methodClass,
  o.methodName,
  o.params,
]);

/** 错误日志 */
export const logErrorResource = logResource('logError', L('错误日志', 'Error log'), 'error', 'log_error', [
  o.serviceId,
  column('exceptionName', L('异常名', 'Exception'), 'text', 255),
  column('message', L('异常信息', 'Message'), 'textarea'),
  o.requestUri,
  o.createBy,
  o.remoteIp,
  o.createTime,
  column('stackTrace', L('堆栈', 'Stack trace'), 'textarea', undefined, { list: false }),
  column('fileName', L('文件名', 'File'), 'text', 1000, { list: false }),
  column('lineNumber', L('行号', 'Line'), 'int', undefined, { list: false }),
  o.serverHost,
  o.serverIp,
  o.env,
  hidden(o.method),
  o.userAgent,
  o.methodClass,
  o.methodName,
  o.params,
]);

/** The three logs, in menu order. */
export const LOG_RESOURCES: ResourceDef[] = [logUsualResource, logApiResource, logErrorResource];
