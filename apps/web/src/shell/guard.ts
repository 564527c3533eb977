/**
 * The navigation guard of spec §2 as a pure function: given what the session knows and where the user is
 * going, decide to redirect, to open a new window, or to pass (with the tab to add and the title).
 * src/router.tsx applies the decision from the root loader on every navigation.
 */
import { FIRST_PAGE, LOCK_PAGE } from '@smart/contracts/core';
import type { TextKey } from '../platform/i18n';
import type { RouteMeta, Tag } from '../platform/session/tags';
import type { MenuEntry } from './menu';

export const LOGIN_PAGE = '/login';
export const NOT_FOUND_PAGE = '/404';
export const IFRAME_PATTERN = '/myiframe/:routerPath';

export interface StaticRoute {
  path: string;
  /** route name: the tab label when no query name is given (displayed through meta.i18n) */
  name: string;
  meta: RouteMeta;
  redirect?: string;
}

/** Routes that exist whatever the menu (spec §2). Pages of the server menu are resolved through it. */
export const STATIC_ROUTES: StaticRoute[] = [
  { path: '/', name: '', redirect: '/wel', meta: {} },
  { path: '/wel', name: '', redirect: FIRST_PAGE, meta: {} },
  {
    path: LOGIN_PAGE,
    name: 'login',
    meta: { isAuth: false, isTab: false, menu: false, i18n: 'route.login' },
  },
  { path: LOCK_PAGE, name: 'lock', meta: { isAuth: false, isTab: false, menu: false, i18n: 'route.lock' } },
  { path: '/404', name: '404', meta: { isAuth: false, isTab: false, menu: false, i18n: 'route.notFound' } },
  { path: '/403', name: '403', meta: { isAuth: false, isTab: false, menu: false, i18n: 'route.forbidden' } },
  {
    path: '/500',
    name: '500',
    meta: { isAuth: false, isTab: false, menu: false, i18n: 'route.serverError' },
  },
  { path: FIRST_PAGE, name: 'home', meta: { i18n: 'route.home' } },
  // the console: hidden from the menu
  { path: '/wel/dashboard', name: 'dashboard', meta: { i18n: 'route.dashboard' } },
  { path: '/test/index', name: 'test', meta: { i18n: 'route.test' } },
  { path: '/info/index', name: 'info', meta: { i18n: 'route.info' } },
  // dictionary management in two layouts, and the leave process's pages (not menu items)
  { path: '/dict-horizontal/index', name: 'dictHorizontal', meta: { i18n: 'route.dictHorizontal' } },
  { path: '/dict-vertical/index', name: 'dictVertical', meta: { i18n: 'route.dictVertical' } },
  {
    path: '/work/process/leave/form/:processDefinitionId',
    name: 'leaveForm',
    meta: { i18n: 'route.leaveForm' },
  },
  {
    path: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId',
    name: 'leaveHandle',
    meta: { i18n: 'route.leaveHandle' },
  },
  {
    path: '/work/process/leave/detail/:processInstanceId/:businessId',
    name: 'leaveDetail',
    meta: { i18n: 'route.leaveDetail' },
  },
  // the generic application pages of every other process family (after leave: the first match wins)
  {
    path: '/work/process/:family/form/:processDefinitionId',
    name: 'applyForm',
    meta: { i18n: 'route.applyForm' },
  },
  {
    path: '/work/process/:family/handle/:taskId/:processInstanceId/:businessId',
    name: 'applyHandle',
    meta: { i18n: 'route.applyHandle' },
  },
  {
    path: '/work/process/:family/detail/:processInstanceId/:businessId',
    name: 'applyDetail',
    meta: { i18n: 'route.applyDetail' },
  },
  // an external page in the app: /myiframe/urlPath?src=<url>&name=<label>; the tab's value is the src
  { path: IFRAME_PATTERN, name: 'iframe', meta: { i18n: 'route.iframe', keepAlive: true } },
];

export interface GuardState {
  /** access token held by the session (localStorage) */
  token: string;
  /** access token in the cookie: the "stored token" */
  cookieToken: string;
  locked: boolean;
  /** leaves of the signed-in user's menu */
  menu: MenuEntry[];
  routes?: StaticRoute[];
}

export interface NavTarget {
  pathname: string;
  /** '' or '?a=b' */
  search: string;
}

export interface Title {
  label: string;
  i18n?: TextKey;
  /** the page's path when the label is a menu name (shown in the current language) */
  path?: string;
}

export type Decision =
  | { kind: 'redirect'; to: string; logout?: boolean }
  | { kind: 'open'; url: string }
  | { kind: 'pass'; tab: Tag | null; title: Title; menu: boolean; meta: RouteMeta };

