import { hostname, networkInterfaces } from 'node:os';
import { DEFAULT_TENANT_ID, logApiResource, logErrorResource, logUsualResource } from '@smart/contracts';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forgetCounts } from '../../platform/crud/count-cache';
import { type Db, schema } from '../../platform/db';
import { sanitizeUrl } from '../../platform/http/logging';
import { scrubText } from '../../platform/http/scrub';

/**
 * The audit trail (spec §7 Log): every mutating API call and every sign-in attempt goes to blade_log_api,
 * every unexpected error with its stack to blade_log_error, sign-in and sign-out to blade_log_usual.
 * Request bodies are never stored; query strings only with their secrets masked (`sanitizeUrl`), and every
 * text of every row passes the server log's scrubber (`scrubRow`) before it is queued.
 *
 * Rows are queued and written in batches (one multi-row insert per table) so that recording never slows
 * or fails a response; a failed write is logged and its rows dropped.
 */

type ApiRow = typeof schema.logApi.$inferInsert;
type ErrorRow = typeof schema.logError.$inferInsert;
type UsualRow = typeof schema.logUsual.$inferInsert;

declare module 'fastify' {
  interface FastifyInstance {
    /** the audit recorder; `await app.auditLog.flush()` writes everything queued so far */
    auditLog: LogRecorder;
  }
}

export interface RecorderOptions {
  /** a batch is written at most this long after its first row was queued */
  intervalMs?: number;
  /** a batch is written as soon as this many rows wait */
  batchRows?: number;
  /** past this many queued rows (the database is down or slow) new rows are dropped */
  maxQueued?: number;
}

const TOKEN_ROUTE = '/api/dfem-auth/oauth/token';
/** the family's newer sign-in: the same grants, its query and answer named in camel case */
const FAMILY_TOKEN_ROUTE = '/api/dfem-auth/token';
const isTokenRoute = (route: string | undefined) => route === TOKEN_ROUTE || route === FAMILY_TOKEN_ROUTE;
const grantOf = (req: FastifyRequest) =>
  req.routeOptions.url === FAMILY_TOKEN_ROUTE ? queryValue(req, 'grantType') : queryValue(req, 'grant_type');
