import type { AppSettings, LoginResult, UserInfo } from '@smart/contracts';
import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearerOf, requireCtx } from '../../platform/auth/context';
import { forgetAllCounts } from '../../platform/crud/count-cache';
import { schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { ApiError, OAuthError, unauthorized } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { throttle } from '../../platform/throttle';
import { dropAccessCaches } from '../system/caches';
import { familyAvatar } from '../system/family-client';
import { checkCaptcha, issueCaptcha } from './captcha';
import { authenticateClient, clientGrants } from './clients';
import { roleNames, signInWithPassword, signInWithRefresh } from './signin';

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() || undefined;
};

const TokenQuery = z.object({
  grant_type: z.string().min(1),
  tenantId: z.string().max(12).optional(),
  username: z.string().max(45).optional(),
  password: z.string().max(64).optional(),
  refresh_token: z.string().max(4096).optional(),
  scope: z.string().optional(),
  type: z.string().optional(),
});

const FamilyTokenQuery = z.object({
  grantType: z.string().min(1),
  tenantId: z.string().max(12).optional(),
  account: z.string().max(45).optional(),
  username: z.string().max(45).optional(),
  password: z.string().max(64).optional(),
  refreshToken: z.string().max(4096).optional(),
  scope: z.string().optional(),
  type: z.string().optional(),
});

/** The family's token answer (`data` of the envelope): the same sign-in, named in camel case. */
export function familyTokenInfo(r: LoginResult) {
  return {
    accessToken: r.access_token,
    tokenType: r.token_type,
    refreshToken: r.refresh_token,
    expiresIn: r.expires_in,
    tenantId: r.tenant_id,
    userId: r.user_id,
    deptId: r.dept_id,
    postId: r.post_id,
    roleId: r.role_id,
    oauthId: '',
    account: r.account,
    userName: r.real_name || r.nick_name || r.account,
    nickName: r.nick_name,
    realName: r.real_name,
    roleName: r.role_name,
    // the family's shape: the role aliases comma-joined, as a string (its client tests
    // `authority.includes('admin')` to show the administrator's buttons)
    authority: r.role_name ?? '',
    // its top bar draws this as an <img>: a real picture when the user has none
    avatar: familyAvatar(r.avatar),
    clientId: r.client_id,
    license: r.license,
    passwordChangeRequired: r.password_change_required,
  };
}

