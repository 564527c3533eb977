import type { LoginResult, MenuNode, UserInfo } from '@smart/contracts/core';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import {
  fetchButtons,
  fetchMenuRoutes,
  fetchUserInfo,
  flattenButtons,
  requestLogout,
  requestRefresh,
} from '../auth/api';
import { getCookie, jsonStorage, readItem, removeCookie, removeItem, setCookie, writeItem } from '../storage';
import { useLock } from './lock';
import { useSettings } from './settings';
import { useTags } from './tags';

/** Cookie and localStorage keys of the tokens (spec §9: token and refresh token under separate keys). */
export const ACCESS_COOKIE = 'saber-access-token';
export const REFRESH_COOKIE = 'saber-refresh-token';
export const TOKEN_KEY = 'saber-token';
export const REFRESH_KEY = 'saber-refresh-token';
/** when the stored access token was issued (ms): beside the tokens, so every browser tab sees it */
export const TOKEN_TIME_KEY = 'saber-token-time';

/** The signed-in user; `oauthId` is set for a third-party (social) sign-in. */
export interface SessionUser extends UserInfo {
  oauthId?: string;
}

export interface SessionState {
  token: string;
  refreshToken: string;
  /** ms since epoch when the current access token was issued */
  tokenIssuedAt: number;
  /** seconds the server says the access token lives */
  expiresIn: number;
  tenantId: string;
  userInfo: SessionUser | null;
  /** button code → true */
  permission: Record<string, boolean>;
  roles: string[];
  /** the whole menu of the user (every page the guard can open) */
  menu: MenuNode[];
  /** the chosen top menu ('' = the home item: the whole menu in the sidebar) */
  topMenuId: string;
  /** the sidebar's menu while a top menu is chosen */
  sideMenu: MenuNode[] | null;
  passwordChangeRequired: boolean;
  /** user info, menu and buttons were fetched during this page load */
  loaded: boolean;
}

const SIGNED_OUT: Omit<SessionState, 'token' | 'refreshToken'> = {
  tokenIssuedAt: 0,
  expiresIn: 0,
  tenantId: '',
  userInfo: null,
  permission: {},
  roles: [],
  menu: [],
  topMenuId: '',
  sideMenu: null,
  passwordChangeRequired: false,
  loaded: false,
};

/** Who is signed in, with what menu and permissions. Tokens are kept outside the persisted blob. */
export const useSession = create<SessionState>()(
  persist(
    () => ({
      ...SIGNED_OUT,
      token: readItem(TOKEN_KEY) ?? '',
      refreshToken: readItem(REFRESH_KEY) ?? '',
      tokenIssuedAt: Number(readItem(TOKEN_TIME_KEY)) || 0,
    }),
    {
      name: 'saber-session',
      storage: jsonStorage('local'),
      partialize: ({ token: _t, refreshToken: _r, loaded: _l, ...rest }) => rest,
      // the issue time stored beside the tokens wins over the blob's (another tab may have refreshed)
      merge: (persisted, current) => ({
        ...current,
        ...(persisted as Partial<SessionState>),
        tokenIssuedAt: current.tokenIssuedAt || (persisted as Partial<SessionState>)?.tokenIssuedAt || 0,
      }),
    },
  ),
);

/** The token the guard reads from the cookie ("stored token"). */
export function cookieToken(): string {
  return getCookie(ACCESS_COOKIE);
}

/**
 * A third-party sign-in whose account is not registered yet: the login result has no user id, or a
 * negative one. The shell then only offers the registration dialog.
 */
export function isGuestUser(user: Pick<SessionUser, 'id'> | null | undefined): boolean {
  if (!user) return false;
  const id = String(user.id ?? '').trim();
  return id === '' || Number(id) < 0;
}

function userFromLogin(result: LoginResult): SessionUser {
  const oauthId = (result as LoginResult & { oauth_id?: string }).oauth_id;
  return {
    id: result.user_id ?? '',
    tenantId: result.tenant_id,
    account: result.account || result.user_name,
    name: result.nick_name || result.user_name,
    realName: result.real_name || result.nick_name || result.user_name,
    avatar: result.avatar,
    email: '',
    phone: '',
    deptId: result.dept_id,
    roleId: result.role_id,
    roleName: result.role_name,
    passwordChangeRequired: Boolean(result.password_change_required),
    ...(oauthId ? { oauthId } : {}),
  };
}

