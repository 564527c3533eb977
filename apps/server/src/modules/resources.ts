import { RESOURCES, type ResourceDef, resourceByKey } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app';
import { ADMIN_ROLE_ALIAS, grantedCodes } from '../platform/access/permissions';
import { assertManageableRoles, isAdministrator } from '../platform/access/privileges';
import { parseCustomScope } from '../platform/access/scope';
import type { RequestContext } from '../platform/auth/context';
import { hashSecret } from '../platform/auth/password';
import type { MountedResource, ResourceHooks } from '../platform/crud/binding';
import { mountResource } from '../platform/crud/engine';
import { tableOf } from '../platform/crud/model';
import { type Db, schema } from '../platform/db';
import { FieldInputError, forbidden } from '../platform/http/errors';
import { t } from '../platform/http/messages';
import { SERVER_AREAS } from './areas';
import { flowModelHooks } from './flow/models';
import { flowModel } from './flow/tables';
import { logBindings } from './log/binding';
import { dropAccessCaches } from './system/caches';
import { dictBindings } from './system/dict';
import { regionBindings } from './system/region';
import { tenantHooks } from './system/tenant';
import { userHooks } from './user/binding';

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
};

const isAdminAlias = (alias: unknown) => String(alias ?? '').toLowerCase() === ADMIN_ROLE_ALIAS;
const adminRoleFixed = () =>
  new FieldInputError('roleAlias', { zh: t('zh', 'adminRoleFixed'), en: t('en', 'adminRoleFixed') });

/**
 * Roles: what makes a role all-powerful is its alias, so the administrator role keeps it (no rename, no
 * removal) and no other role may take it; and a role with rights beyond the caller's is out of reach.
 */
function roleHooks(db: Db): ResourceHooks {
  const aliasOf = async (id: string) => {
    const [row] = await db
      .select({ alias: schema.role.roleAlias })
      .from(schema.role)
      .where(eq(schema.role.id, id))
      .limit(1);
    return row?.alias;
  };
  return {
    async beforeWrite(ctx, record, mode, id) {
      const wasAdmin = mode === 'update' && isAdminAlias(await aliasOf(id!));
      if (record.roleAlias !== undefined && isAdminAlias(record.roleAlias) !== wasAdmin)
        throw adminRoleFixed();
      if (mode === 'update') await assertManageableRoles(db, ctx, [id!]);
    },
    async beforeRemove(ctx, ids, tx) {
      const rows = await tx
        .select({ alias: schema.role.roleAlias })
        .from(schema.role)
        .where(inArray(schema.role.id, ids));
      if (rows.some((r) => isAdminAlias(r.alias))) throw adminRoleFixed();
      await assertManageableRoles(tx, ctx, ids);
    },
    onChanged: dropAccessCaches,
  };
}

/**
 * Menus: a menu's code is a permission. A non-administrator may not give a menu a code they do not hold
 * (renaming a granted menu's code to `user_role` would grant it).
 */
function menuHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record, mode, id) {
      // a new menu is held by no role but the administrator's, so its code grants nobody anything; a
      // changed code changes what every role holding the menu may do, so it must be one the caller holds
      if (mode === 'create' || record.code === undefined || (await isAdministrator(db, ctx))) return;
      const [row] = await db
        .select({ code: schema.menu.code })
        .from(schema.menu)
        .where(eq(schema.menu.id, id!))
        .limit(1);
      if (row?.code === record.code) return;
      if (!(await grantedCodes(db, ctx.roleIds)).has(String(record.code)))
        throw new FieldInputError('code', {
          zh: '不能使用自己没有的权限编号',
          en: 'You cannot use a permission code you do not hold',
        });
    },
    onChanged: dropAccessCaches,
  };
}

/**
 * Data and API scopes: editing a scope changes every role holding it. A non-administrator may not change or
 * remove a scope that one of their own roles holds (widening one's own data scope to "all").
 */
function scopeHooks(db: Db, category: 1 | 2, extra: ResourceHooks = {}): ResourceHooks {
  const refuseHeld = async (ctx: RequestContext, ids: string[], tx: Db) => {
    if (!ids.length || (await isAdministrator(tx, ctx))) return;
    const rs = schema.roleScope;
    const [held] = await tx
      .select({ id: rs.scopeId })
      .from(rs)
      .where(and(inArray(rs.roleId, ctx.roleIds), eq(rs.scopeCategory, category), inArray(rs.scopeId, ids)))
      .limit(1);
    if (held) throw forbidden('scopeHeld');
  };
  return {
    async beforeWrite(ctx, record, mode, id) {
      await extra.beforeWrite?.(ctx, record, mode, id);
      if (mode === 'update') await refuseHeld(ctx, [id!], db);
    },
    beforeRemove: (ctx, ids, tx) => refuseHeld(ctx, ids, tx),
    onChanged: dropAccessCaches,
  };
}

/**
 * The platform resources' tables (hand-made in platform/db/schema.ts) and hooks; every other resource is
 * served by its derived table, with its area's hooks (`SERVER_AREAS`).
 */
function platformBindings(
  deps: Pick<AppDeps, 'db' | 'kv' | 'sessions' | 'config'>,
): Record<string, { table: PgTable; hooks?: ResourceHooks }> {
  const { db } = deps;
  return {
    user: { table: schema.user, hooks: userHooks(deps) },
    flowModel: { table: flowModel, hooks: flowModelHooks },
    ...dictBindings(db),
    ...regionBindings(db),
    ...logBindings(deps),
    param: { table: schema.param },
    post: { table: schema.post },
    tenantPackage: { table: schema.tenantPackage },
    notice: { table: schema.notice },
    topMenu: { table: schema.topMenu },
    role: { table: schema.role, hooks: roleHooks(db) },
    dept: { table: schema.dept },
    menu: { table: schema.menu, hooks: menuHooks(db) },
    dataScope: { table: schema.scopeData, hooks: scopeHooks(db, 1, dataScopeHooks) },
    apiScope: { table: schema.scopeApi, hooks: scopeHooks(db, 2) },
    tenant: { table: schema.tenant, hooks: tenantHooks(db) },
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

/** A definition mounted beside the registry's, with its table (and hooks). */
export interface ExtraResource {
  def: ResourceDef;
  table: PgTable;
  hooks?: ResourceHooks;
}

/** Mounts every resource under /api/<service>; returns them by key (tests and bespoke routes use them). */
export async function resourceRoutes(
  app: FastifyInstance,
  extra: ExtraResource[] = [],
): Promise<Map<string, MountedResource>> {
  const mounted = new Map<string, MountedResource>();
  const bindings: Record<string, { table?: PgTable; hooks?: ResourceHooks }> = {
    ...platformBindings(app.deps),
    ...Object.fromEntries(extra.map((e) => [e.def.key, e])),
  };
  for (const area of SERVER_AREAS)
    for (const [key, hooks] of Object.entries(area.hooks?.(app.deps) ?? {})) bindings[key] = { hooks };
  const defs = [...RESOURCES, ...extra.map((e) => e.def)];
  const services = [...new Set(defs.map((r) => r.service))];
  for (const service of services) {
    await app.register(
      async (sub) => {
        for (const def of defs.filter((r) => r.service === service)) {
          const binding = bindings[def.key] ?? {};
          const table = binding.table ?? (def.table ? tableOf(def) : undefined);
          if (!table) throw new Error(`resource ${def.key} has neither a derived table nor a binding`);
          mounted.set(def.key, mountResource(sub, app.deps.db, def, table, binding.hooks));
        }
      },
      { prefix: `/api/${service}` },
    );
  }
  return mounted;
}
