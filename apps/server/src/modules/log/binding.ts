import { logApiResource, logErrorResource, logUsualResource } from '@smart/contracts';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { schema } from '../../platform/db';
import { invalidField } from '../../platform/http/errors';
import { sanitizeUrl } from '../../platform/http/logging';
import { throttle } from '../../platform/throttle';
import { clip, firstFrame, scrubRow } from './recorder';

/**
 * /api/dfem-log: the usual, API and error logs (`logUsualResource`, `logApiResource`, `logErrorResource`)
 * on the resource engine — lists newest first and details, within the caller's tenant, with the menu code
 * and `<code>_view` (the rows are the server's alone: submit and remove are 403). What is stored was
 * scrubbed when it was written (recorder.ts, and the report below): no secret is there to answer. This
 * binding holds each list to the spec's filters and adds the browser's error report.
 */

/** the query keys a log list takes: the spec's filters and paging, nothing else (no sort, no other column) */
const LIST_KEYS = new Set([
  'current',
  'size',
  'requestUri',
  'createBy',
  'serviceId',
  'createTime_dategt',
  'createTime_datelt',
]);

const logHooks = (extra: ResourceHooks = {}): ResourceHooks => ({
  // runs once the engine has checked every key and value it knows (an unknown column, a malformed date)
  extraWhere(_ctx, query) {
    for (const key of Object.keys(query)) if (!LIST_KEYS.has(key)) throw invalidField(key, 'unknownFilter');
    return undefined;
  },
  ...extra,
});

/** One entry of the browser's error log (spec §3 stored state, §8 client errors). */
const optionalText = (max: number) => z.string().max(max).nullish();
const ClientError = z.object({
  type: optionalText(255),
  message: z.string().max(2000),
  stack: optionalText(10_000),
  info: optionalText(255),
  url: optionalText(1000),
  time: z.union([z.string().max(64), z.number()]).nullish(),
});
const MAX_REPORT = 100;
const ReportBody = z.union([
  z.array(ClientError).max(MAX_REPORT),
  z.object({ logs: z.array(ClientError).max(MAX_REPORT) }),
]);

/** The three logs' tables, bound to their definitions (modules/resources.ts). */
export function logBindings(deps: Pick<AppDeps, 'db' | 'kv'>) {
  const { db, kv } = deps;
  return {
    [logUsualResource.key]: { table: schema.logUsual, hooks: logHooks() },
    [logApiResource.key]: { table: schema.logApi, hooks: logHooks() },
    [logErrorResource.key]: {
      table: schema.logError,
      hooks: logHooks({
        endpoints: [
          /** Any signed-in user may hand over the browser's error log; it lands in the error log as service 'web'. */
          endpoint({
            method: 'POST',
            path: 'report',
            picker: true,
            bodyLimit: 2 * 1024 * 1024,
            query: z.object({}),
            body: ReportBody,
            async handler({ req, ctx, resource, body }) {
              // every signed-in browser may report its errors, but not flood the table: a few batches a minute
              await throttle(kv, `error-report:${ctx.tenantId}:${ctx.userId}`, 20, 60);
              const entries = Array.isArray(body) ? body : body.logs;
              if (!entries.length) return 0;
              const now = new Date();
              const origin = req.server.auditLog.origin;
              const userAgent = req.headers['user-agent'];
              await db.insert(schema.logError).values(
                entries.map((e) => {
                  const frame = firstFrame(e.stack ?? undefined);
                  // every text the browser sent through the server log's scrubber, as the recorder's rows
                  return scrubRow({
                    tenantId: ctx.tenantId,
                    serviceId: 'web',
                    ...origin,
                    method: null,
                    requestUri: clip(e.url ? sanitizeUrl(e.url) : null, 255),
                    userAgent: clip(typeof userAgent === 'string' ? userAgent : null, 1000),
                    remoteIp: clip(req.ip, 255),
                    methodName: clip(e.info, 255),
                    params: e.time != null ? `time=${e.time}` : null,
                    createBy: clip(ctx.account, 64),
                    createTime: now,
                    exceptionName: clip(e.type || 'Error', 255),
                    message: e.message,
                    stackTrace: e.stack ?? null,
                    fileName: clip(frame?.fileName, 1000),
                    lineNumber: frame?.lineNumber ?? null,
                  });
                }),
              );
              resource.changed();
              return entries.length;
            },
          }),
        ],
      }),
    },
  };
}
