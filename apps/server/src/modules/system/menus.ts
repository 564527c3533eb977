import type { MenuNode } from '@smart/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { RequestContext } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { buildTree } from '../../platform/tree';
import { menuId } from '../../seed/menus';

const m = schema.menu;

/** Menus or buttons granted to the token's roles, optionally only those of one top menu. */
export async function grantedMenus(db: Db, ctx: RequestContext, category: 1 | 2, topMenuId?: string) {
  if (!ctx.roleIds.length) return [];
  const granted = db
    .selectDistinct({ menuId: schema.roleMenu.menuId })
    .from(schema.roleMenu)
    .where(inArray(schema.roleMenu.roleId, ctx.roleIds));
  const conditions = [notDeleted(m.isDeleted), eq(m.category, category), inArray(m.id, granted)];
  if (topMenuId) {
    // only a live top menu of the caller's own tenant groups the menu (another tenant's: nothing)
    const tm = schema.topMenu;
    conditions.push(
      inArray(
        m.id,
        db
          .select({ menuId: schema.topMenuSetting.menuId })
          .from(schema.topMenuSetting)
          .innerJoin(tm, eq(tm.id, schema.topMenuSetting.topMenuId))
          .where(
            and(
              eq(schema.topMenuSetting.topMenuId, topMenuId),
              eq(tm.tenantId, ctx.tenantId),
              notDeleted(tm.isDeleted),
            ),
          ),
      ),
    );
  }
  return db
    .select()
    .from(m)
    .where(and(...conditions))
    .orderBy(asc(m.sort), asc(m.id));
}

/** Menu rows as the console's tree, named in the caller's language. */
export function toMenuTree(rows: (typeof m.$inferSelect)[], lang: 'zh' | 'en' = 'zh'): MenuNode[] {
  const nodes = rows.map(
    (r): MenuNode => ({
      id: r.id,
      parentId: r.parentId,
      code: r.code,
      name: lang === 'en' && r.nameEn ? r.nameEn : r.name,
      alias: r.alias,
      path: r.path,
      source: r.source,
      sort: r.sort,
      category: r.category,
      action: r.action,
      isOpen: r.isOpen,
      keepAlive: r.keepAlive,
      children: [],
    }),
  );
  return buildTree(nodes) as MenuNode[];
}

/** Buttons grouped under the menus they belong to, as BladeX's `menu/buttons` answers. */
export async function buttonTree(db: Db, ctx: RequestContext, lang: 'zh' | 'en' = 'zh') {
  const buttons = await grantedMenus(db, ctx, 2);
  if (!buttons.length) return [];
  const parentIds = [...new Set(buttons.map((b) => b.parentId))];
  const parents = await db
    .select()
    .from(m)
    .where(and(inArray(m.id, parentIds), notDeleted(m.isDeleted)))
    .orderBy(asc(m.sort));
  return toMenuTree([...parents, ...buttons], lang)
    .filter((n) => n.children.length)
    .map(withFamilyCodes)
    .map(withoutEmptyChildren);
}

/**
 * The family's button codes where they differ from ours (its screens show a button only for its own
 * code): held exactly when ours is. The routes behind them check our codes, so nothing more is granted.
 */
export const FAMILY_BUTTON_CODES: Record<string, string> = {
  data_scope_edit: 'data_scope_setting',
  topmenu_grant: 'topmenu_setting',
  region_view: 'region_debug',
};

function withFamilyCodes(n: MenuNode): MenuNode {
  const extra = n.children
    .filter(
      (c) => FAMILY_BUTTON_CODES[c.code] && !n.children.some((o) => o.code === FAMILY_BUTTON_CODES[c.code]),
    )
    .map((c) => {
      const code = FAMILY_BUTTON_CODES[c.code];
      return { ...c, id: menuId(code), code, alias: code };
    });
  return extra.length ? { ...n, children: [...n.children, ...extra] } : n;
}

/**
 * A leaf button has no `children` at all: the family's clients take permission codes only from nodes
 * without `children` (SpringBlade never sends an empty array).
 */
function withoutEmptyChildren(n: MenuNode): MenuNode {
  if (!n.children?.length) {
    const { children: _none, ...leaf } = n;
    return leaf as MenuNode;
  }
  return { ...n, children: n.children.map(withoutEmptyChildren) };
}

/**
 * The menu and button answers, serialised, per role set, top menu and language. Every page load asks for
 * them and they change only when grants or menus do, which drops this cache (dropAccessCaches).
 */
const TTL_MS = 5_000;
const answers = new Map<string, { at: number; body: Promise<string> }>();

export function clearMenuCache() {
  answers.clear();
}

export function cachedAnswer(key: string, build: () => Promise<unknown>): Promise<string> {
  const hit = answers.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.body;
  if (answers.size > 10_000) answers.clear();
  const body = build().then((v) => JSON.stringify(v));
  answers.set(key, { at: Date.now(), body });
  body.catch(() => answers.delete(key));
  return body;
}