const LOGOUT_ROUTE = '/api/dfem-auth/oauth/logout';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** rows per INSERT statement when a large queue is drained (stays far below PostgreSQL's parameter cap) */
const CHUNK = 500;

/**
 * A row as it may be stored: every text column through the server log's scrubber (`scrubText`), so that no
 * token, password, md5, ID-card or phone number a client put in a path, a query, a header (the user agent)
 * or a field reaches the audit trail, whichever column it lands in. Columns the server fills itself are kept.
 */
export function scrubRow<T extends Record<string, unknown>>(row: T): T {
  const out: Record<string, unknown> = { ...row };
  for (const [key, value] of Object.entries(row)) {
    if (typeof value !== 'string' || SERVER_COLUMNS.has(key)) continue;
    const scrubbed = scrubText(value);
    // a mask may be longer than what it hides (`pwd=x` → `pwd=***`): the text was clipped to its column
    // already, and stays within it (a row too long would fail its whole batch)
    out[key] = scrubbed.length > value.length ? scrubbed.slice(0, value.length) : scrubbed;
  }
  return out as T;
}
/** what the server itself writes: its host and address, the tenant, the service, the method and level */
const SERVER_COLUMNS = new Set(['tenantId', 'serverHost', 'serverIp', 'env', 'method', 'logLevel', 'logId']);

/** Cuts a text to a column's length so that one long value never fails a whole batch. */
export const clip = (s: string | null | undefined, max: number): string | null =>
  s == null ? null : s.length > max ? s.slice(0, max) : s;

/** File and line of a stack's first frame with a location (V8 `at fn (file:1:2)`, Gecko/WebKit `fn@file:1:2`). */
export function firstFrame(stack: string | undefined): { fileName: string; lineNumber: number } | undefined {
  if (!stack) return undefined;
  for (const line of stack.split('\n')) {
    const m =
      /^\s*at\s+(?:.*\()?(.+?):(\d+):\d+\)?\s*$/.exec(line) ?? /^[^@\s]*@(.+?):(\d+):\d+\s*$/.exec(line);
    if (m) {
      const lineNumber = Number(m[2]);
      if (lineNumber > 2_147_483_647) return undefined;
      return { fileName: m[1], lineNumber };
    }
  }
  return undefined;
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** The query string with secrets masked, without the path (stored beside it as requestUri). */
export function maskedQuery(url: string): string {
  const masked = sanitizeUrl(url);
  const q = masked.indexOf('?');
  return q < 0 ? '' : masked.slice(q + 1);
}

/** `/api/dfem-system/user/list` → `dfem-system` */
const serviceOf = (path: string) => path.split('/')[2] ?? '';

function serverIp(): string | null {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

const queryValue = (req: FastifyRequest, key: string): string | undefined => {
  const q = req.query as Record<string, unknown> | undefined;
  const v = q?.[key];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s ? s : undefined;
};

const headerValue = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
};

/** What a successful token response said about who signed in (read before serialisation). */
interface SignedIn {
  account: string;
  tenantId: string;
  clientId: string;
}

export class LogRecorder {
  private api: ApiRow[] = [];
  private errors: ErrorRow[] = [];
  private usual: UsualRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private dropped = 0;
  private closed = false;
  private readonly intervalMs: number;
  private readonly batchRows: number;
  private readonly maxQueued: number;
  /** columns every row shares, computed once */
  readonly origin: { serverHost: string | null; serverIp: string | null; env: string };

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    opts: RecorderOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 200;
    this.batchRows = opts.batchRows ?? 100;
    this.maxQueued = opts.maxQueued ?? 10_000;
    const nodeEnv = process.env.NODE_ENV;
    this.origin = {
      serverHost: clip(hostname(), 255),
      serverIp: clip(serverIp(), 255),
      env: nodeEnv === 'production' ? 'prod' : nodeEnv === 'test' ? 'test' : 'dev',
    };
  }

  get queued(): number {
    return this.api.length + this.errors.length + this.usual.length;
  }

  recordApi(row: ApiRow) {
    this.enqueue(this.api, scrubRow(row));
  }
  recordError(row: ErrorRow) {
    this.enqueue(this.errors, scrubRow(row));
  }
  recordUsual(row: UsualRow) {
    this.enqueue(this.usual, scrubRow(row));
  }

  private enqueue<T>(queue: T[], row: T) {
    if (this.queued >= this.maxQueued) {
      this.dropped++;
      return;
    }
    queue.push(row);
    if (this.closed || this.queued >= this.batchRows) {
      void this.drain();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.drain();
      }, this.intervalMs);
      this.timer.unref();
    }
  }

  /**
   * Writes everything queued so far; resolves when it is in the database (or its failure logged).
   * Never rejects. One event-loop turn first lets the hooks of responses just sent queue their rows.
   */
  async flush(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.drain();
  }

  /** Writes are serialised: a drain waits for the one before it, then takes whatever is queued. */
  private drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private async write() {
    const api = this.api.splice(0);
    const errors = this.errors.splice(0);
    const usual = this.usual.splice(0);
    for (let i = 0; i < api.length; i += CHUNK)
      await this.attempt('blade_log_api', api.length, () =>
        this.db.insert(schema.logApi).values(api.slice(i, i + CHUNK)),
      );
    for (let i = 0; i < errors.length; i += CHUNK)
      await this.attempt('blade_log_error', errors.length, () =>
        this.db.insert(schema.logError).values(errors.slice(i, i + CHUNK)),
      );
    for (let i = 0; i < usual.length; i += CHUNK)
      await this.attempt('blade_log_usual', usual.length, () =>
        this.db.insert(schema.logUsual).values(usual.slice(i, i + CHUNK)),
      );
    // the lists' totals count what was just written (written here, not through the logs' engine)
    if (api.length) forgetCounts(logApiResource.key);
    if (errors.length) forgetCounts(logErrorResource.key);
    if (usual.length) forgetCounts(logUsualResource.key);
    if (this.dropped) {
      this.log.warn({ dropped: this.dropped }, 'audit log queue full; rows dropped');
      this.dropped = 0;
    }
  }

  private async attempt(table: string, rows: number, insert: () => PromiseLike<unknown>) {
    try {
      await insert();
    } catch (err) {
      // the audit trail must never take the application down with it
      this.log.error({ err, table, rows }, 'audit log write failed; rows dropped');
    }
  }

  /** Stops the timer and writes what is left; rows queued afterwards are written at once. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }

  // ---- what a request becomes ----

  /** Tenant and account of a request: the token's, or for a sign-in the tenant and name it claims. */
  private who(req: FastifyRequest, signedIn?: SignedIn): { tenantId: string; createBy: string | null } {
    if (signedIn) return { tenantId: signedIn.tenantId, createBy: signedIn.account };
    if (req.ctx) return { tenantId: req.ctx.tenantId, createBy: req.ctx.account };
    if (isTokenRoute(req.routeOptions.url)) {
      const tenantId = queryValue(req, 'tenantId') || headerValue(req, 'tenant-id') || DEFAULT_TENANT_ID;
      // a tenant id longer than the column is no tenant at all: the attempt stays with the platform tenant
      return {
        tenantId: tenantId.length <= 12 ? tenantId : DEFAULT_TENANT_ID,
        createBy: clip(queryValue(req, 'username') ?? queryValue(req, 'account'), 64),
      };
    }
    return { tenantId: DEFAULT_TENANT_ID, createBy: null };
  }

  private common(req: FastifyRequest, signedIn?: SignedIn) {
    const path = pathOf(req.url);
    return {
      ...this.who(req, signedIn),
      ...this.origin,
      serviceId: clip(serviceOf(path), 32),
      method: clip(req.method, 10),
      requestUri: clip(path, 255),
      userAgent: clip(headerValue(req, 'user-agent'), 1000),
      remoteIp: clip(req.ip, 255),
      params: clip(maskedQuery(req.url), 4000) || null,
      createTime: new Date(),
    };
  }

  /** onResponse: the API log, and the usual log for sign-in and sign-out. */
  observe(req: FastifyRequest, reply: FastifyReply, signedIn?: SignedIn) {
    if (!req.url.startsWith('/api/')) return;
    // a read records nothing (only writes, sign-ins and sign-outs do): it leaves at once, as most requests
    // do, before the route's options are read
    if (!MUTATING.has(req.method) && !req.url.startsWith(LOGOUT_ROUTE)) return;
    const route = req.routeOptions.url;
    const isToken = isTokenRoute(route) && req.method === 'POST';
    const grant = isToken ? grantOf(req) : undefined;
    const ok = reply.statusCode === 200;
    if (MUTATING.has(req.method)) {
      this.recordApi({
        ...this.common(req, isToken && ok ? signedIn : undefined),
        title: clip(
          isToken ? (grant === 'refresh_token' ? 'token-refresh' : 'sign-in') : (route ?? null),
          255,
        ),
        time: Math.max(0, Math.round(reply.elapsedTime)),
        statusCode: reply.statusCode,
      });
    }
    if (isToken && ok && signedIn && grant !== 'refresh_token') {
      this.recordUsual({
        ...this.common(req, signedIn),
        logLevel: 'INFO',
        logId: 'sign-in',
        logData: clip(
          `account ${signedIn.account} signed in (client ${signedIn.clientId}, grant ${grant})`,
          1000,
        ),
      });
    }
    if (route === LOGOUT_ROUTE && ok && req.ctx) {
      this.recordUsual({
        ...this.common(req),
        logLevel: 'INFO',
        logId: 'sign-out',
        logData: clip(`account ${req.ctx.account} signed out (client ${req.ctx.clientId})`, 1000),
      });
    }
  }

  /** The error handler hands over every unexpected (500) error. */
  unexpected(req: FastifyRequest, err: unknown) {
    const e = err instanceof Error ? err : new Error(String(err));
    let stack = e.stack ?? `${e.name}: ${e.message}`;
    if (e.cause instanceof Error && e.cause.stack) stack += `\nCaused by: ${e.cause.stack}`;
    const frame = firstFrame(e.stack);
    this.recordError({
      ...this.common(req),
      methodName: clip(req.routeOptions.url ?? null, 255),
      exceptionName: clip(e.name || e.constructor?.name || 'Error', 255),
      message: clip(scrubText(e.message), 10_000),
      stackTrace: clip(scrubText(stack), 50_000),
      fileName: clip(frame?.fileName, 1000),
      lineNumber: frame?.lineNumber ?? null,
    });
  }
}

