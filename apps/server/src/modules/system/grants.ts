import { DEFAULT_TENANT_ID } from '@smart/contracts';
import { and, asc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ROLE_ALIAS,
  grantedCodes,
  requirePermission,
  roleAliases,
} from '../../platform/access/permissions';
import {
  assertManageableRoles,
  isAdministrator,
  privilegesOf,
  privilegesOfGrant,
  within,
} from '../../platform/access/privileges';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { readableRows } from '../../platform/crud/refs';
import { type Db, schema } from '../../platform/db';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { csvIds, idList, idString } from '../../platform/http/ids';
import { t } from '../../platform/http/messages';
import { containsPattern, notDeleted } from '../../platform/sql';
import { buildTree } from '../../platform/tree';
import { dropAccessCaches } from './caches';
import { familyTopMenuIcon } from './family-client';

/**
 * Grants (role → menus, data scopes, API scopes; top menu → menus), the trees the grant dialogs show, and
 * the small selects (dept, role, post) of the forms and of the switch dialog.
 */

interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  children?: TreeNode[];
}
const node = (id: string, parentId: string, title: string): TreeNode => ({
  id,
  parentId,
  title,
  key: id,
  value: id,
});

/** Menus (and buttons) a caller may hand out: all for an administrator, else the ones it holds itself. */
async function grantableMenuIds(db: Db, ctx: RequestContext): Promise<Set<string> | 'all'> {
  if ((await roleAliases(db, ctx.roleIds)).includes(ADMIN_ROLE_ALIAS)) return 'all';
  const codes = await grantedCodes(db, ctx.roleIds);
  const rows = await db
    .select({ id: schema.menu.id })
    .from(schema.menu)
    .where(and(inArray(schema.menu.code, [...codes, '']), notDeleted(schema.menu.isDeleted)));
  return new Set(rows.map((r) => r.id));
}

/** Roles of the caller's tenant among the given ids (all must be). */
async function ownRoles(db: Db, ctx: RequestContext, roleIds: string[]) {
  if (!roleIds.length) return [];
  const rows = await db
    .select({ id: schema.role.id })
    .from(schema.role)
    .where(
      and(
        inArray(schema.role.id, roleIds),
        eq(schema.role.tenantId, ctx.tenantId),
        notDeleted(schema.role.isDeleted),
      ),
    );
  if (rows.length !== new Set(roleIds).size) throw notFound();
  return rows.map((r) => r.id);
}

/**
 * A lazy tree's `parentId`: absent or empty means the root. The family's search sends `parentId=` with its
 * filters; then the filters are searched at every level (as SpringBlade does), else the root is answered.
 */
const parentIdParam = z.preprocess(
  (v) => (v === '' || v === undefined ? '' : v),
  z.union([z.literal(''), idString]),
);

/**
 * Which of these ids have live children in a tree table (same `parentId`/`isDeleted` columns): one grouped
 * query for the whole answer, never one per node.
 */
async function parentsAmong(
  db: Db,
  table: typeof schema.menu | typeof schema.dept,
  ids: string[],
  where: SQL[],
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const t = table as typeof schema.menu;
  const rows = await db
    .select({ parentId: t.parentId })
    .from(t)
    .where(and(inArray(t.parentId, ids), notDeleted(t.isDeleted), ...where))
    .groupBy(t.parentId);
  return new Set(rows.map((r) => r.parentId));
}

function menuTreeOf(rows: { id: string; parentId: string; name: string }[]) {
  return buildTree(rows.map((r) => node(r.id, r.parentId, r.name)));
}

