import { userResource } from '@smart/contracts';
import type { FastifyInstance } from 'fastify';
import { requireCtx } from '../../platform/auth/context';
import { mountResource } from '../../platform/crud/engine';
import { schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { userHooks } from './binding';
import { PROFILE_FIELDS, saveOwnProfile, userRoutes } from './routes';

/** The family's personal-info form: the profile, and its password tab's fields (left empty when saving it). */
const PROFILE_KEYS = new Set<string>(['id', ...PROFILE_FIELDS]);
const PASSWORD_TAB_KEYS = new Set(['oldPassword', 'newPassword', 'newPassword1']);

/**
 * The family's personal-info screen saves `{ id, avatar, name, realName, phone, email }` through
 * `user/update`, the users screen's edit: one's own id and nothing but those fields is a profile save
 * (`saveOwnProfile`, no `user_edit` needed, the avatar kept). Anything else — another user's id, or one's
 * own with roles, departments, posts, tenant, account or status — is the users' edit, `user_edit` and all.
 */
export function ownProfileBody(userId: string, body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  if (String(record.id ?? '') !== userId) return undefined;
  const profile: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (PASSWORD_TAB_KEYS.has(k) && (v === '' || v === null || v === undefined)) continue;
    if (!PROFILE_KEYS.has(k)) return undefined;
    if (k !== 'id' && v !== undefined) profile[k] = v ?? '';
  }
  return profile;
}

/**
 * The family's newer clients manage users under `/api/dfem-system/user/*` (list, page, detail, info,
 * submit, update, remove, grant, reset-password, unlock, update-password, import-user, export-user,
 * export-template, register-guest …): the same definition and binding mounted a second time, so permission
 * codes, tenant isolation, data scope and throttles are the same. `user/list` is `user/page`.
 * API scopes covering a `/api/dfem-user/…` path cover its alias too (platform/http/aliases.ts).
 */
export async function familyUserRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || req.routeOptions.url !== `${app.prefix}/update`) return;
    const ctx = requireCtx(req);
    const profile = ownProfileBody(ctx.userId, req.body);
    if (!profile) return;
    await saveOwnProfile(app.deps.db, ctx, profile);
    return reply.send(ok(req, true));
  });
  mountResource(app, app.deps.db, userResource, schema.user, {
    ...userHooks(app.deps),
    listAliases: ['list'],
  });
}
