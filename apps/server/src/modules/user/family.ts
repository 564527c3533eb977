import type { FastifyInstance } from 'fastify';
import { userAdminRoutes } from './admin';
import { userExcelRoutes } from './excel';
import { userRoutes } from './routes';

/**
 * The family's newer clients manage users under `/api/dfem-system/user/*` (list, page, detail, info,
 * submit, update, remove, grant, reset-password, unlock, update-password, import-user, export-user,
 * export-template, register-guest …): the very handlers of `/api/dfem-user/*`, mounted a second time, so
 * permission codes, tenant isolation, data scope and throttles are the same. `user/list` is `user/page`.
 * API scopes covering a `/api/dfem-user/…` path cover its alias too (platform/http/aliases.ts).
 */
export async function familyUserRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  await app.register(userAdminRoutes, { family: true });
  await app.register(userExcelRoutes);
}
