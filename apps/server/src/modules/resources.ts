import { RESOURCES } from '@smart/contracts';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { hashSecret } from '../platform/auth/password';
import { type MountedResource, mountResource, type ResourceHooks } from '../platform/crud/engine';
import { schema } from '../platform/db';
import { FieldInputError } from '../platform/http/errors';

/** Which table serves each resource of the registry, and the few hooks that differ from the pattern. */
export const RESOURCE_BINDINGS: Record<string, { table: PgTable; hooks?: ResourceHooks }> = {
  param: { table: schema.param },
  post: { table: schema.post },
  tenantPackage: { table: schema.tenantPackage },
  notice: { table: schema.notice },
  topMenu: { table: schema.topMenu },
  client: {
    table: schema.client,
    hooks: {
      async beforeWrite(_ctx, record, mode) {
        if (record.clientSecret) record.clientSecret = await hashSecret(String(record.clientSecret));
        else if (mode === 'create')
          throw new FieldInputError('clientSecret', {
            zh: '请输入应用密钥',
            en: 'please enter client secret',
          });
      },
    },
  },
};

/** Mounts every resource under /api/<service>; returns them by key (tests and bespoke routes use them). */
export async function resourceRoutes(app: FastifyInstance): Promise<Map<string, MountedResource>> {
  const mounted = new Map<string, MountedResource>();
  const services = [...new Set(RESOURCES.map((r) => r.service))];
  for (const service of services) {
    await app.register(
      async (sub) => {
        for (const def of RESOURCES.filter((r) => r.service === service)) {
          const binding = RESOURCE_BINDINGS[def.key];
          if (!binding) throw new Error(`resource ${def.key} has no table binding`);
          mounted.set(def.key, mountResource(sub, app.deps.db, def, binding.table, binding.hooks));
        }
      },
      { prefix: `/api/${service}` },
    );
  }
  return mounted;
}
