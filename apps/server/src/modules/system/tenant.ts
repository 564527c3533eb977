import { randomInt } from 'node:crypto';
import { DEFAULT_TENANT_ID, isDate, isDateTime } from '@smart/contracts';
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { isAdministrator } from '../../platform/access/privileges';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { generatePassword, hashSecret, md5Hex } from '../../platform/auth/password';
import type { ResourceHooks } from '../../platform/crud/binding';
import { mountedResource } from '../../platform/crud/refs';
import { transaction } from '../../platform/crud/write';
import { type Db, schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { badRequest, FieldInputError, forbidden, notFound } from '../../platform/http/errors';
import { csvIdText, idString } from '../../platform/http/ids';
import { notDeleted } from '../../platform/sql';
import { dropAccessCaches } from './caches';

const t = schema.tenant;

/** Menu ids a package grants; without a package, every menu except the platform-only ones. */
async function packageMenus(db: Db, packageId: string | null | undefined): Promise<string[]> {
  if (packageId) {
    const [pkg] = await db
      .select({ menuId: schema.tenantPackage.menuId })
      .from(schema.tenantPackage)
      .where(and(eq(schema.tenantPackage.id, packageId), notDeleted(schema.tenantPackage.isDeleted)))
      .limit(1);
    if (!pkg) throw new FieldInputError('packageId', { zh: '产品包不存在', en: 'No such package' });
    return pkg.menuId.split(',').filter(Boolean);
  }
  const rows = await db
    .select({ id: schema.menu.id })
    .from(schema.menu)
    .where(notDeleted(schema.menu.isDeleted));
  return rows.map((r) => r.id);
}

/** Replaces the menus of a tenant's administrator role with those of its package. */
async function grantPackage(db: Db, tenantId: string, packageId: string | null | undefined) {
  const menuIds = await packageMenus(db, packageId);
  const roles = await db
    .select({ id: schema.role.id })
    .from(schema.role)
    .where(
      and(
        eq(schema.role.tenantId, tenantId),
        eq(schema.role.roleAlias, 'administrator'),
        notDeleted(schema.role.isDeleted),
      ),
    );
  for (const r of roles) {
    await db.delete(schema.roleMenu).where(eq(schema.roleMenu.roleId, r.id));
    if (menuIds.length)
      await db.insert(schema.roleMenu).values(menuIds.map((menuId) => ({ roleId: r.id, menuId })));
  }
  dropAccessCaches();
}

async function newTenantId(db: Db): Promise<string> {
  for (;;) {
    const candidate = String(randomInt(100000, 1000000));
    const [hit] = await db.select({ id: t.id }).from(t).where(eq(t.tenantId, candidate)).limit(1);
    if (!hit) return candidate;
  }
}

export function tenantHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(_ctx, record, mode) {
      if (mode === 'update')
        delete record.tenantId; // a tenant's id never changes
      else if (!record.tenantId) record.tenantId = await newTenantId(db);
    },
    /**
     * A new tenant gets a root dept, an administrator role holding its package's menus, and an admin
     * account with a random password, answered once to the creator (never a default anyone can guess).
     */
    async afterCreate(ctx: RequestContext, row, tx) {
      const tenantId = String(row.tenantId);
      const tenantName = String(row.tenantName);
      const [dept] = await tx
        .insert(schema.dept)
        .values({
          tenantId,
          deptName: tenantName.slice(0, 45),
          fullName: tenantName.slice(0, 45),
          createUser: ctx.userId,
        })
        .returning({ id: schema.dept.id });
      const [role] = await tx
        .insert(schema.role)
        .values({
          tenantId,
          roleName: '管理员',
          nameEn: 'Administrator',
          roleAlias: 'administrator',
          createUser: ctx.userId,
        })
        .returning({ id: schema.role.id });
      const password = generatePassword();
      const [admin] = await tx
        .insert(schema.user)
        .values({
          tenantId,
          account: 'admin',
          password: await hashSecret(md5Hex(password)),
          name: '管理员',
          realName: '管理员',
          mustChangePassword: true,
          createUser: ctx.userId,
        })
        .returning({ id: schema.user.id });
      await tx.insert(schema.userRole).values({ userId: admin.id, roleId: role.id });
      await tx.insert(schema.userDept).values({ userId: admin.id, deptId: dept.id });
      await grantPackage(tx, tenantId, row.packageId as string | null);
      return { adminAccount: 'admin', adminPassword: password };
    },
    async beforeRemove(_ctx, ids, tx) {
      const rows = await tx.select({ tenantId: t.tenantId }).from(t).where(inArray(t.id, ids));
      if (rows.some((r) => r.tenantId === DEFAULT_TENANT_ID))
        throw new FieldInputError('ids', {
          zh: '管理组租户不能删除',
          en: 'The platform tenant cannot be removed',
        });
    },
  };
}

/** The live tenant row of a tenant id. */
export async function findTenantRow(db: Db, tenantId: string) {
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.tenantId, tenantId), notDeleted(t.isDeleted)))
    .limit(1);
  return row;
}

/**
 * Refuses a new account when the tenant's quota (accountNumber, -1 unlimited) is used up. Registrations
 * awaiting approval (status 0) do not count: they count when approved.
 */
