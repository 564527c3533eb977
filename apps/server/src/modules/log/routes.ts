import { and, count, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { sanitizeUrl } from '../../platform/http/logging';
import { scrubText } from '../../platform/http/scrub';
import { PageQuery, pagedList } from '../../platform/paging';
import { containsPattern } from '../../platform/sql';
import { throttle } from '../../platform/throttle';
import { clip, firstFrame } from './recorder';

/**
 * /api/dfem-log: the usual, API and error logs (lists and detail views) and the browser's error report.
 * Every read is confined to the caller's tenant; lists need the menu code, details `<code>_view`.
 */

interface LogSource {
  table: PgTable;
  code: string;
  cols: Record<'id' | 'tenantId' | 'createTime' | 'requestUri' | 'createBy' | 'serviceId', PgColumn>;
}

const source = (
  table: typeof schema.logUsual | typeof schema.logApi | typeof schema.logError,
  code: string,
): LogSource => ({
  table,
  code,
  cols: {
    id: table.id,
    tenantId: table.tenantId,
    createTime: table.createTime,
    requestUri: table.requestUri,
    createBy: table.createBy,
    serviceId: table.serviceId,
  },
});

const SOURCES = {
  usual: source(schema.logUsual, 'log_usual'),
  api: source(schema.logApi, 'log_api'),
  error: source(schema.logError, 'log_error'),
} as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:mm[:ss]`, a real calendar date (the database would refuse 2026-02-30). */
const dateParam = z.string().refine((s) => {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0));
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === se
  );
});

const ListQuery = PageQuery.extend({
  requestUri: z.string().max(255).optional(),
  createBy: z.string().max(64).optional(),
  serviceId: z.string().max(32).optional(),
  createTime_dategt: dateParam.optional(),
  createTime_datelt: dateParam.optional(),
});
const LIST_KEYS = new Set(Object.keys(ListQuery.shape));

/** Whitelisted keys only (anything else is a 400, as in every list); an empty value filters nothing. */
function parseList(query: unknown) {
  const raw = (query ?? {}) as Record<string, unknown>;
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!LIST_KEYS.has(key)) throw badRequest('unknownFilter', { field: key });
    if (value !== '') given[key] = value;
  }
  const parsed = ListQuery.safeParse(given);
  if (!parsed.success) {
    throw badRequest('fieldInvalid', { field: String(parsed.error.issues[0]?.path[0] ?? 'query') });
  }
  return parsed.data;
}

/** Wall-clock times are the server's time zone; a bare end date includes its whole day (as crud/query). */
function dateBound(col: PgColumn, op: 'gt' | 'lt', raw: string): SQL {
  const tz = process.env.TZ || 'Asia/Shanghai';
  if (op === 'gt') return sql`${col} >= (${raw}::timestamp at time zone ${tz})`;
  if (raw.length === 10) return sql`${col} < ((${raw}::timestamp + interval '1 day') at time zone ${tz})`;
  return sql`${col} < (${raw}::timestamp at time zone ${tz})`;
}

const toRow = (r: Record<string, unknown>) => ({ ...r, createTime: formatDateTime(r.createTime as Date) });

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

export async function logRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  for (const [name, src] of Object.entries(SOURCES)) {
    const { table, cols, code } = src;

    app.get(`/${name}/list`, async (req: FastifyRequest) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, code);
      const q = parseList(req.query);
      const where: SQL[] = [eq(cols.tenantId, ctx.tenantId)];
      if (q.requestUri) where.push(ilike(cols.requestUri, containsPattern(q.requestUri)));
      if (q.createBy) where.push(ilike(cols.createBy, containsPattern(q.createBy)));
      if (q.serviceId) where.push(eq(cols.serviceId, q.serviceId));
      if (q.createTime_dategt) where.push(dateBound(cols.createTime, 'gt', q.createTime_dategt));
      if (q.createTime_datelt) where.push(dateBound(cols.createTime, 'lt', q.createTime_datelt));
      const condition = and(...where);
      const page = await pagedList(q, {
        rows: db.select().from(table).where(condition).orderBy(desc(cols.createTime), desc(cols.id)),
        total: db.select({ total: count() }).from(table).where(condition),
        records: (rows) => rows.map((r) => toRow(r as Record<string, unknown>)),
      });
      return ok(req, page);
    });

    app.get(`/${name}/detail`, { schema: { querystring: z.object({ id: idString }) } }, async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, `${code}_view`);
      const [row] = await db
        .select()
        .from(table)
        .where(and(eq(cols.id, req.query.id), eq(cols.tenantId, ctx.tenantId)))
        .limit(1);
      if (!row) throw notFound();
      return ok(req, toRow(row as Record<string, unknown>));
    });
  }

  /** Any signed-in user may hand over the browser's error log; it lands in the error log as service 'web'. */
  app.post('/error/report', { bodyLimit: 2 * 1024 * 1024, schema: { body: ReportBody } }, async (req) => {
    const ctx = requireCtx(req);
    // every signed-in browser may report its errors, but not flood the table: a few batches a minute
    await throttle(base.deps.kv, `error-report:${ctx.tenantId}:${ctx.userId}`, 20, 60);
    const entries = Array.isArray(req.body) ? req.body : req.body.logs;
    if (!entries.length) return ok(req, 0);
    const now = new Date();
    const origin = base.auditLog.origin;
    const userAgent = req.headers['user-agent'];
    await db.insert(schema.logError).values(
      entries.map((e) => {
        const frame = firstFrame(e.stack ?? undefined);
        return {
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
          message: scrubText(e.message),
          stackTrace: e.stack ? scrubText(e.stack) : null,
          fileName: clip(frame?.fileName, 1000),
          lineNumber: frame?.lineNumber ?? null,
        };
      }),
    );
    return ok(req, entries.length);
  });
}