function splitRoles(roleName: string | undefined): string[] {
  return (roleName ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

function storeTokens(result: LoginResult): void {
  const issuedAt = Date.now();
  setCookie(ACCESS_COOKIE, result.access_token);
  setCookie(REFRESH_COOKIE, result.refresh_token);
  writeItem(TOKEN_KEY, result.access_token);
  writeItem(REFRESH_KEY, result.refresh_token);
  writeItem(TOKEN_TIME_KEY, String(issuedAt));
  useSession.setState({
    token: result.access_token,
    refreshToken: result.refresh_token,
    tokenIssuedAt: issuedAt,
    expiresIn: Number(result.expires_in) || 0,
  });
}

/** Session in (spec §4): store the tokens, reset the tabs to home, clear the lock. */
export function signIn(result: LoginResult): void {
  storeTokens(result);
  const userInfo = userFromLogin(result);
  useSession.setState({
    tenantId: result.tenant_id,
    userInfo,
    roles: splitRoles(result.role_name),
    passwordChangeRequired: userInfo.passwordChangeRequired,
    permission: {},
    menu: [],
    topMenuId: '',
    sideMenu: null,
    loaded: false,
  });
  useTags.getState().reset();
  useLock.getState().clear();
}

/** Session out without the server: clear token, menus, roles, tags and lock. */
export function localLogout(): void {
  removeCookie(ACCESS_COOKIE);
  removeCookie(REFRESH_COOKIE);
  removeItem(TOKEN_KEY);
  removeItem(REFRESH_KEY);
  removeItem(TOKEN_TIME_KEY);
  useSession.setState({ ...SIGNED_OUT, token: '', refreshToken: '' });
  useTags.getState().reset();
  useLock.getState().clear();
  dataLoad = null;
}

/** Session out: tell the server (it revokes both tokens), then clear everything locally. */
export async function logout(): Promise<void> {
  try {
    if (useSession.getState().token) await requestLogout();
  } catch {
    /* the token may already be dead: log out locally anyway */
  } finally {
    localLogout();
  }
}

let dataLoad: Promise<void> | null = null;

/** Fetch user info, menu and buttons once per page load (or after sign-in, a switch, a language change). */
export function ensureSessionData(force = false): Promise<void> {
  const state = useSession.getState();
  if (!state.token) return Promise.resolve();
  if (isGuestUser(state.userInfo)) {
    // an unregistered third-party user has no account to ask about: only the registration dialog shows
    if (!state.loaded) useSession.setState({ loaded: true, menu: [], sideMenu: null, permission: {} });
    return Promise.resolve();
  }
  if (state.loaded && !force) return Promise.resolve();
  if (dataLoad && !force) return dataLoad;
  if (state.passwordChangeRequired) return loadBeforePasswordChange(state.token);
  const token = state.token;
  const topMenuId = state.topMenuId;
  const run = Promise.allSettled([
    fetchUserInfo(),
    fetchMenuRoutes(),
    fetchButtons(),
    topMenuId ? fetchMenuRoutes(topMenuId) : Promise.resolve(null),
  ]).then(([info, menu, buttons, side]) => {
    if (useSession.getState().token !== token) return; // signed out or in again meanwhile
    const patch: Partial<SessionState> = {};
    if (info.status === 'fulfilled' && info.value) {
      patch.userInfo = { ...useSession.getState().userInfo, ...info.value };
      patch.roles = splitRoles(info.value.roleName);
      if (typeof info.value.passwordChangeRequired === 'boolean') {
        patch.passwordChangeRequired = info.value.passwordChangeRequired;
      }
    }
    if (menu.status === 'fulfilled') {
      patch.menu = Array.isArray(menu.value) ? menu.value : [];
      patch.loaded = true;
    }
    if (buttons.status === 'fulfilled') patch.permission = flattenButtons(buttons.value);
    if (topMenuId) {
      patch.sideMenu = side.status === 'fulfilled' && Array.isArray(side.value) ? side.value : null;
      if (!patch.sideMenu) patch.topMenuId = '';
    }
    useSession.setState(patch);
  });
  const tracked: Promise<void> = run.finally(() => {
    if (dataLoad === tracked) dataLoad = null;
  });
  dataLoad = tracked;
  return tracked;
}

/**
 * Until an initial or reset password is changed the server answers only who one is (and the change
 * itself): no menu, no buttons. The shell shows the change dialog alone; after the change the session
 * data is loaded whole (ensureSessionData(true)).
 */
function loadBeforePasswordChange(token: string): Promise<void> {
  const run = fetchUserInfo().then(
    (info) => {
      if (useSession.getState().token !== token) return;
      const stillRequired = info.passwordChangeRequired !== false;
      useSession.setState({
        userInfo: { ...useSession.getState().userInfo, ...info },
        roles: splitRoles(info.roleName),
        passwordChangeRequired: stillRequired,
        ...(stillRequired ? { menu: [], permission: {}, sideMenu: null, loaded: true } : {}),
      });
      // changed meanwhile (another tab): load everything
      if (!stillRequired) return ensureSessionData(true);
    },
    () => {
      /* the http client showed the problem (or signed out on 401) */
    },
  );
  const tracked: Promise<void> = run.finally(() => {
    if (dataLoad === tracked) dataLoad = null;
  });
  dataLoad = tracked;
  return tracked;
}

/**
 * Top menu of the top bar: '' (the home item) shows the whole menu, reloaded from the server; an id
 * reloads the sidebar from `menu/routes?topMenuId=`.
 */
export async function selectTopMenu(topMenuId: string): Promise<void> {
  const token = useSession.getState().token;
  const menu = await fetchMenuRoutes(topMenuId || undefined);
  if (useSession.getState().token !== token) return;
  const nodes = Array.isArray(menu) ? menu : [];
  if (topMenuId) useSession.setState({ topMenuId, sideMenu: nodes });
  else useSession.setState({ topMenuId: '', sideMenu: null, menu: nodes });
}

/**
 * Another browser tab of the same session may have refreshed the tokens (the server accepts each refresh
 * token once): take its tokens instead of spending ours. True when newer tokens were adopted.
 */
export function adoptStoredTokens(): boolean {
  const state = useSession.getState();
  const refreshToken = readItem(REFRESH_KEY);
  const token = readItem(TOKEN_KEY);
  if (!state.token || !token || !refreshToken || refreshToken === state.refreshToken) return false;
  useSession.setState({
    token,
    refreshToken,
    tokenIssuedAt: Number(readItem(TOKEN_TIME_KEY)) || Date.now(),
  });
  return true;
}

/** Runs `task` while holding the browser-wide refresh lock (one refresh at a time across tabs). */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request('saber-token-refresh', task) as Promise<T>) : task();
}

