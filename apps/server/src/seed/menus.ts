import { createHash } from 'node:crypto';
import {
  AGRICULTURE_AREA,
  AGRICULTURE_OVERVIEW,
  type AreaDef,
  ASSISTANCE_AREA,
  ASSISTANCE_OVERVIEW,
  EVALUATION_AREA,
  PARTY_AREA,
  PARTY_OVERVIEW,
  POWER_AREA,
  POWER_SCREENS,
  RELIEF_AREA,
  RELIEF_OVERVIEW,
  resourceByKey,
  SAFETY_AREA,
  SAFETY_OVERVIEW,
  SAFETY_WALL,
  TELEMETRY_SCREENS,
  type Text2,
  VILLAGE_AREA,
} from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { type Db, schema } from '../platform/db';
import { SEED } from './system';

/**
 * The menu tree of every screen that exists, with its button codes (`<menu>_add|_edit|_delete|_view`).
 * Adding a screen = adding a node here; ids derive from codes, so they are stable everywhere.
 */
export interface MenuSeed {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  source?: string;
  alias?: string;
  keepAlive?: boolean;
  /** button suffixes granted with the menu */
  buttons?: string[];
  children?: MenuSeed[];
}

const CRUD_BUTTONS = ['add', 'edit', 'delete', 'view'];

/**
 * A menu entry for a registry resource: its code, names, route, icon and buttons come from the definition
 * (Excel import/export buttons when it declares them); `source` and `extraButtons` serve screens whose
 * definition does not carry them (system screens with bespoke actions).
 */
function screen(key: string, source?: string, extraButtons: string[] = []): MenuSeed {
  const def = resourceByKey.get(key);
  if (!def) throw new Error(`no resource ${key}`);
  const excel = [...(def.excel?.import ? ['import'] : []), ...(def.excel?.export ? ['export'] : [])].filter(
    (b) => !extraButtons.includes(b),
  );
  return {
    code: def.permission,
    name: def.label.zh,
    nameEn: def.label.en,
    path: def.route,
    source: source ?? def.icon,
    // rows the server writes (readOnly) are viewed, and acted on only through their own actions
    buttons: def.readOnly
      ? ['view', ...extraButtons]
      : [...(def.view === false ? ['add', 'edit', 'delete'] : CRUD_BUTTONS), ...extraButtons, ...excel],
  };
}

/** An area's screen that is not a definition's list (an overview, the video wall). */
const overviewMenu = (o: { code: string; label: Text2; path: string; icon: string }): MenuSeed => ({
  code: o.code,
  name: o.label.zh,
  nameEn: o.label.en,
  path: o.path,
  source: o.icon,
});

/**
 * A business area's folder and its screens, all from its definition (packages/contracts `defineArea`);
 * `first`: screens that are not a definition's list (an overview), placed before them; `buttons`: a
 * screen's actions beyond add / edit / delete.
 */
function areaMenu(
  area: AreaDef,
  opts: { first?: MenuSeed[]; buttons?: Record<string, string[]> } = {},
): MenuSeed {
  return {
    code: area.code,
    name: area.label.zh,
    nameEn: area.label.en,
    path: `/${area.code}`,
    source: area.icon,
    children: [
      ...(opts.first ?? []),
      ...area.resources.map((r) => screen(r.key, undefined, opts.buttons?.[r.key])),
    ],
  };
}

