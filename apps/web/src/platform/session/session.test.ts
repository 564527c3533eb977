import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureHttp, getData, HttpError } from '../http/client';
import { clearErrorLog, installErrorCollector, useErrorLog } from './errorLog';
import {
  ensureSessionData,
  isGuestUser,
  pendingRefresh,
  refreshAccessToken,
  refreshIfDue,
  switchDeptRole,
  useSession,
} from './session';
import { useSettings } from './settings';
import { HOME_TAG, isClosable, type Tag, useTags } from './tags';

/**
 * Token refresh (spec §4) against a real local HTTP server standing in for the token endpoint: one
 * refresh at a time, requests made meanwhile wait and carry the new token.
 */
let server: Server;
let base = '';
let refreshCalls: { deptId?: string; roleId?: string; refreshToken: string }[] = [];
let refreshDelayMs = 0;
let refreshFails = false;
let issued = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/dfem-auth/oauth/token') {
      refreshCalls.push({
        deptId: req.headers['dept-id'] as string | undefined,
        roleId: req.headers['role-id'] as string | undefined,
        refreshToken: url.searchParams.get('refresh_token') ?? '',
      });
      setTimeout(() => {
        if (refreshFails) return send(400, { error_code: 400, error_description: 'invalid refresh token' });
        issued += 1;
        send(200, {
          access_token: `access-${issued}`,
          refresh_token: `refresh-${issued}`,
          expires_in: 3600,
          tenant_id: '000000',
          user_id: '1',
          role_id: req.headers['role-id'] ?? 'r1,r2',
          dept_id: req.headers['dept-id'] ?? 'd1',
          role_name: 'administrator',
        });
      }, refreshDelayMs);
      return;
    }
    seen.push(String(req.headers['blade-auth'] ?? ''));
    if (url.pathname === '/api/dfem-system/menu/routes') return send(200, { code: 200, data: [] });
    if (url.pathname === '/api/dfem-system/menu/buttons') return send(200, { code: 200, data: [] });
    send(200, { code: 200, data: { id: '1', roleName: 'administrator' } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the app's paths are relative: send them to the local server
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((input: string, init?: RequestInit) =>
    realFetch(input.startsWith('/') ? base + input : input, init)) as typeof fetch;
  configureHttp({ getToken: () => useSession.getState().token, pendingRefresh, getLanguage: () => 'zh-CN' });
});

afterAll(() => new Promise((r) => server.close(r)));

beforeEach(() => {
  refreshCalls = [];
  seen.length = 0;
  refreshDelayMs = 0;
  refreshFails = false;
  useSession.setState({
    token: 'access-0',
    refreshToken: 'refresh-0',
    tokenIssuedAt: Date.now(),
    expiresIn: 3600,
    tenantId: '000000',
    userInfo: { id: '1' } as never,
  });
  useSettings.setState({ settings: { ...useSettings.getState().settings, tokenTime: 5 } });
});

describe('token refresh', () => {
  it('runs one refresh for many callers; requests made meanwhile wait and carry the new token', async () => {
    refreshDelayMs = 150;
    const refreshes = [refreshAccessToken(), refreshAccessToken(), refreshAccessToken()];
    expect(pendingRefresh()).not.toBeNull();
    const requests = Array.from({ length: 10 }, () => getData('/api/x'));
    await Promise.all([...refreshes, ...requests]);
    expect(refreshCalls).toHaveLength(1);
    expect(refreshCalls[0].refreshToken).toBe('refresh-0');
    const { token, refreshToken } = useSession.getState();
    expect(seen).toEqual(Array(10).fill(`bearer ${token}`));
    expect(refreshToken).toBe(token.replace('access', 'refresh'));
    expect(pendingRefresh()).toBeNull();
  });

  it('refreshes when the token is as old as the token time, not before', async () => {
    const now = Date.now();
    useSession.setState({ tokenIssuedAt: now - 4_000 });
    expect(refreshIfDue(now)).toBeNull();
    useSession.setState({ tokenIssuedAt: now - 5_000 });
    await refreshIfDue(now);
    expect(refreshCalls).toHaveLength(1);
  });

  it('does not refresh an unregistered third-party session', () => {
    useSession.setState({ tokenIssuedAt: 1, userInfo: { id: '-1' } as never });
    expect(refreshIfDue()).toBeNull();
  });

  it('a failed refresh rejects (the shell then logs out) and requests still go out', async () => {
    refreshFails = true;
    const refresh = refreshAccessToken();
    const call = getData('/api/x');
    await expect(refresh).rejects.toBeInstanceOf(HttpError);
    await call;
    expect(seen).toEqual(['bearer access-0']);
  });

  it('a switch asked for during a refresh runs after it, with its dept and role', async () => {
    refreshDelayMs = 50;
    const plain = refreshAccessToken();
    const narrowed = refreshAccessToken('d2', 'r2');
    await Promise.all([plain, narrowed]);
    expect(refreshCalls.map((c) => [c.deptId, c.roleId])).toEqual([
      [undefined, undefined],
      ['d2', 'r2'],
    ]);
    // chained: the switch spends the refresh token the first refresh returned
    expect(refreshCalls[1].refreshToken).toBe(`refresh-${issued - 1}`);
    expect(useSession.getState().userInfo?.roleId).toBe('r2');
  });

  it('switchDeptRole narrows the token, resets tabs and reloads the menu', async () => {
    useTags.getState().add({ ...HOME_TAG, label: 'x', value: '/x/index', meta: {} });
    await switchDeptRole('d9', 'r9');
    expect(refreshCalls.at(-1)).toMatchObject({ deptId: 'd9', roleId: 'r9' });
    expect(useTags.getState().tags).toEqual([HOME_TAG]);
    expect(useSession.getState().loaded).toBe(true);
  });
});

