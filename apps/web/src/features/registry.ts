/**
 * Page registry: path → lazy page. The layout's catch-all route (shell/layout/PageHost.tsx) looks the
 * current path up in the user's menu, then here, then in the page families (an area's screens and
 * definitions: features/areas.ts); a menu path found nowhere shows the 404 result. A platform screen is a
 * line here (one chunk per page) and its menu node in the contracts' MENU_TREE; an area's screen is a line
 * of its area's `pages.ts`.
 * Resource definitions are not imported here: a family knows its route prefixes and loads its definitions
 * (`@smart/contracts/<area>`) with the first of its screens.
 */
import type { PageFamily, PageLoader } from '../platform/pages';
import { AREA_PAGES } from './areas';

export type { PageFamily, PageLoader, PageModule } from '../platform/pages';

/** The platform's own generic list pages (PLATFORM_RESOURCES): parameters, posts, menus, scopes, … */
const platformPages: PageFamily = {
  prefixes: ['/system/', '/authority/', '/desk/'],
  load: () => import('@smart/contracts/platform').then((m) => m.PLATFORM_RESOURCES),
};

/** Definition-driven screens, after the registry's own lines: the platform's, then one family per area. */
export const families: readonly PageFamily[] = [platformPages, ...AREA_PAGES];

export const registry: Record<string, PageLoader> = {
  '/wel/index': () => import('./wel/WelcomePage'),
  '/info/index': () => import('./info/InfoPage'),
  // system administration: the generic page with extensions, or screens of their own
  '/system/user/index': () => import('./system/user/UserPage'),
  '/system/role/index': () => import('./system/RolePage'),
  '/system/topmenu/index': () => import('./system/TopMenuPage'),
  '/system/tenant/index': () => import('./system/TenantPage'),
  '/system/dict/index': () => import('./system/dict/DictPage'),
  '/system/dictbiz/index': () => import('./system/dict/DictBizPage'),
  '/dict-horizontal/index': () => import('./system/dict/DictHorizontalPage'),
  '/dict-vertical/index': () => import('./system/dict/DictVerticalPage'),
  '/system/region/index': () => import('./system/region/RegionPage'),
  '/authority/datascope/index': () =>
    import('./authority/ScopePage').then((m) => ({ default: m.DataScopePage })),
  '/authority/apiscope/index': () =>
    import('./authority/ScopePage').then((m) => ({ default: m.ApiScopePage })),
  '/log/usual/index': () => import('./log/LogPages').then((m) => ({ default: m.UsualLogPage })),
  '/log/api/index': () => import('./log/LogPages').then((m) => ({ default: m.ApiLogPage })),
  '/log/error/index': () => import('./log/LogPages').then((m) => ({ default: m.ErrorLogPage })),
  // workflow: models, deployments, running processes; my work; the leave pages (spec §2, not menu items)
  '/flow/model/index': () => import('./flow/ModelPage'),
  '/flow/manager/index': () => import('./flow/ManagerPage'),
  '/flow/follow/index': () => import('./flow/FollowPage'),
  '/work/start/index': () => import('./work/WorkPages').then((m) => ({ default: m.StartPage })),
  '/work/claim/index': () => import('./work/WorkPages').then((m) => ({ default: m.ClaimPage })),
  '/work/todo/index': () => import('./work/WorkPages').then((m) => ({ default: m.TodoPage })),
  '/work/send/index': () => import('./work/WorkPages').then((m) => ({ default: m.SendPage })),
  '/work/done/index': () => import('./work/WorkPages').then((m) => ({ default: m.DonePage })),
  '/work/process/leave/form/:processDefinitionId': () => import('./work/leave/LeaveFormPage'),
  '/work/process/leave/handle/:taskId/:processInstanceId/:businessId': () =>
    import('./work/leave/LeaveHandlePage'),
  '/work/process/leave/detail/:processInstanceId/:businessId': () => import('./work/leave/LeaveDetailPage'),
  // the relief identification's own pages: beside the household, started from its list
  '/work/process/relief/form/:processDefinitionId': () =>
    import('./relief/WorkPages').then((m) => ({ default: m.ReliefFormPage })),
  '/work/process/relief/handle/:taskId/:processInstanceId/:businessId': () =>
    import('./relief/WorkPages').then((m) => ({ default: m.ReliefHandlePage })),
  '/work/process/relief/detail/:processInstanceId/:businessId': () =>
    import('./relief/WorkPages').then((m) => ({ default: m.ReliefDetailPage })),
  // every other family (flow dictionary remark): the generic application pages; after leave, which wins
  '/work/process/:family/form/:processDefinitionId': () => import('./work/apply/ApplyFormPage'),
  '/work/process/:family/handle/:taskId/:processInstanceId/:businessId': () =>
    import('./work/apply/ApplyHandlePage'),
  '/work/process/:family/detail/:processInstanceId/:businessId': () => import('./work/apply/ApplyDetailPage'),
};
