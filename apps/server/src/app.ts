import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { getTableName } from 'drizzle-orm';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import helmet, { type HelmetOptions } from 'helmet';
import pino from 'pino';
import { SERVER_AREAS } from './modules/areas';
import { authRoutes } from './modules/auth/routes';
import { homeRoutes } from './modules/desk/home';
import { leaveRoutes } from './modules/desk/leave';
import { applyRoutes } from './modules/flow/apply';
import { flowRoutes } from './modules/flow/routes';
import { installAuditHooks } from './modules/log/recorder';
import { fileRoutes } from './modules/resource/files';
import { type ExtraResource, resourceRoutes } from './modules/resources';
import { DemoVideo, demoVideoRoutes } from './modules/safety/demo-video';
import { dropAccessCaches } from './modules/system/caches';
import { registerGrantRoutes } from './modules/system/grants';
import { systemRoutes } from './modules/system/routes';
import { registerTenantRoutes } from './modules/system/tenant';
import { telemetryCore } from './modules/telemetry/core';
import { ingestRoutes } from './modules/telemetry/routes';
import { familyUserRoutes } from './modules/user/family';
import { userRoutes } from './modules/user/routes';
import { installApiScopes } from './platform/access/api-scope';
import { mountOverview } from './platform/area';
import { requestContext } from './platform/auth/context';
import { Sessions } from './platform/auth/sessions';
import { followSignOuts, TokenService } from './platform/auth/tokens';
import type { Config } from './platform/config';
import { type Db, schema } from './platform/db';
import { changesOf } from './platform/db/changes';
import { compressAnswers } from './platform/http/compress';
import {
  ApiError,
  dataExceptionCode,
  FieldInputError,
  invalidField,
  isUnavailable,
  isUniqueViolation,
  OAuthError,
  RowsInputError,
  TextError,
} from './platform/http/errors';
import { loggerOptions } from './platform/http/logging';
import { type Lang, langOf, t } from './platform/http/messages';
import { readyRoutes } from './platform/http/ready';
import {
  BODY_NOT_JSON,
  BODY_TOO_DEEP,
  describeValidation,
  jsonTooDeep,
  nulPath,
} from './platform/http/validation';
import type { KvStore } from './platform/kv';
import { defaultWebDist } from './platform/paths';
import { type FileStorage, LocalStorage } from './platform/storage';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
  interface FastifyInstance {
    deps: AppDeps;
    /** the demo cameras' streams (modules/safety/demo-video.ts) */
    demoVideo: DemoVideo;
  }
}

/** the tables behind the grants, scopes and menus each instance remembers briefly (dropAccessCaches) */
const ACCESS_TABLES = new Set<string>(
  [
    schema.role,
    schema.userRole,
    schema.userDept,
    schema.roleMenu,
    schema.menu,
    schema.topMenu,
    schema.topMenuSetting,
    schema.roleScope,
    schema.scopeData,
    schema.scopeApi,
    schema.dept,
    schema.tenant,
    schema.tenantPackage,
  ].map((t) => getTableName(t)),
);

/** Everything a module needs, handed over once; modules never reach for globals. */
export interface AppDeps {
  config: Config;
  db: Db;
  kv: KvStore;
  tokens: TokenService;
  /** whose sessions are alive (password changes, resets and removals end them on every instance) */
  sessions: Sessions;
  storage: FileStorage;
}

/**
 * The request log's destination: standard output written off the request's path (a write in flight
 * gathers the lines logged meanwhile into the next one; what is buffered is flushed when the process
 * exits). A synchronous write per line cost ≈ 0.3 ms of every request's CPU.
 */
const asyncStdout = () => pino.destination({ dest: 1, sync: false });

/**
 * The request log: one line per answered request — method, URL (credentials masked by the logger's hooks),
 * client address, status and time taken — instead of Fastify's two (one as it comes, one as it is
 * answered): half the logging work on every request.
 */
