import type { LoginResult, MenuNode, UserInfo } from '@smart/contracts';
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

export interface SessionState {
  token: string;
  refreshToken: string;
  /** ms since epoch when the current access token was issued */
  tokenIssuedAt: number;
  /** seconds the server says the access token lives */
  expiresIn: number;
  tenantId: string;
  userInfo: UserInfo | null;
  /** button code → true */
  permission: Record<string, boolean>;
  roles: string[];
  menu: MenuNode[];
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
    }),
    {
      name: 'saber-session',
      storage: jsonStorage('local'),
      partialize: ({ token: _t, refreshToken: _r, loaded: _l, ...rest }) => rest,
    },
  ),
);

/** The token the guard reads from the cookie ("stored token"). */
export function cookieToken(): string {
  return getCookie(ACCESS_COOKIE);
}

function userFromLogin(result: LoginResult): UserInfo {
  return {
    id: result.user_id,
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
  };
}

function splitRoles(roleName: string | undefined): string[] {
  return (roleName ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
}

function storeTokens(result: LoginResult): void {
  setCookie(ACCESS_COOKIE, result.access_token);
  setCookie(REFRESH_COOKIE, result.refresh_token);
  writeItem(TOKEN_KEY, result.access_token);
  writeItem(REFRESH_KEY, result.refresh_token);
  useSession.setState({
    token: result.access_token,
    refreshToken: result.refresh_token,
    tokenIssuedAt: Date.now(),
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

/** Fetch user info, menu and buttons once per page load (or after sign-in / language change). */
export function ensureSessionData(force = false): Promise<void> {
  const state = useSession.getState();
  if (!state.token) return Promise.resolve();
  if (state.loaded && !force) return Promise.resolve();
  if (dataLoad && !force) return dataLoad;
  const token = state.token;
  const run = Promise.allSettled([fetchUserInfo(), fetchMenuRoutes(), fetchButtons()]).then(
    ([info, menu, buttons]) => {
      if (useSession.getState().token !== token) return; // signed out or in again meanwhile
      const patch: Partial<SessionState> = {};
      if (info.status === 'fulfilled' && info.value) {
        patch.userInfo = info.value;
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
      useSession.setState(patch);
    },
  );
  const tracked: Promise<void> = run.finally(() => {
    if (dataLoad === tracked) dataLoad = null;
  });
  dataLoad = tracked;
  return tracked;
}

let refreshing: Promise<void> | null = null;

/**
 * Refresh the access token (optionally narrowed to a dept and role). Single flight: concurrent callers
 * share one request, because the server kills the old refresh token as soon as it is used.
 */
export function refreshAccessToken(deptId?: string, roleId?: string): Promise<void> {
  if (refreshing) return refreshing;
  const { refreshToken, tenantId } = useSession.getState();
  if (!refreshToken) return Promise.reject(new Error('no refresh token'));
  refreshing = requestRefresh(
    refreshToken,
    tenantId || useSettings.getState().settings.defaultTenantId,
    deptId,
    roleId,
  )
    .then((result) => {
      storeTokens(result);
      if (deptId || roleId) {
        const userInfo = userFromLogin(result);
        useSession.setState({ tenantId: result.tenant_id, userInfo, roles: splitRoles(result.role_name) });
      }
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Seconds after which the token should be refreshed: the configured token time, or earlier if it expires. */
export function refreshThreshold(tokenTime: number, expiresIn: number): number {
  if (expiresIn > 60) return Math.min(tokenTime, expiresIn - 30);
  return tokenTime;
}

/** Called every 10 s by the shell (spec §4: refresh when the token's age reaches the token time). */
export function refreshIfDue(now = Date.now()): Promise<void> | null {
  const { token, tokenIssuedAt, expiresIn } = useSession.getState();
  if (!token || !tokenIssuedAt) return null;
  const age = (now - tokenIssuedAt) / 1000;
  if (age < refreshThreshold(useSettings.getState().settings.tokenTime, expiresIn)) return null;
  return refreshAccessToken();
}

/** Button permission check: the UI mirror of the server's rule (hiding a button is never the control). */
export function can(code: string): boolean {
  return useSession.getState().permission[code] === true;
}