let refreshing: Promise<void> | null = null;

/**
 * Refresh the access token (optionally narrowed to a dept and role). Single flight: concurrent callers
 * share one request, because the server kills the old refresh token as soon as it is used. A switch
 * (dept or role given) asked for during a plain refresh runs right after it.
 */
export function refreshAccessToken(deptId?: string, roleId?: string): Promise<void> {
  const narrowing = Boolean(deptId || roleId);
  if (refreshing) {
    if (!narrowing) return refreshing;
    return refreshing.catch(() => {}).then(() => refreshAccessToken(deptId, roleId));
  }
  const run = withRefreshLock(async () => {
    if (!narrowing && adoptStoredTokens()) return;
    const { refreshToken, tenantId } = useSession.getState();
    if (!refreshToken) throw new Error('no refresh token');
    const result = await requestRefresh(
      refreshToken,
      tenantId || useSettings.getState().settings.defaultTenantId,
      deptId,
      roleId,
    );
    storeTokens(result);
    if (narrowing) {
      const userInfo = userFromLogin(result);
      useSession.setState({ tenantId: result.tenant_id, userInfo, roles: splitRoles(result.role_name) });
    }
  });
  const tracked: Promise<void> = run.finally(() => {
    if (refreshing === tracked) refreshing = null;
  });
  refreshing = tracked;
  return tracked;
}

/** The refresh in flight, if any: the http client holds requests until it is done. */
export function pendingRefresh(): Promise<void> | null {
  return refreshing;
}

/** Seconds after which the token should be refreshed: the configured token time, or earlier if it expires. */
export function refreshThreshold(tokenTime: number, expiresIn: number): number {
  if (expiresIn > 60) return Math.min(tokenTime, expiresIn - 30);
  return tokenTime;
}

/** Called every 10 s by the shell (spec §4: refresh when the token's age reaches the token time). */
export function refreshIfDue(now = Date.now()): Promise<void> | null {
  const { token, tokenIssuedAt, expiresIn, userInfo } = useSession.getState();
  if (!token || !tokenIssuedAt || isGuestUser(userInfo)) return null;
  const age = (now - tokenIssuedAt) / 1000;
  if (age < refreshThreshold(useSettings.getState().settings.tokenTime, expiresIn)) return null;
  return refreshAccessToken();
}

/**
 * The switch dialog: a token narrowed to the chosen dept and role, then the menu, buttons and user info
 * of that role; the tabs start again from home.
 */
export async function switchDeptRole(deptId: string, roleId: string): Promise<void> {
  await refreshAccessToken(deptId, roleId);
  useSession.setState({ topMenuId: '', sideMenu: null });
  useTags.getState().reset();
  await ensureSessionData(true);
}

/** Button permission check: the UI mirror of the server's rule (hiding a button is never the control). */
export function can(code: string): boolean {
  return useSession.getState().permission[code] === true;
}
