import { createHash } from 'node:crypto';
import { resourceByKey } from '@smart/contracts';
import { type Db, schema } from '../platform/db';
import { SEED } from './system';

/**
 * The menu tree of every screen that exists, with its button codes (`<menu>_add|_edit|_delete|_view`).
 * Adding a screen = adding a node here; ids derive from codes, so they are stable everywhere.
 */
export interface MenuSeed {
  code: string;
  name: string;
  path: string;
  source?: string;
  alias?: string;
  keepAlive?: boolean;
  /** button suffixes granted with the menu */
  buttons?: string[];
  children?: MenuSeed[];
}

/** A menu entry for a registry resource: its code, name, route and buttons come from the definition. */
function screen(key: string, source: string): MenuSeed {
  const def = resourceByKey.get(key);
  if (!def) throw new Error(`no resource ${key}`);
  return {
    code: def.permission,
    name: def.label.zh,
    path: def.route,
    source,
    buttons: def.view === false ? ['add', 'edit', 'delete'] : ['add', 'edit', 'delete', 'view'],
  };
}

export const MENU_TREE: MenuSeed[] = [
  {
    code: 'desk',
    name: '工作台',
    path: '/desk',
    source: 'DesktopOutlined',
    children: [screen('notice', 'NotificationOutlined')],
  },
  {
    code: 'system',
    name: '系统管理',
    path: '/system',
    source: 'SettingOutlined',
    children: [
      {
        code: 'user',
        name: '用户管理',
        path: '/system/user',
        source: 'UserOutlined',
        buttons: ['add', 'edit', 'delete', 'view', 'role', 'reset', 'unlock', 'platform', 'import', 'export'],
      },
      screen('dept', 'ApartmentOutlined'),
      { ...screen('role', 'TeamOutlined'), buttons: ['add', 'edit', 'delete', 'view', 'grant'] },
      { ...screen('menu', 'MenuOutlined') },
      screen('post', 'IdcardOutlined'),
      { ...screen('topMenu', 'AppstoreOutlined'), buttons: ['add', 'edit', 'delete', 'view', 'grant'] },
      screen('param', 'ControlOutlined'),
      screen('tenantPackage', 'GiftOutlined'),
      screen('client', 'ApiOutlined'),
      screen('tenant', 'ClusterOutlined'),
      {
        code: 'dict',
        name: '字典管理',
        path: '/system/dict',
        source: 'BookOutlined',
        buttons: ['add', 'edit', 'delete', 'view'],
      },
      {
        code: 'dict_biz',
        name: '业务字典',
        path: '/system/dictbiz',
        source: 'ReadOutlined',
        buttons: ['add', 'edit', 'delete', 'view'],
      },
      {
        code: 'region',
        name: '行政区划',
        path: '/system/region',
        source: 'GlobalOutlined',
        buttons: ['add', 'edit', 'delete', 'view'],
      },
    ],
  },
  {
    code: 'tool',
    name: '研发工具',
    path: '/tool',
    source: 'ToolOutlined',
    children: [screen('report', 'BarChartOutlined')],
  },
  {
    code: 'authority',
    name: '权限管理',
    path: '/authority',
    source: 'SafetyOutlined',
    children: [screen('dataScope', 'DatabaseOutlined'), screen('apiScope', 'LockOutlined')],
  },
  {
    code: 'log',
    name: '日志管理',
    path: '/log',
    source: 'FileSearchOutlined',
    children: [
      {
        code: 'log_usual',
        name: '通用日志',
        path: '/log/usual',
        source: 'FileTextOutlined',
        buttons: ['view'],
      },
      { code: 'log_api', name: '接口日志', path: '/log/api', source: 'ApiOutlined', buttons: ['view'] },
      { code: 'log_error', name: '错误日志', path: '/log/error', source: 'BugOutlined', buttons: ['view'] },
    ],
  },
];

const BUTTON_NAMES: Record<string, string> = {
  add: '新增',
  edit: '修改',
  delete: '删除',
  view: '查看',
  import: '导入',
  export: '导出',
  grant: '权限设置',
  role: '角色配置',
  reset: '密码重置',
  unlock: '账号解封',
  platform: '平台配置',
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
      alias: m.alias ?? 'menu',
      path: m.path,
      source: m.source ?? '',
      sort: i + 1,
      category: 1,
      keepAlive: m.keepAlive ?? true,
    });
    (m.buttons ?? []).forEach((b, j) => {
      const code = `${m.code}_${b}`;
      rows.push({
        id: menuId(code),
        parentId: id,
        code,
        name: BUTTON_NAMES[b] ?? b,
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

/** Runs at every start: inserts menus new since the last start and grants only those to the administrator. */
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
  return added.length;
}
