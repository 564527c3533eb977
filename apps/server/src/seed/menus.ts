import { createHash } from 'node:crypto';
import { MENU_TREE, type MenuSeed } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { type Db, schema } from '../platform/db';
import { SEED } from './system';

/** The tree itself is data of the contracts (both ends read it); here it becomes rows. */
export { MENU_TREE, type MenuSeed };

/** the platform screens' buttons; an area names its own (`AreaDef.buttons`) */
const BUTTON_NAMES: Record<string, [zh: string, en: string]> = {
  add: ['新增', 'Add'],
  edit: ['修改', 'Edit'],
  delete: ['删除', 'Delete'],
  view: ['查看', 'View'],
  import: ['导入', 'Import'],
  export: ['导出', 'Export'],
  grant: ['权限设置', 'Permissions'],
  role: ['角色配置', 'Roles'],
  reset: ['密码重置', 'Reset password'],
  unlock: ['账号解封', 'Unlock'],
  platform: ['平台配置', 'Platform'],
  deploy: ['部署', 'Deploy'],
  state: ['变更状态', 'Change state'],
  upload: ['上传部署', 'Upload'],
  message: ['发送消息', 'Send message'],
  signal: ['广播信号', 'Broadcast signal'],
};
const BUTTON_ALIAS: Record<string, string> = { add: 'add', edit: 'edit', delete: 'delete', view: 'view' };

export function menuId(code: string): string {
  const digits = BigInt(`0x${createHash('sha1').update(`menu:${code}`).digest('hex').slice(0, 15)}`)
    .toString()
    .padStart(18, '0');
  return `17${digits.slice(0, 17)}`;
}

type MenuRow = typeof schema.menu.$inferInsert;

export function flattenMenus(tree: MenuSeed[], parentId = '0'): MenuRow[] {
  const rows: MenuRow[] = [];
  tree.forEach((m, i) => {
    const id = menuId(m.code);
    rows.push({
      id,
      parentId,
      code: m.code,
      name: m.name,
      nameEn: m.nameEn,
      alias: m.alias ?? 'menu',
      path: m.path,
      source: m.source ?? '',
      sort: i + 1,
      category: 1,
      keepAlive: m.keepAlive ?? true,
    });
    (m.buttons ?? []).forEach((button, j) => {
      const b = typeof button === 'string' ? button : button.code;
      const [zh, en] =
        typeof button === 'string' ? (BUTTON_NAMES[b] ?? [b, b]) : [button.label.zh, button.label.en];
      const code = `${m.code}_${b}`;
      rows.push({
        id: menuId(code),
        parentId: id,
        code,
        name: zh,
        nameEn: en,
        alias: BUTTON_ALIAS[b] ?? b,
        path: `${m.path}/${b}`,
        sort: j + 1,
        category: 2,
        action: b === 'add' ? 1 : 2,
      });
    });
    if (m.children) rows.push(...flattenMenus(m.children, id));
  });
  return rows;
}

/**
 * Icons an earlier seed gave and the tree has since changed (three groups shared one shield): a menu that
 * still has the old one takes the new one at the next start; one an administrator chose is kept.
 */
const RETIRED_ICONS: { code: string; was: string }[] = [
  { code: 'authority', was: 'SafetyOutlined' },
  { code: 'relief', was: 'SafetyOutlined' },
  { code: 'seedling', was: 'ExperimentOutlined' },
  { code: 'industry_breeding', was: 'BugOutlined' },
];

/**
 * Runs at every start: inserts menus new since the last start and grants only those to the administrator;
 * fills English names that are still missing and replaces retired icons (an administrator's edits are kept).
 */
export async function syncMenus(db: Db) {
  const rows = flattenMenus(MENU_TREE);
  const added = await db
    .insert(schema.menu)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: schema.menu.id });
  if (added.length) {
    await db
      .insert(schema.roleMenu)
      .values(added.map((a) => ({ roleId: SEED.adminRoleId, menuId: a.id })))
      .onConflictDoNothing();
  }
  const names = JSON.stringify(rows.map((r) => ({ id: r.id, en: r.nameEn ?? null })));
  await db.execute(
    sql`update blade_menu m set name_en = v.en from json_to_recordset(${names}::json) as v(id bigint, en text)
        where m.id = v.id and m.name_en is null and v.en is not null`,
  );
  const icons = JSON.stringify(
    RETIRED_ICONS.map(({ code, was }) => ({
      id: menuId(code),
      was,
      now: rows.find((r) => r.code === code)?.source ?? was,
    })),
  );
  await db.execute(
    sql`update blade_menu m set source = v.now from json_to_recordset(${icons}::json) as v(id bigint, was text, now text)
        where m.id = v.id and m.source = v.was`,
  );
  return added.length;
}
