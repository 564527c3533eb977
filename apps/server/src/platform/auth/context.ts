import { TOKEN_HEADER } from '@smart/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { heldRoles } from '../access/held-roles';
import type { Db } from '../db';
import { ApiError, unauthorized } from '../http/errors';
import type { LiveToken, TokenService } from './tokens';

/** Who is asking: built once per request from the access token, read by every module. */
export interface RequestContext {
  tenantId: string;
  userId: string;
  deptId: string;
  /** the token's roles that the user still holds (removed or deleted roles no longer count) */
  roleIds: string[];
  account: string;
  clientId: string;
  /** the token was issued on the family's sign-in path (its console): answers use its names (family-client.ts) */
  familyClient?: boolean;
  token: LiveToken;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext | null;
  }
  interface FastifyContextConfig {
    /** true: reachable without a token (sign-in, captcha, settings, tenant info) */
    public?: boolean;
    /**
     * true: served while the user must still change an initial or reset password (changing it, reading
     * who one is, signing out); every other call is refused until then.
     */
    beforePasswordChange?: boolean;
    /**
     * true: a download the family's clients open as a link (`?blade-auth=bearer …`, an Excel export or
     * template), so the token may come in the query: on a GET of such a route only (logs mask it)
     */
    tokenInQuery?: boolean;
    /**
     * true: no token is read and no context built, even when one is sent (the readiness probe: it answers
     * while the database or Redis is down, and never costs a lookup)
     */
    bare?: boolean;
  }
}

/** `Blade-Auth: bearer <token>` (the bearer word is optional, as BladeX clients send either). */
export function bearerOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[TOKEN_HEADER.toLowerCase()] ?? linkToken(req);
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const m = /^(?:bearer\s+)?(\S+)$/i.exec(value.trim());
  return m?.[1];
}

/**
 * The token of a download link (`?blade-auth=`), where the route takes one (`tokenInQuery`); taken out of the
 * query, so no filter of the download sees it.
 */
function linkToken(req: FastifyRequest): string | undefined {
  if (req.method !== 'GET' || !req.routeOptions.config?.tokenInQuery) return undefined;
  const query = req.query as Record<string, unknown> | undefined;
  const key = TOKEN_HEADER.toLowerCase();
  const v = query?.[key];
  if (query) delete query[key];
  return typeof v === 'string' ? v : undefined;
}

export function requireCtx(req: FastifyRequest): RequestContext {
  if (!req.ctx) throw unauthorized();
  return req.ctx;
}

export const requestContext = fp(async (app: FastifyInstance, opts: { tokens: TokenService; db: Db }) => {
  app.decorateRequest('ctx', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.routeOptions.config?.bare) return;
    const raw = bearerOf(req);
    const token = raw ? await opts.tokens.verify(raw, 'access') : null;
    if (token) {
      const config = req.routeOptions.config;
      // the server, not the browser, holds a user to changing an initial or reset password first
      if (
        token.mustChangePassword &&
        req.routeOptions.url &&
        !config?.beforePasswordChange &&
        !config?.public
      )
        throw new ApiError(403, 'passwordChangeRequired');
      req.ctx = {
        tenantId: token.tid,
        userId: token.uid,
        deptId: token.did,
        roleIds: await heldRoles(opts.db, token.tid, token.uid, token.rid ? token.rid.split(',') : []),
        account: token.acc,
        clientId: token.cid,
        familyClient: token.ctr === 'family',
        token,
      };
      return;
    }
    if (req.routeOptions.config?.public) return;
    // an unknown /api path is a 404 for everyone, signed in or not; everything else needs a valid token
    if (!req.routeOptions.url) return;
    throw unauthorized(raw ? 'tokenInvalid' : 'unauthorized');
  });
});

/**
 * The server acting on its own for a tenant (a receipt, an alarm, a job), no person: `account` names what
 * acts (`telemetry`, `points`, `wechat`, `sms`) in the rows' stamps and logs.
 */
export const serverActor = (tenantId: string, account: string, userId = '0'): RequestContext =>
  ({ tenantId, userId, deptId: '', roleIds: [], account, clientId: account }) as unknown as RequestContext;