/**
 * Decorates the app with its recorder (`app.auditLog`) and installs the hooks that feed it. Call on the
 * root instance right after the request context, so that every route of every module is covered.
 */
export function installAuditHooks(app: FastifyInstance, opts: RecorderOptions = {}): LogRecorder {
  const recorder = new LogRecorder(app.deps.db, app.log, opts);
  app.decorate('auditLog', recorder);
  const signIns = new WeakMap<FastifyRequest, SignedIn>();

  // the token response is read before serialisation (afterwards it may already be compressed)
  app.addHook('preSerialization', (req, reply, payload, done) => {
    if (isTokenRoute(req.routeOptions.url) && reply.statusCode === 200 && payload) {
      const raw = payload as Record<string, unknown>;
      const data = raw.data as Record<string, unknown> | undefined;
      // the family's answer carries the same sign-in in the envelope, in camel case
      const body =
        req.routeOptions.url === FAMILY_TOKEN_ROUTE && data
          ? {
              access_token: data.accessToken,
              account: data.account,
              tenant_id: data.tenantId,
              client_id: data.clientId,
            }
          : raw;
      if (typeof body.access_token === 'string' && typeof body.account === 'string')
        signIns.set(req, {
          account: clip(body.account, 64) ?? '',
          tenantId: String(body.tenant_id ?? DEFAULT_TENANT_ID).slice(0, 12),
          clientId: String(body.client_id ?? ''),
        });
    }
    done(null, payload);
  });

  // synchronous on purpose: the row is queued before the response's 'finish' listeners return
  app.addHook('onResponse', (req, reply, done) => {
    try {
      recorder.observe(req, reply, signIns.get(req));
    } catch (err) {
      req.log.error({ err }, 'audit log: request not recorded');
    }
    done();
  });

  app.addHook('onClose', async () => {
    await recorder.close();
  });
  return recorder;
}