export async function checkAccountQuota(db: Db, tenantId: string, adding = 1) {
  const [tenant] = await db
    .select({ accountNumber: t.accountNumber })
    .from(t)
    .where(eq(t.tenantId, tenantId))
    .limit(1);
  if (!tenant || tenant.accountNumber < 0) return;
  const [{ n }] = await db
    .select({ n: count() })
    .from(schema.user)
    .where(
      and(eq(schema.user.tenantId, tenantId), notDeleted(schema.user.isDeleted), ne(schema.user.status, 0)),
    );
  if (Number(n) + adding > tenant.accountNumber)
    throw new FieldInputError('account', {
      zh: `账号额度已用完(上限 ${tenant.accountNumber} 个)`,
      en: `The account quota is used up (at most ${tenant.accountNumber})`,
    });
}

/** The row of a tenant by its six-digit id, within the caller's constraint on tenants (else not found). */
async function tenantRowId(tx: Db, ctx: RequestContext, tenantId: string): Promise<string> {
  const [row] = await tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.tenantId, tenantId), await mountedResource('tenant').constraint(ctx, tx)))
    .limit(1);
  if (!row) throw notFound();
  return row.id;
}

/** Tenant settings beyond the list page: quota and expiry, data source, package. Platform tenant only. */
export async function registerTenantRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;
  const platformOnly = async (req: Parameters<typeof requireCtx>[0], code: string) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, code);
    if (ctx.tenantId !== DEFAULT_TENANT_ID) throw forbidden();
    return ctx;
  };

  app.post(
    '/tenant/setting',
    {
      schema: {
        querystring: z.object({
          ids: csvIdText,
          accountNumber: z.coerce.number().int().min(-1).max(1_000_000).optional(),
          expireTime: z
            .string()
            .refine((v) => isDate(v) || isDateTime(v))
            .or(z.literal(''))
            .optional(),
        }),
      },
    },
    async (req) => {
      const ctx = await platformOnly(req, 'tenant_edit');
      const { ids, accountNumber, expireTime } = req.query;
      const set: Record<string, unknown> = {};
      if (accountNumber !== undefined) set.accountNumber = accountNumber;
      // a bare date expires at the end of that day (a wall-clock time in the server's time zone)
      if (expireTime !== undefined)
        set.expireTime = expireTime.length === 10 ? `${expireTime} 23:59:59` : expireTime || null;
      // every tenant named, through the tenants' write path, or none
      await transaction(db, async (tx) => {
        for (const id of new Set(ids.split(','))) await mountedResource('tenant').patch(ctx, tx, id, set);
      });
      return ok(req, true);
    },
  );

  app.post(
    '/tenant/datasource',
    {
      schema: {
        querystring: z.object({
          tenantId: z.string().regex(/^\d{6}$/),
          datasourceId: idString.or(z.literal('')),
        }),
      },
    },
    async (req) => {
      const ctx = await platformOnly(req, 'tenant_edit');
      await transaction(db, async (tx) => {
        const id = await tenantRowId(tx, ctx, req.query.tenantId);
        await mountedResource('tenant').patch(ctx, tx, id, { datasourceId: req.query.datasourceId || null });
      });
      return ok(req, true);
    },
  );

  /**
   * The family's tenant picker (user and dept forms): `[{ id, tenantId, tenantName }]`. The platform
   * administrator, who may pick another tenant's depts and roles (access/tenant-pick.ts), sees every live
   * tenant; anyone else only their own.
   */
  app.get('/tenant/select', async (req) => {
    const ctx = requireCtx(req);
    const all = ctx.tenantId === DEFAULT_TENANT_ID && (await isAdministrator(db, ctx));
    const rows = await db
      .select({ id: t.id, tenantId: t.tenantId, tenantName: t.tenantName })
      .from(t)
      .where(and(notDeleted(t.isDeleted), ...(all ? [] : [eq(t.tenantId, ctx.tenantId)])))
      .orderBy(t.tenantId)
      .limit(5000);
    return ok(req, rows);
  });

  app.get(
    '/tenant/package-detail',
    { schema: { querystring: z.object({ tenantId: z.string().regex(/^\d{6}$/) }) } },
    async (req) => {
      await platformOnly(req, 'tenant');
      const [row] = await db
        .select({ packageId: t.packageId })
        .from(t)
        .where(and(eq(t.tenantId, req.query.tenantId), notDeleted(t.isDeleted)))
        .limit(1);
      if (!row) throw notFound();
      if (!row.packageId) return ok(req, null);
      const [pkg] = await db
        .select()
        .from(schema.tenantPackage)
        .where(and(eq(schema.tenantPackage.id, row.packageId), notDeleted(schema.tenantPackage.isDeleted)))
        .limit(1);
      return ok(
        req,
        pkg
          ? { id: pkg.id, packageName: pkg.packageName, menuId: pkg.menuId, remark: pkg.remark ?? '' }
          : null,
      );
    },
  );

  app.post(
    '/tenant/package-setting',
    {
      schema: {
        querystring: z.object({
          tenantId: z.string().regex(/^\d{6}$/),
          packageId: idString.or(z.literal('')).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = await platformOnly(req, 'tenant_edit');
      const { tenantId, packageId } = req.query;
      if (tenantId === DEFAULT_TENANT_ID) throw badRequest('fieldInvalid', { field: 'tenantId' });
      await transaction(db, async (tx) => {
        const id = await tenantRowId(tx, ctx, tenantId);
        await mountedResource('tenant').patch(ctx, tx, id, { packageId: packageId || null });
        await grantPackage(tx, tenantId, packageId || null);
      });
      return ok(req, true);
    },
  );
}