export const MENU_TREE: MenuSeed[] = [
  {
    code: 'desk',
    name: '工作台',
    nameEn: 'Desk',
    path: '/desk',
    source: 'DesktopOutlined',
    children: [screen('notice', 'NotificationOutlined')],
  },
  {
    code: 'system',
    name: '系统管理',
    nameEn: 'System',
    path: '/system',
    source: 'SettingOutlined',
    children: [
      screen('user', 'UserOutlined', ['role', 'reset', 'unlock', 'platform', 'import', 'export']),
      screen('dept', 'ApartmentOutlined'),
      screen('role', 'TeamOutlined', ['grant']),
      screen('menu', 'MenuOutlined'),
      screen('post', 'IdcardOutlined'),
      screen('topMenu', 'AppstoreOutlined', ['grant']),
      screen('param', 'ControlOutlined'),
      screen('tenantPackage', 'GiftOutlined'),
      screen('client', 'ApiOutlined'),
      screen('tenant', 'ClusterOutlined'),
      {
        code: 'dict',
        name: '字典管理',
        nameEn: 'Dictionaries',
        path: '/system/dict',
        source: 'BookOutlined',
        buttons: CRUD_BUTTONS,
      },
      {
        code: 'dict_biz',
        name: '业务字典',
        nameEn: 'Business dictionaries',
        path: '/system/dictbiz',
        source: 'ReadOutlined',
        buttons: CRUD_BUTTONS,
      },
      {
        code: 'region',
        name: '行政区划',
        nameEn: 'Regions',
        path: '/system/region',
        source: 'GlobalOutlined',
        buttons: CRUD_BUTTONS,
      },
    ],
  },
  {
    code: 'work',
    name: '我的事务',
    nameEn: 'My work',
    path: '/work',
    source: 'ScheduleOutlined',
    children: [
      { code: 'work_start', name: '发起事务', nameEn: 'Start', path: '/work/start', source: 'SendOutlined' },
      {
        code: 'work_claim',
        name: '待签事务',
        nameEn: 'To claim',
        path: '/work/claim',
        source: 'InboxOutlined',
      },
      {
        code: 'work_todo',
        name: '待办事务',
        nameEn: 'To do',
        path: '/work/todo',
        source: 'CarryOutOutlined',
      },
      { code: 'work_send', name: '已发事务', nameEn: 'Sent', path: '/work/send', source: 'ExportOutlined' },
      {
        code: 'work_done',
        name: '办结事务',
        nameEn: 'Done',
        path: '/work/done',
        source: 'CheckSquareOutlined',
      },
    ],
  },
  {
    code: 'flow',
    name: '流程管理',
    nameEn: 'Workflow',
    path: '/flow',
    source: 'ApartmentOutlined',
    children: [
      {
        code: 'flow_model',
        name: '模型管理',
        nameEn: 'Models',
        path: '/flow/model',
        source: 'EditOutlined',
        buttons: ['add', 'edit', 'delete', 'deploy'],
      },
      {
        code: 'flow_manager',
        name: '部署管理',
        nameEn: 'Deployments',
        path: '/flow/manager',
        source: 'DeploymentUnitOutlined',
        buttons: ['state', 'upload', 'delete'],
      },
      {
        code: 'flow_follow',
        name: '流程跟踪',
        nameEn: 'Running processes',
        path: '/flow/follow',
        source: 'NodeIndexOutlined',
        // message: correlate a message to an instance by business key; signal: broadcast a signal
        buttons: ['delete', 'message', 'signal'],
      },
    ],
  },
  {
    code: 'authority',
    name: '权限管理',
    nameEn: 'Authority',
    path: '/authority',
    source: 'SafetyOutlined',
    children: [screen('dataScope', 'DatabaseOutlined'), screen('apiScope', 'LockOutlined')],
  },
  {
    code: 'log',
    name: '日志管理',
    nameEn: 'Logs',
    path: '/log',
    source: 'FileSearchOutlined',
    children: [
      {
        code: 'log_usual',
        name: '通用日志',
        nameEn: 'Usual log',
        path: '/log/usual',
        source: 'FileTextOutlined',
        buttons: ['view'],
      },
      {
        code: 'log_api',
        name: '接口日志',
        nameEn: 'API log',
        path: '/log/api',
        source: 'ApiOutlined',
        buttons: ['view'],
      },
      {
        code: 'log_error',
        name: '错误日志',
        nameEn: 'Error log',
        path: '/log/error',
        source: 'BugOutlined',
        buttons: ['view'],
      },
    ],
  },
  areaMenu(VILLAGE_AREA),
  areaMenu(EVALUATION_AREA, {
    // a dashboard of the area's figures, and the actions beyond add / edit / delete
    first: [
      {
        code: 'evaluation_overview',
        name: '评比概览',
        nameEn: 'Evaluation overview',
        path: '/evaluation/overview',
        source: 'BarChartOutlined',
      },
    ],
    buttons: { evaluationList: ['score'], evaluationProject: ['publish', 'reopen'] },
  }),
  areaMenu(PARTY_AREA, {
    first: [overviewMenu(PARTY_OVERVIEW)],
  }),
  areaMenu(RELIEF_AREA, {
    first: [overviewMenu(RELIEF_OVERVIEW)],
    buttons: { preventionPoverty: ['identify', 'remove_risk'] },
  }),
  areaMenu(ASSISTANCE_AREA, {
    first: [overviewMenu(ASSISTANCE_OVERVIEW)],
  }),
  areaMenu(SAFETY_AREA, {
    // the overview and the live video wall: screens that are not a definition's list
    first: [overviewMenu(SAFETY_OVERVIEW), overviewMenu(SAFETY_WALL)],
  }),
  areaMenu(AGRICULTURE_AREA, {
    // the overview, then the monitoring screens over the telemetry core (not a definition's list)
    first: [overviewMenu(AGRICULTURE_OVERVIEW), ...Object.values(TELEMETRY_SCREENS).map(overviewMenu)],
    buttons: { deviceAlarm: ['handle'] },
  }),
  areaMenu(POWER_AREA, {
    // the energy overview and the live station page: screens that are not a definition's list
    first: [overviewMenu(POWER_SCREENS.overview), overviewMenu(POWER_SCREENS.live)],
    buttons: { collectSetting: ['submit'] },
  }),
  {
    code: 'tool',
    name: '研发工具',
    nameEn: 'Developer tools',
    path: '/tool',
    source: 'ToolOutlined',
    children: [screen('report', 'BarChartOutlined')],
  },
];

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
  score: ['打分', 'Score'],
  publish: ['发布', 'Publish'],
  reopen: ['重新开放', 'Reopen'],
  identify: ['发起识别', 'Start identification'],
  remove_risk: ['消除风险', 'Remove risk'],
  handle: ['处理', 'Handle'],
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
    (m.buttons ?? []).forEach((b, j) => {
      const code = `${m.code}_${b}`;
      rows.push({
        id: menuId(code),
        parentId: id,
        code,
        name: BUTTON_NAMES[b]?.[0] ?? b,
        nameEn: BUTTON_NAMES[b]?.[1] ?? b,
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
 * Runs at every start: inserts menus new since the last start and grants only those to the administrator;
 * fills English names that are still missing (an administrator's edits are kept).
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
  return added.length;
}
