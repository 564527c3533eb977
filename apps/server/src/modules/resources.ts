import { RESOURCES, resourceByKey } from '@smart/contracts';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { parseCustomScope } from '../platform/access/scope';
import { hashSecret } from '../platform/auth/password';
import { type MountedResource, mountResource, type ResourceHooks } from '../platform/crud/engine';
import { type Db, schema } from '../platform/db';
import { FieldInputError } from '../platform/http/errors';
import { villageBindings } from './manage/hooks';
import { dropAccessCaches } from './system/caches';
import { tenantHooks } from './system/tenant';

/** A custom data scope must name a field its resource whitelists (never SQL text). */
const dataScopeHooks: ResourceHooks = {
  beforeWrite(_ctx, record) {
    if (Number(record.scopeType) !== 5) return;
    const target = resourceByKey.get(String(record.resourceCode ?? ''));
    const allowed = new Set((target?.fields ?? []).filter((f) => !f.secret).map((f) => f.name));
    if (!parseCustomScope(record.scopeValue as string, allowed))
      throw new FieldInputError('scopeValue', {
        zh: '自定义条件须为 {"field":"字段","op":"eq|ne|in","value":"值"},字段须属于该资源',
        en: 'A custom condition is {"field":"…","op":"eq|ne|in","value":"…"} over a field of the resource',
      });
  },
  onChanged: dropAccessCaches,
};

/** Which table serves each resource of the registry, and the few hooks that differ from the pattern. */
export function resourceBindings(db: Db): Record<string, { table: PgTable; hooks?: ResourceHooks }> {
  return {
    param: { table: schema.param },
    report: { table: schema.reportFile },
    post: { table: schema.post },
    tenantPackage: { table: schema.tenantPackage },
    notice: { table: schema.notice },
    topMenu: { table: schema.topMenu },
    role: { table: schema.role, hooks: { onChanged: dropAccessCaches } },
    dept: { table: schema.dept },
    menu: { table: schema.menu, hooks: { onChanged: dropAccessCaches } },
    dataScope: { table: schema.scopeData, hooks: dataScopeHooks },
    apiScope: { table: schema.scopeApi, hooks: { onChanged: dropAccessCaches } },
    tenant: { table: schema.tenant, hooks: tenantHooks(db) },
    ...villageBindings(db),
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
}

/** Mounts every resource under /api/<service>; returns them by key (tests and bespoke routes use them). */
export async function resourceRoutes(app: FastifyInstance): Promise<Map<string, MountedResource>> {
  const mounted = new Map<string, MountedResource>();
  const bindings = resourceBindings(app.deps.db);
  const services = [...new Set(RESOURCES.map((r) => r.service))];
  for (const service of services) {
    await app.register(
      async (sub) => {
        for (const def of RESOURCES.filter((r) => r.service === service)) {
          const binding = bindings[def.key];
          if (!binding) throw new Error(`resource ${def.key} has no table binding`);
          mounted.set(def.key, mountResource(sub, app.deps.db, def, binding.table, binding.hooks));
        }
      },
      { prefix: `/api/${service}` },
    );
  }
  return mounted;
}
