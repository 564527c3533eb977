import { userResource } from '@smart/contracts';
import type { FastifyInstance } from 'fastify';
import { mountResource } from '../../platform/crud/engine';
import { schema } from '../../platform/db';
import { userHooks } from './binding';
import { userRoutes } from './routes';

/**
 * The family's newer clients manage users under `/api/dfem-system/user/*` (list, page, detail, info,
 * submit, update, remove, grant, reset-password, unlock, update-password, import-user, export-user,
 * export-template, register-guest …): the same definition and binding mounted a second time, so permission
 * codes, tenant isolation, data scope and throttles are the same. `user/list` is `user/page`.
 * API scopes covering a `/api/dfem-user/…` path cover its alias too (platform/http/aliases.ts).
 */
export async function familyUserRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  mountResource(app, app.deps.db, userResource, schema.user, {
    ...userHooks(app.deps),
    listAliases: ['list'],
  });
}