export async function authRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const { config, db, kv, tokens } = deps;

  app.get('/oauth/settings', { config: { public: true } }, async (req) => {
    const settings: AppSettings = {
      tenantMode: config.TENANT_MODE,
      captchaMode: config.CAPTCHA_MODE,
      switchMode: config.SWITCH_MODE,
      tokenTime: config.TOKEN_TIME,
      defaultTenantId: DEFAULT_TENANT_ID,
      timeZone: config.TZ,
    };
    return ok(req, settings);
  });

  app.get('/oauth/captcha', { config: { public: true } }, async (req) => ok(req, await issueCaptcha(kv)));
  /** the family's newer path of the same captcha */
  app.get('/captcha', { config: { public: true } }, async (req) => ok(req, await issueCaptcha(kv)));

  /**
   * One implementation of every grant, whichever wire shape asked for it: client, grant allowed, captcha,
   * throttles and lockout, credentials, refresh rotation and revocation are decided here alone.
   */
  async function grantTokens(
    req: FastifyRequest,
    q: {
      grant: string;
      tenantId?: string;
      username?: string;
      password?: string;
      refreshToken?: string;
      /** the family's sign-in path: its tokens say so (`ctr`), and its console is answered its names */
      contract?: 'family';
    },
  ): Promise<LoginResult> {
    const client = await authenticateClient(db, req);
    const grants = clientGrants(client);
    const grant = q.grant;
    if (grant === 'social' || grant === 'authorization_code') throw new OAuthError(400, 'grantNotConfigured');
    if (!grants.has(grant)) throw new OAuthError(400, 'grantNotAllowed');
    const deptId = header(req, 'Dept-Id');
    const roleId = header(req, 'Role-Id');
    if (grant === 'password' || grant === 'captcha') {
      // a client able to solve captchas may not skip them while captcha mode is on
      if (grant === 'password' && config.CAPTCHA_MODE && grants.has('captcha'))
        throw new OAuthError(400, 'captchaRequired');
      if (
        grant === 'captcha' &&
        !(await checkCaptcha(kv, header(req, 'Captcha-Key'), header(req, 'Captcha-Code')))
      )
        throw new OAuthError(400, 'captchaInvalid');
      const tenantId = q.tenantId || header(req, 'Tenant-Id') || DEFAULT_TENANT_ID;
      if (!q.username || !q.password) throw new OAuthError(400, 'badCredentials');
      return signInWithPassword(deps, client, {
        tenantId,
        username: q.username,
        password: q.password,
        address: req.ip,
        deptId,
        roleId,
        contract: q.contract,
      });
    }
    if (grant === 'refresh_token') {
      if (!q.refreshToken) throw new OAuthError(400, 'refreshInvalid');
      return signInWithRefresh(deps, client, {
        refreshToken: q.refreshToken,
        deptId,
        roleId,
        contract: q.contract,
      });
    }
    throw new OAuthError(400, 'grantNotConfigured');
  }

  /** The spec's sign-in (api-contract §Sign-in): query in snake case, a flat answer, OAuth-style errors. */
  app.post('/oauth/token', { config: { public: true } }, async (req, reply) => {
    const parsed = TokenQuery.safeParse(req.query);
    if (!parsed.success) {
      await authenticateClient(db, req); // a bad client is a 401 before anything else
      throw new OAuthError(400, 'badRequest');
    }
    const q = parsed.data;
    const result = await grantTokens(req, {
      grant: q.grant_type,
      tenantId: q.tenantId,
      username: q.username,
      password: q.password,
      refreshToken: q.refresh_token,
    });
    return reply.header('cache-control', 'no-store').send(result);
  });

  /**
   * The family's newer sign-in (SpringBlade 3/4 `blade-auth/token`): query in camel case (`grantType`,
   * `account`, `refreshToken`), the answer in the envelope with camel-case fields, errors as `{ code, msg }`.
   * The same grants, rules and tokens as /oauth/token (grantTokens).
   */
  app.post('/token', { config: { public: true } }, async (req, reply) => {
    try {
      const parsed = FamilyTokenQuery.safeParse(req.query);
      if (!parsed.success) {
        await authenticateClient(db, req);
        throw new OAuthError(400, 'badRequest');
      }
      const q = parsed.data;
      const r = await grantTokens(req, {
        grant: q.grantType,
        tenantId: q.tenantId,
        username: q.account ?? q.username,
        password: q.password,
        refreshToken: q.refreshToken,
        contract: 'family',
      });
      return reply.header('cache-control', 'no-store').send(ok(req, familyTokenInfo(r)));
    } catch (err) {
      if (err instanceof OAuthError) throw new ApiError(err.status, err.key, err.vars);
      throw err;
    }
  });

  /** Ends the session on the server: its access token and every refresh token of the same sign-in. */
  const logout = async (req: FastifyRequest) => {
    const raw = bearerOf(req);
    const token = raw ? await tokens.verify(raw, 'access') : null;
    if (!token) throw unauthorized('tokenInvalid');
    await tokens.revokeFamily(token.fid, 31 * 24 * 3600);
    return ok(req, true);
  };
  app.get('/oauth/logout', { config: { beforePasswordChange: true } }, logout);
  app.post('/oauth/logout', { config: { beforePasswordChange: true } }, logout);

  /**
   * Drops what this instance remembers (grants, scopes, totals); the next requests read the database afresh.
   * Any signed-in user may ask (the top bar offers it), a few times a minute: each call makes every list
   * of every user read the database again.
   */
  app.get('/oauth/clear-cache', async (req) => {
    const ctx = requireCtx(req);
    await throttle(kv, `clear-cache:${ctx.tenantId}:${ctx.userId}`, 3, 60);
    dropAccessCaches();
    forgetAllCounts();
    return ok(req, true);
  });

  app.get('/oauth/user-info', { config: { beforePasswordChange: true } }, async (req) => {
    const ctx = requireCtx(req);
    const [u] = await db
      .select()
      .from(schema.user)
      .where(
        and(
          eq(schema.user.id, ctx.userId),
          eq(schema.user.tenantId, ctx.tenantId),
          notDeleted(schema.user.isDeleted),
        ),
      )
      .limit(1);
    if (!u) throw unauthorized('tokenInvalid');
    const roles = await roleNames(db, ctx.roleIds, req.lang);
    const info: UserInfo = {
      id: u.id,
      tenantId: u.tenantId,
      account: u.account,
      name: u.name ?? '',
      realName: u.realName ?? '',
      avatar: ctx.familyClient ? familyAvatar(u.avatar) : (u.avatar ?? ''),
      email: u.email ?? '',
      phone: u.phone ?? '',
      deptId: ctx.deptId,
      roleId: ctx.roleIds.join(','),
      roleName: roles.map((r) => r.roleName).join(','),
      passwordChangeRequired: u.mustChangePassword,
    };
    return ok(req, info);
  });
}