export async function registerGrantRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;
  const m = schema.menu;

  /** A menu's name in the caller's language. */
  const menuName = (lang: 'zh' | 'en') =>
    lang === 'en' ? sql<string>`coalesce(${m.nameEn}, ${m.name})` : m.name;

  const visibleMenus = async (ctx: RequestContext, lang: 'zh' | 'en', category?: 1) => {
    const grantable = await grantableMenuIds(db, ctx);
    const where: SQL[] = [notDeleted(m.isDeleted)];
    if (category) where.push(eq(m.category, category));
    const rows = await db
      .select({ id: m.id, parentId: m.parentId, name: menuName(lang) })
      .from(m)
      .where(and(...where))
      .orderBy(asc(m.sort), asc(m.id));
    return grantable === 'all' ? rows : rows.filter((r) => grantable.has(r.id));
  };

  const scopeTree = async (kind: 'data' | 'api', lang: 'zh' | 'en') => {
    const table = kind === 'data' ? schema.scopeData : schema.scopeApi;
    const scopes = await db
      .select({ id: table.id, menuId: table.menuId, name: table.scopeName })
      .from(table)
      .where(notDeleted(table.isDeleted))
      .orderBy(asc(table.id));
    if (!scopes.length) return [];
    const menus = await db
      .select({ id: m.id, parentId: m.parentId, name: menuName(lang) })
      .from(m)
      .where(and(inArray(m.id, [...new Set(scopes.map((s) => s.menuId))]), notDeleted(m.isDeleted)));
    // scopes hang under their menu; the menu node itself is a heading (its id prefixed so it is not a scope)
    return menus.map((menu) => ({
      ...node(`menu-${menu.id}`, '0', menu.name),
      children: scopes.filter((s) => s.menuId === menu.id).map((s) => node(s.id, `menu-${menu.id}`, s.name)),
    }));
  };

  /** The three trees of the role grant dialog. */
  app.get('/menu/grant-tree', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'role_grant');
    return ok(req, {
      menu: menuTreeOf(await visibleMenus(ctx, req.lang)),
      dataScope: ctx.tenantId === DEFAULT_TENANT_ID ? await scopeTree('data', req.lang) : [],
      apiScope: ctx.tenantId === DEFAULT_TENANT_ID ? await scopeTree('api', req.lang) : [],
    });
  });

  app.get('/menu/role-tree-keys', { schema: { querystring: z.object({ roleIds: csvIds }) } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'role_grant');
    const roleIds = await ownRoles(db, ctx, req.query.roleIds);
    if (!roleIds.length) return ok(req, { menu: [], dataScope: [], apiScope: [] });
    const menus = await db
      .selectDistinct({ id: schema.roleMenu.menuId })
      .from(schema.roleMenu)
      .where(inArray(schema.roleMenu.roleId, roleIds));
    const scopes = await db
      .selectDistinct({ id: schema.roleScope.scopeId, category: schema.roleScope.scopeCategory })
      .from(schema.roleScope)
      .where(inArray(schema.roleScope.roleId, roleIds));
    return ok(req, {
      menu: menus.map((r) => r.id),
      dataScope: scopes.filter((s) => s.category === 1).map((s) => s.id),
      apiScope: scopes.filter((s) => s.category === 2).map((s) => s.id),
    });
  });

  /** Replaces the grants of the roles: only roles of the caller's tenant, only menus the caller may hand out. */
  app.post(
    '/role/grant',
    {
      schema: {
        body: z.object({
          roleIds: idList.min(1),
          menuIds: idList.default([]),
          dataScopeIds: idList.default([]),
          apiScopeIds: idList.default([]),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'role_grant');
      const { menuIds, dataScopeIds, apiScopeIds } = req.body;
      const roleIds = await ownRoles(db, ctx, req.body.roleIds);
      const grantable = await grantableMenuIds(db, ctx);
      const menus = [...new Set(menuIds)];
      if (grantable !== 'all' && menus.some((id) => !grantable.has(id)))
        throw new FieldInputError('menuIds', {
          zh: '不能授予自己没有的菜单',
          en: 'You cannot grant menus you do not hold',
        });
      if (ctx.tenantId !== DEFAULT_TENANT_ID && (dataScopeIds.length || apiScopeIds.length))
        throw new FieldInputError('dataScopeIds', {
          zh: '仅管理组可授予数据与接口权限',
          en: 'Only the platform tenant grants scopes',
        });
      // no escalation: the roles must be within the caller's rights now, and stay within them after
      if (!(await isAdministrator(db, ctx))) {
        await assertManageableRoles(db, ctx, roleIds);
        const after = await privilegesOfGrant(db, { menuIds: menus, apiScopeIds, dataScopeIds });
        if (!within(after, await privilegesOf(db, ctx.roleIds)))
          throw new FieldInputError('menuIds', {
            zh: t('zh', 'roleBeyondOwn'),
            en: t('en', 'roleBeyondOwn'),
          });
      }
      await db.transaction(async (tx) => {
        await tx.delete(schema.roleMenu).where(inArray(schema.roleMenu.roleId, roleIds));
        await tx.delete(schema.roleScope).where(inArray(schema.roleScope.roleId, roleIds));
        const roleMenus = roleIds.flatMap((roleId) => menus.map((menuId) => ({ roleId, menuId })));
        if (roleMenus.length) await tx.insert(schema.roleMenu).values(roleMenus);
        const scopes = roleIds.flatMap((roleId) => [
          ...[...new Set(dataScopeIds)].map((scopeId) => ({ roleId, scopeId, scopeCategory: 1 })),
          ...[...new Set(apiScopeIds)].map((scopeId) => ({ roleId, scopeId, scopeCategory: 2 })),
        ]);
        if (scopes.length) await tx.insert(schema.roleScope).values(scopes);
      });
      dropAccessCaches();
      return ok(req, true);
    },
  );

  /** Top menus: the menu tree to group, the current grouping, and the grant. */
  app.get('/menu/grant-top-tree', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'topmenu_grant');
    return ok(req, { menu: menuTreeOf(await visibleMenus(ctx, req.lang, 1)) });
  });

  app.get(
    '/menu/top-tree-keys',
    { schema: { querystring: z.object({ topMenuIds: csvIds }) } },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'topmenu_grant');
      const ids = await ownTopMenus(ctx, req.query.topMenuIds);
      if (!ids.length) return ok(req, { menu: [] });
      const rows = await db
        .selectDistinct({ id: schema.topMenuSetting.menuId })
        .from(schema.topMenuSetting)
        .where(inArray(schema.topMenuSetting.topMenuId, ids));
      return ok(req, { menu: rows.map((r) => r.id) });
    },
  );

  async function ownTopMenus(ctx: RequestContext, ids: string[]) {
    if (!ids.length) return [];
    const tm = schema.topMenu;
    const rows = await db
      .select({ id: tm.id })
      .from(tm)
      .where(and(inArray(tm.id, ids), eq(tm.tenantId, ctx.tenantId), notDeleted(tm.isDeleted)));
    if (rows.length !== new Set(ids).size) throw notFound();
    return rows.map((r) => r.id);
  }

  app.post(
    '/topmenu/grant',
    { schema: { body: z.object({ topMenuIds: idList.min(1), menuIds: idList.default([]) }) } },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'topmenu_grant');
      const ids = await ownTopMenus(ctx, req.body.topMenuIds);
      const menus = [...new Set(req.body.menuIds)];
      await db.transaction(async (tx) => {
        await tx.delete(schema.topMenuSetting).where(inArray(schema.topMenuSetting.topMenuId, ids));
        const rows = ids.flatMap((topMenuId) => menus.map((menuId) => ({ topMenuId, menuId })));
        if (rows.length) await tx.insert(schema.topMenuSetting).values(rows);
      });
      return ok(req, true);
    },
  );

  /** The top bar's top menus of the caller's tenant. */
  app.get('/menu/top-menu', async (req) => {
    const ctx = requireCtx(req);
    const tm = schema.topMenu;
    const rows = await db
      .select({ id: tm.id, code: tm.code, name: tm.name, source: tm.source, sort: tm.sort })
      .from(tm)
      .where(and(eq(tm.tenantId, ctx.tenantId), notDeleted(tm.isDeleted)))
      .orderBy(asc(tm.sort), asc(tm.id));
    // the family's top bar draws `source` as a class: an icon it can draw (family-client.ts)
    return ok(
      req,
      ctx.familyClient ? rows.map((r) => ({ ...r, source: familyTopMenuIcon(r.source) })) : rows,
    );
  });

  /** Lazy menu lists for the menu screen: the children of one node, each saying whether it has children. */
  const lazyMenus = (category?: 1) =>
    app.get(
      category ? '/menu/lazy-menu-list' : '/menu/lazy-list',
      {
        schema: {
          querystring: z.object({
            parentId: parentIdParam,
            name: z.string().max(64).optional(),
            code: z.string().max(64).optional(),
            alias: z.string().max(64).optional(),
          }),
        },
      },
      async (req) => {
        requireCtx(req);
        await requirePermission(db, req, 'menu');
        const { parentId, name, code, alias } = req.query;
        const searching = parentId === '' && Boolean(name || code || alias);
        const where: SQL[] = [notDeleted(m.isDeleted)];
        if (!searching) where.push(eq(m.parentId, parentId || '0'));
        if (category) where.push(eq(m.category, category));
        if (req.query.name) where.push(ilike(m.name, containsPattern(req.query.name)));
        if (req.query.code) where.push(ilike(m.code, containsPattern(req.query.code)));
        if (req.query.alias) where.push(ilike(m.alias, containsPattern(req.query.alias)));
        const rows = await db
          .select({
            id: m.id,
            parentId: m.parentId,
            code: m.code,
            name: m.name,
            alias: m.alias,
            path: m.path,
            source: m.source,
            sort: m.sort,
            category: m.category,
            action: m.action,
            isOpen: m.isOpen,
          })
          .from(m)
          .where(and(...where))
          .orderBy(asc(m.sort), asc(m.id));
        // which of them have children: one grouped query over the answered ids
        const parents = await parentsAmong(
          db,
          m,
          rows.map((r) => r.id),
          category ? [eq(m.category, category)] : [],
        );
        return ok(
          req,
          rows.map((r) => ({ ...r, hasChildren: parents.has(r.id) })),
        );
      },
    );
  lazyMenus();
  lazyMenus(1);

  /** Menus only (no buttons), as a tree. */
  app.get('/menu/menu-list', async (req) => {
    requireCtx(req);
    await requirePermission(db, req, 'menu');
    const rows = await db
      .select()
      .from(m)
      .where(and(eq(m.category, 1), notDeleted(m.isDeleted)))
      .orderBy(asc(m.sort), asc(m.id));
    return ok(req, buildTree(rows.map((r) => ({ ...r, keepAlive: Number(r.keepAlive) }))));
  });

  /** Depts, roles and posts for selects: of one user (the switch dialog) or of the whole tenant. */
  const select = (path: string, load: (ctx: RequestContext, userId?: string) => Promise<unknown[]>) =>
    app.get(
      path,
      { schema: { querystring: z.object({ userId: idString.optional(), tenantId: z.string().optional() }) } },
      async (req) => {
        const ctx = requireCtx(req);
        const userId = req.query.userId;
        // one's own (the switch dialog), or a user the caller may see under its data scope over users
        if (userId && userId !== ctx.userId) {
          const [u] = await db
            .select({ id: schema.user.id })
            .from(schema.user)
            .where(and(eq(schema.user.id, userId), await readableRows('user', ctx)))
            .limit(1);
          if (!u) throw notFound();
        }
        return ok(req, await load(ctx, userId));
      },
    );

  select('/dept/select', async (ctx, userId) => {
    const d = schema.dept;
    const where: SQL[] = [eq(d.tenantId, ctx.tenantId), notDeleted(d.isDeleted)];
    if (userId)
      where.push(
        inArray(
          d.id,
          db
            .select({ id: schema.userDept.deptId })
            .from(schema.userDept)
            .where(eq(schema.userDept.userId, userId)),
        ),
      );
    return db
      .select({ id: d.id, deptName: d.deptName, parentId: d.parentId })
      .from(d)
      .where(and(...where))
      .orderBy(asc(d.sort), asc(d.id));
  });
  select('/role/select', async (ctx, userId) => {
    const r = schema.role;
    const where: SQL[] = [eq(r.tenantId, ctx.tenantId), notDeleted(r.isDeleted)];
    if (userId)
      where.push(
        inArray(
          r.id,
          db
            .select({ id: schema.userRole.roleId })
            .from(schema.userRole)
            .where(eq(schema.userRole.userId, userId)),
        ),
      );
    return db
      .select({ id: r.id, roleName: r.roleName, roleAlias: r.roleAlias, parentId: r.parentId })
      .from(r)
      .where(and(...where))
      .orderBy(asc(r.sort), asc(r.id));
  });
  /** Posts as a (flat) picker tree, like the tree resources answer. */
  app.get('/post/tree', async (req) => {
    const ctx = requireCtx(req);
    const p = schema.post;
    const rows = await db
      .select({ id: p.id, name: p.postName })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), notDeleted(p.isDeleted)))
      .orderBy(asc(p.sort), asc(p.id));
    return ok(
      req,
      rows.map((r) => node(r.id, '0', r.name)),
    );
  });
  select('/post/select', async (ctx) => {
    const p = schema.post;
    return db
      .select({ id: p.id, postName: p.postName, postCode: p.postCode, category: p.category })
      .from(p)
      .where(and(eq(p.tenantId, ctx.tenantId), notDeleted(p.isDeleted)))
      .orderBy(asc(p.sort), asc(p.id));
  });

  /** The role tree of the tenant a role belongs to (the caller's own tenant only). */
  app.get('/role/tree-by-id', { schema: { querystring: z.object({ roleId: idString }) } }, async (req) => {
    const ctx = requireCtx(req);
    await ownRoles(db, ctx, [req.query.roleId]);
    const r = schema.role;
    const rows = await db
      .select({ id: r.id, parentId: r.parentId, name: r.roleName })
      .from(r)
      .where(and(eq(r.tenantId, ctx.tenantId), notDeleted(r.isDeleted)))
      .orderBy(asc(r.sort), asc(r.id));
    return ok(req, menuTreeOf(rows));
  });

  /** Lazy dept lists: the children of one dept, each saying whether it has children. */
  for (const path of ['/dept/lazy-list', '/dept/lazy-tree']) {
    app.get(path, { schema: { querystring: z.object({ parentId: parentIdParam }) } }, async (req) => {
      const ctx = requireCtx(req);
      if (path.endsWith('list')) await requirePermission(db, req, 'dept');
      const d = schema.dept;
      const rows = await db
        .select({
          id: d.id,
          parentId: d.parentId,
          deptName: d.deptName,
          fullName: d.fullName,
          deptCategory: d.deptCategory,
          sort: d.sort,
          remark: d.remark,
        })
        .from(d)
        .where(
          and(
            eq(d.tenantId, ctx.tenantId),
            eq(d.parentId, req.query.parentId || '0'),
            notDeleted(d.isDeleted),
          ),
        )
        .orderBy(asc(d.sort), asc(d.id));
      const parents = await parentsAmong(
        db,
        d,
        rows.map((r) => r.id),
        [eq(d.tenantId, ctx.tenantId)],
      );
      return ok(
        req,
        path.endsWith('tree')
          ? rows.map((r) => ({ ...node(r.id, r.parentId, r.deptName), hasChildren: parents.has(r.id) }))
          : rows.map((r) => ({ ...r, hasChildren: parents.has(r.id) })),
      );
    });
  }
}