interface Resolved {
  name: string;
  meta: RouteMeta;
  params: Record<string, string>;
  group: string[];
  redirect?: string;
  /** a page of the server menu: its label is the menu name */
  fromMenu?: boolean;
}

/** Match '/a/:id/b' against a path; returns the params or null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    if (want[i].startsWith(':')) {
      try {
        params[want[i].slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return null;
      }
    } else if (want[i] !== have[i]) {
      return null;
    }
  }
  return params;
}

export function normalizePath(pathname: string): string {
  if (!pathname) return '/';
  const p = pathname.startsWith('/') ? pathname : `/${pathname}`;
  return p.length > 1 && p.endsWith('/') ? p.replace(/\/+$/, '') || '/' : p;
}

export function resolveRoute(path: string, state: GuardState): Resolved | null {
  for (const route of state.routes ?? STATIC_ROUTES) {
    const params = matchPattern(route.path, path);
    if (params) return { name: route.name, meta: route.meta, params, group: [], redirect: route.redirect };
  }
  const entry = state.menu.find((m) => !m.external && m.path === path);
  if (entry) {
    return {
      name: entry.name,
      meta: { keepAlive: entry.keepAlive },
      params: {},
      group: entry.group,
      fromMenu: true,
    };
  }
  return null;
}

/** What a new window opens for a query target: the src, else the URL without the target itself. */
function targetUrl(path: string, query: Record<string, string>): string {
  if (query.src) return query.src;
  const rest = new URLSearchParams(query);
  rest.delete('target');
  const search = rest.toString();
  return search ? `${path}?${search}` : path;
}

function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) query[key] = value;
  return query;
}

function titleOf(resolved: Resolved): Title {
  return { label: resolved.name, i18n: resolved.meta.i18n };
}

export function decideNavigation(state: GuardState, target: NavTarget): Decision {
  const path = normalizePath(target.pathname);
  const search = target.search && target.search !== '?' ? target.search : '';
  const query = parseQuery(search);
  const resolved = resolveRoute(path, state);

  if (state.token) {
    if (state.locked && path !== LOCK_PAGE) return { kind: 'redirect', to: LOCK_PAGE };
    if (path === LOGIN_PAGE) return { kind: 'redirect', to: '/' };
    if (!state.cookieToken) return { kind: 'redirect', to: LOGIN_PAGE, logout: true };
    if (resolved?.redirect) return { kind: 'redirect', to: resolved.redirect + search };
    if (!resolved) return { kind: 'redirect', to: NOT_FOUND_PAGE };

    const value = query.src || path + search;
    if (query.target) return { kind: 'open', url: targetUrl(path, query) };

    const label = query.name || resolved.name;
    // a key named by the URL is not checked: i18next shows an unknown key as itself, as it always did
    const meta: RouteMeta = query.i18n
      ? { ...resolved.meta, i18n: query.i18n as TextKey }
      : { ...resolved.meta };
    if (query.name && !query.i18n) delete meta.i18n;
    const menu = query.menu !== undefined ? query.menu !== 'false' : resolved.meta.menu !== false;
    const title: Title = { label, i18n: meta.i18n };
    if (resolved.fromMenu && !query.name) title.path = path;
    const tab: Tag | null =
      resolved.meta.isTab === false || !label || !value
        ? null
        : { label, value, params: resolved.params, query, meta, group: resolved.group };
    return { kind: 'pass', tab, title: tab ? title : titleOf(resolved), menu, meta };
  }

  // Signed out: a public page passes; any other (a page of a menu nobody has read yet, a bookmark, a link
  // in a notice) needs a sign-in first, then goes on to what was asked for (spec §2)
  if (resolved?.redirect) return { kind: 'redirect', to: resolved.redirect + search };
  if (resolved?.meta.isAuth === false) {
    return { kind: 'pass', tab: null, title: titleOf(resolved), menu: false, meta: resolved.meta };
  }
  return { kind: 'redirect', to: loginFor(path + search) };
}

/** /login, remembering the page a signed-out visitor asked for (the home needs no remembering) */
export function loginFor(target: string): string {
  return target === '/' || target.startsWith('/wel')
    ? LOGIN_PAGE
    : `${LOGIN_PAGE}?redirect=${encodeURIComponent(target)}`;
}

/**
 * Where to go once signed in: the page a `redirect` asked for when it is one of the console's own paths (never
 * another site: `//host` or a scheme is refused), else the home.
 */
export function afterSignIn(search: string): string {
  const asked = new URLSearchParams(search).get('redirect');
  if (
    !asked?.startsWith('/') ||
    asked.startsWith('//') ||
    asked.startsWith('/\\') ||
    asked.startsWith(LOGIN_PAGE)
  )
    return '/';
  return asked;
}
