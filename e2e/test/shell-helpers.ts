/**
 * Helpers of the shell's browser tests: extra servers with their own settings (token time, switch mode),
 * sessions signed in through the API, and API calls as the administrator.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContextOptions } from '@playwright/test';
import { freePort, stop, waitForServer, webDist } from '../global-setup';
import { ADMIN } from './fixtures';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** The eleven layout themes, in the theme dialog's order (spec §2). */
export const THEME_NAMES = [
  'theme-default',
  'theme-white',
  'theme-dark',
  'theme-star',
  'theme-smart',
  'theme-iview',
  'theme-vip',
  'theme-cool',
  'theme-d2',
  'theme-hey',
  'theme-lte',
];

/** The columns of the user import's template, as a person fills them in. */
export const USER_IMPORT_HEADERS = [
  '登录账号',
  '用户姓名',
  '用户昵称',
  '手机号码',
  '电子邮箱',
  '用户性别',
  '用户生日',
  '所属角色',
  '所属机构',
];

export interface ExtraServer {
  baseURL: string;
  stop: () => Promise<void>;
}

/** Starts the production server on a free port with a fresh data folder and the given environment. */
export async function startServer(env: Record<string, string>): Promise<ExtraServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'smart-e2e-extra-'));
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dataDir, 'data'),
      WEB_DIST: webDist(),
      CAPTCHA_MODE: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${baseURL}/api/dfem-auth/oauth/settings`, child, logFile, 90_000);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return {
    baseURL,
    stop: async () => {
      await stop(child);
      log.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TokenResult {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  tenant_id: string;
  user_id: string;
  [key: string]: unknown;
}

async function passwordGrant(baseURL: string, password: string): Promise<TokenResult | null> {
  const query = new URLSearchParams({
    tenantId: '000000',
    username: ADMIN.username,
    password: md5(password),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${baseURL}/api/dfem-auth/oauth/token?${query}`, {
    method: 'POST',
    headers: { authorization: BASIC },
  });
  return res.ok ? ((await res.json()) as TokenResult) : null;
}

/** The administrator signed in through the API (the seeded password is changed first on a new server). */
export async function adminToken(baseURL: string): Promise<TokenResult> {
  const session = await passwordGrant(baseURL, ADMIN.password);
  if (session) return session;
  const seeded = await passwordGrant(baseURL, ADMIN.seededPassword);
  if (!seeded) throw new Error('cannot sign in as admin');
  const query = new URLSearchParams({
    oldPassword: md5(ADMIN.seededPassword),
    newPassword: md5(ADMIN.password),
    newPassword1: md5(ADMIN.password),
  });
  const res = await fetch(`${baseURL}/api/dfem-user/update-password?${query}`, {
    method: 'POST',
    headers: { 'blade-auth': `bearer ${seeded.access_token}`, authorization: BASIC },
  });
  if (!res.ok) throw new Error(`update-password: ${res.status}`);
  return adminToken(baseURL);
}

/** A JSON API client with the given token. */
export function api(baseURL: string, token: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(baseURL + path, {
      method,
      headers: {
        authorization: BASIC,
        'blade-auth': `bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; data: T; msg: string };
    if (json.code !== 200) throw new Error(`${method} ${path}: ${res.status} ${json.msg}`);
    return json.data;
  };
  return {
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body),
  };
}

/**
 * The browser storage the web app keeps for a session (cookie and localStorage keys), so a context starts
 * signed in. `user` overrides what the session knows of the user (e.g. an unregistered social sign-in).
 */
export function sessionState(
  baseURL: string,
  session: Pick<TokenResult, 'access_token' | 'refresh_token' | 'expires_in' | 'tenant_id'>,
  user?: Record<string, unknown>,
): NonNullable<BrowserContextOptions['storageState']> {
  const now = Date.now();
  const cookie = (name: string, value: string) => ({
    name,
    value: encodeURIComponent(value),
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax' as const,
  });
  const blob = {
    state: {
      tokenIssuedAt: now,
      expiresIn: Number(session.expires_in) || 0,
      tenantId: session.tenant_id,
      passwordChangeRequired: false,
      ...(user ? { userInfo: user } : {}),
    },
    version: 0,
  };
  return {
    cookies: [
      cookie('saber-access-token', session.access_token),
      cookie('saber-refresh-token', session.refresh_token),
    ],
    origins: [
      {
        origin: baseURL,
        localStorage: [
          { name: 'saber-token', value: session.access_token },
          { name: 'saber-refresh-token', value: session.refresh_token },
          { name: 'saber-token-time', value: String(now) },
          { name: 'saber-session', value: JSON.stringify(blob) },
        ],
      },
    ],
  };
}
