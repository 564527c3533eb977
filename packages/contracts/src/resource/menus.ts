/**
 * The menu tree the server seeds (every screen, its icon and button codes): data both ends read — the
 * server writes it to the menu table (apps/server/src/seed/menus.ts), the web's tests check that every icon
 * it names is bundled (apps/web/src/shell/layout/icons.test.ts).
 */
import { AREAS } from './areas';
import { resourceByKey } from './registry';
import type { AreaDef, ButtonDecl, ScreenDecl } from './types';

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
  /** buttons granted with the menu: a suffix the platform names (`add`, `grant` …), or one an area declares with its name */
  buttons?: (string | ButtonDecl)[];
  children?: MenuSeed[];
}

export const CRUD_BUTTONS = ['add', 'edit', 'delete', 'view'];

/**
 * A menu entry for a registry resource: its code, names, route, icon and buttons come from the definition
 * (Excel import/export buttons when it declares them); `source` and `extraButtons` serve screens whose
 * definition does not carry them (system screens with bespoke actions).
 */
export function screen(key: string, source?: string, extraButtons: (string | ButtonDecl)[] = []): MenuSeed {
  const def = resourceByKey.get(key);
  if (!def) throw new Error(`no resource ${key}`);
  const extra = extraButtons.map((b) => (typeof b === 'string' ? b : b.code));
  const excel = [...(def.excel?.import ? ['import'] : []), ...(def.excel?.export ? ['export'] : [])].filter(
    (b) => !extra.includes(b),
  );
  return {
    code: def.permission,
    name: def.label.zh,
    nameEn: def.label.en,
    path: def.route,
    source: source ?? def.icon,
    // rows the server writes (readOnly) are viewed (and exported, where declared), and acted on only through
    // their own actions
    buttons: def.readOnly
      ? ['view', ...extraButtons, ...excel]
      : def.appendOnly
        ? ['add', 'view', ...extraButtons, ...excel]
        : def.editable === false
          ? ['add', 'delete', 'view', ...extraButtons, ...excel]
          : [...(def.view === false ? ['add', 'edit', 'delete'] : CRUD_BUTTONS), ...extraButtons, ...excel],
  };
}

/** An area's screen that is not a definition's list (an overview, the video wall). */
const screenMenu = (o: ScreenDecl): MenuSeed => ({
  code: o.code,
  name: o.label.zh,
  nameEn: o.label.en,
  path: o.path,
  source: o.icon,
});

/**
 * A business area's folder and its screens, all from its definition (`defineArea`): its overview and the
 * other screens that are not a definition's list first, then a screen per resource with its buttons.
 */
function areaMenu(area: AreaDef): MenuSeed {
  return {
    code: area.code,
    name: area.label.zh,
    nameEn: area.label.en,
    path: `/${area.code}`,
    source: area.icon,
    children: [
      ...(area.overview ? [screenMenu(area.overview)] : []),
      ...(area.screens ?? []).map(screenMenu),
      ...area.resources.map((r) => screen(r.key, undefined, [...(area.buttons?.[r.key] ?? [])])),
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
      screen('dict', 'BookOutlined'),
      screen('dictBiz', 'ReadOutlined'),
      screen('region', 'GlobalOutlined'),
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
    source: 'KeyOutlined',
    children: [screen('dataScope', 'DatabaseOutlined'), screen('apiScope', 'LockOutlined')],
  },
  {
    code: 'log',
    name: '日志管理',
    nameEn: 'Logs',
    path: '/log',
    source: 'FileSearchOutlined',
    children: [
      screen('logUsual', 'FileTextOutlined'),
      screen('logApi', 'ApiOutlined'),
      screen('logError', 'BugOutlined'),
    ],
  },
  ...AREAS.map(areaMenu),
];