describe('guest (unregistered third-party) sessions', () => {
  it('have no user id or a negative one', () => {
    expect(isGuestUser({ id: '' })).toBe(true);
    expect(isGuestUser({ id: '-1' })).toBe(true);
    expect(isGuestUser({ id: '1123598821738675201' })).toBe(false);
    expect(isGuestUser(null)).toBe(false);
  });

  it('fetch nothing: there is no account to ask about', async () => {
    useSession.setState({ userInfo: { id: '-1' } as never, loaded: false });
    await ensureSessionData(true);
    expect(seen).toEqual([]);
    expect(useSession.getState().loaded).toBe(true);
  });
});

describe('tabs', () => {
  const t = (value: string): Tag => ({ ...HOME_TAG, label: value, value, meta: {} });
  beforeEach(() => useTags.getState().reset());

  it('the only tab and the home tab (first page off) cannot be closed', () => {
    expect(isClosable(HOME_TAG, [HOME_TAG])).toBe(false);
    useTags.getState().add(t('/a'));
    const tags = useTags.getState().tags;
    expect(isClosable(HOME_TAG, tags)).toBe(false);
    expect(isClosable(t('/a'), tags)).toBe(true);
    useTags.getState().remove(HOME_TAG.value);
    expect(useTags.getState().tags).toHaveLength(2);
  });

  it('close others keeps the home tab; close all leaves only it', () => {
    for (const v of ['/a', '/b', '/c']) useTags.getState().add(t(v));
    useTags.getState().closeOthers('/b');
    expect(useTags.getState().tags.map((x) => x.value)).toEqual([HOME_TAG.value, '/b']);
    useTags.getState().closeAll();
    expect(useTags.getState().tags).toEqual([HOME_TAG]);
  });
});

describe('client error log', () => {
  it('collects uncaught errors and rejections (type, message, stack, info, url, time), not http failures', async () => {
    clearErrorLog();
    const target = new EventTarget();
    const stop = installErrorCollector(target as unknown as Window);
    const boom = new Error('boom');
    target.dispatchEvent(
      Object.assign(new Event('error'), {
        error: boom,
        message: 'boom',
        filename: 'a.js',
        lineno: 3,
        colno: 7,
      }),
    );
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('nope') }));
    target.dispatchEvent(
      Object.assign(new Event('unhandledrejection'), {
        reason: new HttpError('server said no', 400, 400, null),
      }),
    );
    target.dispatchEvent(
      Object.assign(new Event('error'), { message: 'ResizeObserver loop limit exceeded' }),
    );
    stop();
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('after stop'), message: 'x' }));
    // written together, right after the burst
    expect(useErrorLog.getState().logs).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const logs = useErrorLog.getState().logs;
    expect(logs.map((l) => [l.type, l.message])).toEqual([
      ['unhandledrejection', 'nope'],
      ['error', 'boom'],
    ]);
    expect(logs[1].info).toBe('a.js:3:7');
    expect(logs[1].stack).toContain('boom');
    expect(logs[1].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('writes a burst of errors to the store once, newest first', async () => {
    clearErrorLog();
    let writes = 0;
    const unsubscribe = useErrorLog.subscribe(() => {
      writes += 1;
    });
    const target = new EventTarget();
    const stop = installErrorCollector(target as unknown as Window);
    for (let i = 0; i < 120; i += 1) {
      target.dispatchEvent(
        Object.assign(new Event('error'), { error: new Error(`bulk ${i}`), message: 'x' }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    stop();
    unsubscribe();
    const logs = useErrorLog.getState().logs;
    expect(writes).toBe(1);
    expect(logs).toHaveLength(120);
    expect(logs[0].message).toBe('bulk 119');
    expect(logs[119].message).toBe('bulk 0');
  });
});