class OneLinePerRequest extends LogController {
  incomingRequest() {}
  requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export async function buildApp(
  deps: Omit<AppDeps, 'tokens' | 'storage' | 'sessions'> & {
    signingKey: Uint8Array;
    logger?: false | NodeJS.WritableStream;
    /** definitions mounted beside the registry's (the field-kind tests mount a probe of every kind) */
    extraResources?: ExtraResource[];
  },
): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : { ...loggerOptions(config.LOG_LEVEL), stream: deps.logger ?? asyncStdout() },
    // one line per request, when it is answered, instead of one as it comes and one as it is answered
    logController: new OneLinePerRequest(),
    // forwarded addresses only from the proxies the operator names (TRUST_PROXY); never from anyone
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 10 * 1024 * 1024,
  });
  // grants, scopes and menus are remembered for a few seconds per instance; a change to their tables by any
  // instance (its notification) drops them on this one at once, so a role taken away on one server grants
  // nothing on another the next moment (without the notifications, the few seconds are the bound)
  const unfollow = changesOf(deps.db)?.onChange((table) => {
    if (table === '*' || ACCESS_TABLES.has(table)) dropAccessCaches();
  });
  if (unfollow) app.addHook('onClose', async () => unfollow());
  const sessions = new Sessions(deps.db, deps.kv);
  const tokens = new TokenService(deps.signingKey, deps.kv, sessions, deps.db);
  // on PostgreSQL without Redis, several instances may share the database but not the store: each copies
  // the others' sign-outs from the database every few seconds
  if (config.DATABASE_URL && !config.REDIS_URL) followSignOuts(app, tokens);
  app.decorate('deps', {
    config,
    db: deps.db,
    kv: deps.kv,
    tokens,
    sessions,
    storage: new LocalStorage(config.DATA_DIR),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // JSON bodies: nested at most JSON_MAX_DEPTH deep (checked on the text, before parsing), no NUL character
  // anywhere (PostgreSQL text cannot hold one); otherwise Fastify's own parser (prototype poisoning refused)
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    const body = text as string;
    if (jsonTooDeep(body)) return done(new FieldInputError('body', BODY_TOO_DEEP), undefined);
    parseJson(req, body, (err, value) => {
      if (err) return done(new FieldInputError('body', BODY_NOT_JSON), undefined);
      const nul = /\\u0000/i.test(body) ? nulPath(value) : undefined;
      if (nul !== undefined) return done(invalidField(nul), undefined);
      done(null, value);
    });
  });
  app.decorateRequest('lang', 'zh');

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof OAuthError) {
      return reply
        .status(err.status)
        .send({ error_code: err.status, error_description: t(req.lang, err.key, err.vars) });
    }
    if (err instanceof ApiError) {
      return reply
        .status(err.status)
        .send({ code: err.status, success: false, data: null, msg: t(req.lang, err.key, err.vars) });
    }
    if (err instanceof TextError) {
      return reply
        .status(err.status)
        .send({ code: err.status, success: false, data: err.data, msg: err.text[req.lang] });
    }
    if (err instanceof RowsInputError) {
      const rows = err.rows.map((r) => ({ row: r.row, field: r.field, message: r.message[req.lang] }));
      const first = rows[0];
      // rows, not errors: a row with three bad cells is one bad row
      const bad = new Set(rows.map((r) => r.row)).size;
      const msg =
        req.lang === 'en'
          ? `Rows with errors: ${bad}; nothing was imported. Row ${first.row}: ${first.message}`
          : `共 ${bad} 行数据有误,未导入任何数据。第 ${first.row} 行: ${first.message}`;
      return reply.status(400).send({ code: 400, success: false, data: { errors: rows }, msg });
    }
    if (err instanceof FieldInputError) {
      return reply
        .status(400)
        .send({ code: 400, success: false, data: { field: err.field }, msg: err.text[req.lang] });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const { field, message } = describeValidation(req.lang, err.validation);
      return reply.status(400).send({ code: 400, success: false, data: { field }, msg: message });
    }
    // the safety net: a value the database refused as data (SQLSTATE class 22) was the client's; the field
    // checks before SQL should have caught it, so it is logged for one to be added
    const sqlstate = dataExceptionCode(err);
    if (sqlstate) {
      req.log.warn({ err, sqlstate }, 'bad input reached the database');
      return reply
        .status(400)
        .send({ code: 400, success: false, data: null, msg: t(req.lang, 'badRequest') });
    }
    if (isUniqueViolation(err)) {
      req.log.warn({ err }, 'a unique value was taken by a concurrent write');
      return reply
        .status(409)
        .send({ code: 409, success: false, data: null, msg: t(req.lang, 'valueTaken') });
    }
    // the database or the shared store is unreachable (restarting, cut off): a clear 503 the client may
    // repeat, never a 500 with a stack nor a request left hanging; the pool reconnects by itself
    if (isUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'database or shared store unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ code: 503, success: false, data: null, msg: t(req.lang, 'unavailable') });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'unexpected error');
    if (status === 500) app.auditLog.unexpected(req, err);
    const msg =
      status === 500
        ? t(req.lang, 'serverError')
        : status === 429
          ? t(req.lang, 'tooManyRequests')
          : t(req.lang, 'badRequest');
    return reply.status(status).send({ code: status, success: false, data: null, msg });
  });

  // the security headers do not depend on the request: computed once, set on every answer. Pages and their
  // assets get the console's policy; an API answer (JSON, a download) is never a document that runs
  // anything, so it gets the short policy OWASP's REST cheat sheet gives — stricter, and fewer bytes on
  // every call.
  const pageHeaders = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // the plot map's tiles come from the tile server a tenant configures (天地图 by default)
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        // cameras serve their streams from hosts of their own (the camera, an NVR, a media server): the live
        // video wall's players fetch HLS playlists and segments or an HTTP-FLV stream from them (connect),
        // feed them to the video element through Media Source (blob:) or, where the browser plays HLS
        // itself, hand it the URL (media); hls.js transmuxes in a worker it starts from a blob. Scripts stay
        // 'self' only, so what may be fetched widens, not what may run.
        connectSrc: ["'self'", 'http:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'http:', 'https:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        // /myiframe embeds external pages that menus point at
        frameSrc: ["'self'", 'https:', 'http:'],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  const apiHeaders = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'strict-transport-security': pageHeaders['strict-transport-security'],
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
  };
  // What every request gets first, in one hook (each hook is a step of its own on every request): the
  // language it is answered in, the security headers, and a NUL character in its query string or path
  // refused as the JSON parser refuses one in a body, before any route (or the token check) sees it.
  // A callback hook, not an async one: no promise and microtask per request for what is synchronous.
  app.addHook('onRequest', (req, reply, done) => {
    req.lang = langOf(req.headers['accept-language']);
    reply.headers(req.url.startsWith('/api/') ? apiHeaders : pageHeaders);
    const nul = nulPath(req.query) ?? nulPath(req.params);
    done(nul === undefined ? undefined : invalidField(nul));
  });
  compressAnswers(app);
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 20 } });
  await app.register(requestContext, { tokens, db: deps.db });
  installApiScopes(app, deps.db);
  installAuditHooks(app);
  readyRoutes(app, { db: deps.db, kv: deps.kv, redis: Boolean(config.REDIS_URL) });

  await app.register(authRoutes, { prefix: '/api/dfem-auth' });
  await app.register(systemRoutes, { prefix: '/api/dfem-system' });
  await app.register(registerGrantRoutes, { prefix: '/api/dfem-system' });
  await app.register(registerTenantRoutes, { prefix: '/api/dfem-system' });
  await app.register(userRoutes, { prefix: '/api/dfem-user' });
  await app.register(familyUserRoutes, { prefix: '/api/dfem-system/user' });
  await app.register(flowRoutes, { prefix: '/api/dfem-flow' });
  await app.register(applyRoutes, { prefix: '/api/dfem-flow' });
  await app.register(leaveRoutes, { prefix: '/api/dfem-desk' });
  await app.register(homeRoutes, { prefix: '/api/dfem-desk' });
  const resources = await resourceRoutes(app, deps.extraResources);
  // uploads: what each may be for is a field of a resource mounted here, and the sweep reads their fields
  await fileRoutes(app, resources);
  // the telemetry core (ingestion, MQTT, the offline check) on the root app: its state is app.telemetry
  await telemetryCore(app, deps.db, config);
  await app.register(ingestRoutes, { prefix: '/api/telemetry' });
  // the demo cameras' streams: made in the background once the server is ready, served same-origin
  const demoVideo = new DemoVideo(config.DATA_DIR, app.log);
  app.decorate('demoVideo', demoVideo);
  demoVideoRoutes(app, demoVideo);
  if (config.DEMO_VIDEO === 'on')
    app.addHook('onReady', async () => {
      void demoVideo.make();
    });
  // each business area's routes that are no resource's (modules/areas.ts)
  for (const area of SERVER_AREAS) {
    for (const { prefix, plugin } of area.routes ?? []) await app.register(plugin, { prefix });
    mountOverview(app, area);
  }

  const webDist = config.WEB_DIST ?? defaultWebDist;
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      preCompressed: true,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // hashed file names never change: cache them for a year; everything else revalidates
        res.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    // pre-register every built file would need a restart per build; fastify-static with wildcard:false
    // registers the files present at start, which is what production serves.
  }

  app.setNotFoundHandler((req, reply) => {
    // a missing hashed asset (an old tab after a deploy) is a 404, never the page: the browser then reloads
    if (
      !req.url.startsWith('/api/') &&
      !req.url.startsWith('/assets/') &&
      hasWeb &&
      (req.method === 'GET' || req.method === 'HEAD')
    ) {
      // the single-page app owns every other path; the browser's router shows its own 404
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ code: 404, success: false, data: null, msg: t(req.lang, 'routeNotFound') });
  });

  return app;
}

/** helmet's headers for these options, read off its middleware once (they never depend on the request). */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}
