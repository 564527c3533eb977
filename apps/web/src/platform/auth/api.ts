/** The auth, menu and password calls of spec §7, on top of the one http client. */
import {
  type AppSettings,
  type CaptchaResult,
  type LoginResult,
  type MenuNode,
  TENANT_HEADER,
  type UserInfo,
} from '@smart/contracts/core';
import { getData, postData, request } from '../http/client';
import { md5Hex } from '../md5';

const AUTH = '/api/dfem-auth/oauth';

export function fetchSettings(): Promise<AppSettings> {
  return getData<AppSettings>(`${AUTH}/settings`, undefined, { auth: false, silent: true });
}

export function fetchCaptcha(): Promise<CaptchaResult> {
  return getData<CaptchaResult>(`${AUTH}/captcha`, undefined, { auth: false, silent: true });
}

export interface LoginForm {
  tenantId: string;
  username: string;
  /** as typed; hashed here */
  password: string;
  /** when captcha mode is on */
  captchaKey?: string;
  captchaCode?: string;
  deptId?: string;
  roleId?: string;
}

/** Password (or captcha) grant. Errors are not toasted: the login page shows them inline. */
export function requestToken(form: LoginForm, captchaMode: boolean): Promise<LoginResult> {
  return request<LoginResult>(`${AUTH}/token`, {
    method: 'POST',
    auth: false,
    silent: true,
    params: {
      tenantId: form.tenantId,
      username: form.username,
      password: md5Hex(form.password),
      grant_type: captchaMode ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    },
    headers: {
      [TENANT_HEADER]: form.tenantId,
      'Dept-Id': form.deptId,
      'Role-Id': form.roleId,
      ...(captchaMode
        ? { 'Captcha-Key': form.captchaKey ?? '', 'Captcha-Code': form.captchaCode ?? '' }
        : {}),
    },
  });
}

export function requestRefresh(
  refreshToken: string,
  tenantId: string,
  deptId?: string,
  roleId?: string,
): Promise<LoginResult> {
  return request<LoginResult>(`${AUTH}/token`, {
    method: 'POST',
    auth: false,
    silent: true,
    params: { tenantId, refresh_token: refreshToken, grant_type: 'refresh_token', scope: 'all' },
    headers: { [TENANT_HEADER]: tenantId, 'Dept-Id': deptId, 'Role-Id': roleId },
  });
}

export function fetchUserInfo(): Promise<UserInfo> {
  return getData<UserInfo>(`${AUTH}/user-info`);
}

export function requestLogout(): Promise<unknown> {
  return request(`${AUTH}/logout`, { silent: true });
}

export function fetchMenuRoutes(topMenuId?: string): Promise<MenuNode[]> {
  return getData<MenuNode[]>('/api/dfem-system/menu/routes', topMenuId ? { topMenuId } : undefined);
}

export interface ButtonNode {
  code: string;
  children?: ButtonNode[];
}

export function fetchButtons(): Promise<ButtonNode[]> {
  return getData<ButtonNode[]>('/api/dfem-system/menu/buttons');
}

/** Leaf codes of the button tree become permission[code] = true (spec §6). */
export function flattenButtons(nodes: ButtonNode[] | null | undefined): Record<string, boolean> {
  const permission: Record<string, boolean> = {};
  const walk = (list: ButtonNode[]) => {
    for (const node of list) {
      if (node.children?.length) walk(node.children);
      else if (node.code) permission[node.code] = true;
    }
  };
  walk(nodes ?? []);
  return permission;
}

export function updatePassword(
  oldPassword: string,
  newPassword: string,
  newPassword1: string,
): Promise<unknown> {
  return postData('/api/dfem-user/update-password', undefined, {
    oldPassword: md5Hex(oldPassword),
    newPassword: md5Hex(newPassword),
    newPassword1: md5Hex(newPassword1),
  });
}
