import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LogRecorder } from '../src/modules/log/recorder';
import { schema } from '../src/platform/db';
import { grantCodes, makeRole, makeTenant, makeUser } from './fixtures';
import { auth, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
});
afterAll(() => s.close());

type Row = Record<string, unknown> & { id: string; createTime: string };
interface PageBody {
  code: number;
  data: { records: Row[]; total: number; size: number; current: number; pages: number };
  msg: string;
}

const get = (url: string, token = admin) => s.app.inject({ method: 'GET', url, headers: auth(token) });
const list = async (kind: 'usual' | 'api' | 'error', query = '', token = admin) => {
  const res = await get(`/api/dfem-log/${kind}/list${query ? `?${query}` : ''}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PageBody).data;
};
const flush = () => s.app.auditLog.flush();
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('the API log', () => {
  it('records a mutating call with method, uri, status, account and duration', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-system/param/submit?note=x',
      headers: { ...auth(admin), 'user-agent': 'log-test-agent' },
      payload: { paramName: 'log test', paramKey: 'log.test.key', paramValue: 'secret-body-value' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await flush();
    const page = await list('api', 'requestUri=param/submit');
    expect(page.total).toBe(1);
    const row = page.records[0];
    expect(row).toMatchObject({
      tenantId: '000000',
      method: 'POST',
      requestUri: '/api/dfem-system/param/submit',
      params: 'note=x',
      statusCode: 200,
      createBy: 'admin',
      title: '/api/dfem-system/param/submit',
      serviceId: 'dfem-system',
      userAgent: 'log-test-agent',
      env: 'test',
    });
    expect(row.id).toMatch(/^\d+$/);
    expect(row.time).toEqual(expect.any(Number));
    expect(row.time as number).toBeGreaterThanOrEqual(0);
    expect(row.remoteIp).toBeTruthy();
    expect(row.serverHost).toBeTruthy();
    expect(row.createTime).toMatch(DATE_TIME);
    // bodies are never stored
    expect(JSON.stringify(page)).not.toContain('secret-body-value');
  });

  it('does not record reads', async () => {
    await get('/api/dfem-system/menu/routes');
    await flush();
    expect((await list('api', 'requestUri=menu/routes')).total).toBe(0);
  });

  it('records sign-in, failure, refresh and logout without any secret', async () => {
    const wrong = md5Hex('not-the-password');
    const failed = await tokenRequest(s, { grant_type: 'password', username: 'admin', password: wrong });
    expect(failed.statusCode).toBe(400);
    const t = await signIn(s);
    const refreshed = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    const r = refreshed.json() as { access_token: string; refresh_token: string };
    const out = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(r.access_token),
      payload: { type: 'logout' },
    });
    expect(out.statusCode).toBe(200);
    await flush();

    const api = await list('api', 'size=200');
    const usual = await list('usual', 'size=200');
    const errors = await list('error', 'size=200');
    for (const body of [api, usual, errors]) {
      const text = JSON.stringify(body);
      for (const secret of [
        md5Hex('admin'),
        wrong,
        t.access_token,
        t.refresh_token,
        r.access_token,
        r.refresh_token,
        '$argon2',
      ])
        expect(text).not.toContain(secret);
    }

    const signIns = api.records.filter((x) => x.requestUri === '/api/dfem-auth/oauth/token');
    const failure = signIns.find((x) => x.statusCode === 400);
    expect(failure).toMatchObject({
      method: 'POST',
      title: 'sign-in',
      createBy: 'admin',
      tenantId: '000000',
    });
    expect(failure?.params).toContain('password=***');
    expect(failure?.params).toContain('username=admin');
    expect(failure?.params).toContain('grant_type=password');
    expect(
      signIns.filter((x) => x.statusCode === 200 && x.title === 'sign-in').length,
    ).toBeGreaterThanOrEqual(2);
    const refresh = signIns.find((x) => x.title === 'token-refresh');
    expect(refresh).toMatchObject({ statusCode: 200, createBy: 'admin' });
    expect(refresh?.params).toContain('refresh_token=***');
    expect(api.records.find((x) => x.requestUri === '/api/dfem-auth/oauth/logout')).toMatchObject({
      method: 'POST',
      statusCode: 200,
      createBy: 'admin',
    });

    const signOut = usual.records.find((x) => x.logId === 'sign-out');
    expect(signOut).toMatchObject({ logLevel: 'INFO', createBy: 'admin', tenantId: '000000' });
    expect(signOut?.logData).toContain('admin');
    const signInRow = usual.records.find((x) => x.logId === 'sign-in');
    expect(signInRow).toMatchObject({ logLevel: 'INFO', createBy: 'admin' });
    expect(signInRow?.logData).toContain('saber');
    // a failed attempt and a refresh are not sign-ins of the usual log
    expect(usual.records.filter((x) => x.logId === 'sign-in').length).toBe(
      signIns.filter((x) => x.statusCode === 200 && x.title === 'sign-in').length,
    );
  });

  it('records a sign-in attempt of an unknown account under the tenant it names', async () => {
    await makeTenant(s.database.db, '300003', 'attempted');
    const res = await tokenRequest(s, {
      tenantId: '300003',
      grant_type: 'password',
      username: 'nobody-here',
      password: md5Hex('x'),
    });
    expect(res.statusCode).toBe(400);
    await flush();
    const [row] = await s.database.db
      .select()
      .from(schema.logApi)
      .where(eq(schema.logApi.createBy, 'nobody-here'));
    expect(row).toMatchObject({ tenantId: '300003', statusCode: 400, title: 'sign-in' });
    expect(row.params).not.toContain(md5Hex('x'));
  });

  it('never fails a request when the log cannot be written', async () => {
    await flush();
    const spy = vi.spyOn(s.database.db, 'insert').mockImplementationOnce(() => {
      throw new Error('simulated disk full');
    });
    try {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/dfem-system/param/submit',
        headers: auth(admin),
        payload: { paramName: 'lost', paramKey: 'log.lost.key', paramValue: 'v' },
      });
      expect(res.statusCode).toBe(200);
      await expect(flush()).resolves.toBeUndefined();
    } finally {
      spy.mockRestore();
    }
    expect(s.logs.join('')).toContain('audit log write failed');
    // the next batch is written again
    await s.app.inject({
      method: 'POST',
      url: '/api/dfem-system/param/submit',
      headers: auth(admin),
      payload: { paramName: 'kept', paramKey: 'log.kept.key', paramValue: 'v' },
    });
    await flush();
    expect((await list('api', 'requestUri=param/submit')).total).toBe(2);
  });
});

describe('the error log', () => {
  it('records an unexpected error with its stack', async () => {
    const spy = vi.spyOn(s.database.db, 'select').mockImplementationOnce(() => {
      throw new Error('simulated database outage');
    });
    let res: Awaited<ReturnType<typeof get>>;
    try {
      res = await get('/api/dfem-auth/oauth/user-info?probe=1&password=hunter2');
    } finally {
      spy.mockRestore();
    }
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('simulated');
    await flush();
    const page = await list('error', 'requestUri=user-info');
    expect(page.total).toBe(1);
    const row = page.records[0];
    expect(row).toMatchObject({
      tenantId: '000000',
      method: 'GET',
      requestUri: '/api/dfem-auth/oauth/user-info',
      params: 'probe=1&password=***',
      createBy: 'admin',
      serviceId: 'dfem-auth',
      exceptionName: 'Error',
      message: 'simulated database outage',
    });
    expect(row.stackTrace).toContain('simulated database outage');
    expect(row.stackTrace).toMatch(/\n\s+at /);
    expect(row.fileName).toContain('log.test.ts');
    expect(row.lineNumber).toEqual(expect.any(Number));
    expect(row.createTime).toMatch(DATE_TIME);

    const detail = await get(`/api/dfem-log/error/detail?id=${row.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ id: row.id, stackTrace: row.stackTrace });
  });

  it('records a failing mutating call in both logs, status 500', async () => {
    await flush();
    const spy = vi.spyOn(s.database.db, 'insert').mockImplementationOnce(() => {
      throw new Error('simulated insert failure');
    });
    try {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/dfem-log/error/report',
        headers: auth(admin),
        payload: [{ type: 'TypeError', message: 'never stored' }],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    await flush();
    const api = await list('api', 'requestUri=/api/dfem-log/error/report');
    expect(api.records.some((x) => x.statusCode === 500)).toBe(true);
    const errors = await list('error', 'requestUri=/api/dfem-log/error/report');
    expect(errors.records[0]).toMatchObject({ message: 'simulated insert failure', method: 'POST' });
  });

  it('masks secrets an error text may hold', async () => {
    const spy = vi.spyOn(s.database.db, 'select').mockImplementationOnce(() => {
      throw new Error(
        `Failed query: select 1\nparams: ${md5Hex('admin')},$argon2id$v=19$m=1,t=1,p=1$abc$def,${admin}`,
      );
    });
    try {
      expect((await get('/api/dfem-auth/oauth/user-info?leak=1')).statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    await flush();
    const text = JSON.stringify(await list('error', 'size=200'));
    expect(text).toMatch(/params: \[redacted/);
    for (const secret of [md5Hex('admin'), '$argon2', admin]) expect(text).not.toContain(secret);
  });
});

describe("the browser's error report", () => {
  const entry = (n: number) => ({
    type: 'TypeError',
    message: `Cannot read properties of undefined (reading 'x${n}')`,
    stack: `TypeError: Cannot read properties of undefined\n    at onClick (https://console.example/assets/index-abc.js:12:345)\n    at callWithErrorHandling (https://console.example/assets/vendor.js:1:2)`,
    info: 'v-on handler',
    url: `https://console.example/system/user?tab=${n}&token=leaked`,
    time: '2026-01-15 10:30:00',
  });

  it('stores an array of entries and answers how many', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-log/error/report',
      headers: auth(admin),
      payload: [entry(1), entry(2)],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, success: true, data: 2 });
    const page = await list('error', 'serviceId=web');
    expect(page.total).toBe(2);
    const row = page.records.find((x) => String(x.message).includes("'x1'"));
    expect(row).toMatchObject({
      tenantId: '000000',
      serviceId: 'web',
      exceptionName: 'TypeError',
      message: "Cannot read properties of undefined (reading 'x1')",
      stackTrace: entry(1).stack,
      requestUri: 'https://console.example/system/user?tab=1&token=***',
      methodName: 'v-on handler',
      fileName: 'https://console.example/assets/index-abc.js',
      lineNumber: 12,
      createBy: 'admin',
    });
  });

  it('accepts { logs: [...] } and minimal entries', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-log/error/report',
      headers: auth(admin),
      payload: { logs: [{ message: 'only a message' }] },
    });
    expect(res.json()).toMatchObject({ code: 200, data: 1 });
    expect((await list('error', 'serviceId=web')).total).toBe(3);
  });

  it.each([
    ['a message too long', [{ message: 'x'.repeat(2001) }]],
    ['a stack too long', [{ message: 'm', stack: 'x'.repeat(10_001) }]],
    ['a url too long', [{ message: 'm', url: 'x'.repeat(1001) }]],
    ['a type too long', [{ message: 'm', type: 'x'.repeat(256) }]],
    ['an info too long', [{ message: 'm', info: 'x'.repeat(256) }]],
    ['no message', [{ type: 'Error' }]],
    ['more than 100 entries', Array.from({ length: 101 }, () => ({ message: 'm' }))],
    ['not a list', { message: 'm' }],
    ['a number as message', [{ message: 42 }]],
  ])('refuses %s with 400', async (_name, payload) => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-log/error/report',
      headers: auth(admin),
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false });
  });

  it('needs a signed-in user', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-log/error/report',
      payload: [{ message: 'anonymous' }],
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('lists and details', () => {
  it('pages newest first', async () => {
    await s.app.auditLog.flush(); // every write so far is in, so the two reads below see the same rows
    const all = await list('api', 'size=200');
    expect(all.total).toBeGreaterThan(3);
    const times = all.records.map((r) => r.createTime);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await list('api', 'current=2&size=1');
    expect(second).toMatchObject({ current: 2, size: 1, total: all.total, pages: all.total });
    expect(second.records).toHaveLength(1);
    expect(second.records[0].id).toBe(all.records[1].id);
  });

  it('filters by createTime range, account, uri and service', async () => {
    const [row] = (await list('api', 'requestUri=param/submit&size=1')).records;
    const at = row.createTime;
    const day = at.slice(0, 10);
    const ids = async (q: string) => (await list('api', `size=200&${q}`)).records.map((r) => r.id);
    expect(await ids(`createTime_dategt=${encodeURIComponent(at)}`)).toContain(row.id);
    expect(await ids(`createTime_datelt=${encodeURIComponent(at)}`)).not.toContain(row.id);
    expect(await ids(`createTime_dategt=${day}&createTime_datelt=${day}`)).toContain(row.id);
    expect((await list('api', 'createTime_datelt=2000-01-01')).total).toBe(0);
    expect((await list('api', 'createTime_dategt=2999-01-01')).total).toBe(0);
    expect((await list('api', 'createBy=ADM')).total).toBeGreaterThan(0);
    expect((await list('api', 'createBy=nobody')).total).toBe(0);
    expect(
      (await list('api', 'serviceId=dfem-system')).records.every((r) => r.serviceId === 'dfem-system'),
    ).toBe(true);
    expect((await list('api', 'serviceId=dfem-sys')).total).toBe(0);
    // an empty search box filters nothing
    expect((await list('api', 'requestUri=&createBy=')).total).toBe((await list('api')).total);
    // % and _ are literal
    expect((await list('api', 'requestUri=%25')).total).toBe(0);
  });

  it.each([
    ['an unknown key', 'foo=1', '不支持的查询条件: foo'],
    ['a sort', 'descs=createTime', '不支持的查询条件: descs'],
    ['a filter on another column', 'statusCode=200', '不支持的查询条件: statusCode'],
    ['an impossible date', 'createTime_dategt=2026-02-30', undefined],
    ['a malformed date', 'createTime_datelt=yesterday', undefined],
    ['a page size too large', 'size=1000', undefined],
    ['a page of zero', 'current=0', undefined],
  ])('refuses %s with 400', async (_name, query, msg) => {
    for (const kind of ['usual', 'api', 'error']) {
      const res = await get(`/api/dfem-log/${kind}/list?${query}`);
      expect(res.statusCode, `${kind} ${res.body}`).toBe(400);
      if (msg) expect(res.json().msg).toBe(msg);
    }
  });

  it('answers a detail, 404 for an unknown id and 400 for a malformed one', async () => {
    const [row] = (await list('api')).records;
    const res = await get(`/api/dfem-log/api/detail?id=${row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(row);
    expect((await get('/api/dfem-log/api/detail?id=1')).statusCode).toBe(404);
    expect((await get('/api/dfem-log/usual/detail?id=1')).statusCode).toBe(404);
    expect((await get('/api/dfem-log/api/detail?id=abc')).statusCode).toBe(400);
    const [usual] = (await list('usual')).records;
    expect((await get(`/api/dfem-log/usual/detail?id=${usual.id}`)).json().data).toEqual(usual);
  });

  it('needs a token', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/dfem-log/api/list' });
    expect(res.statusCode).toBe(401);
  });
});

describe('tenants and permissions', () => {
  it("another tenant's administrator sees none of tenant 000000's logs", async () => {
    const db = s.database.db;
    await makeTenant(db, '200002', 'other village');
    const roleId = await makeRole(db, '200002', 'administrator');
    await grantCodes(db, roleId, 'all');
    await makeUser(db, { tenantId: '200002', account: 'otherboss', roleIds: [roleId] });
    const res = await tokenRequest(s, {
      tenantId: '200002',
      grant_type: 'password',
      username: 'otherboss',
      password: md5Hex('pass'),
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = (res.json() as { access_token: string }).access_token;
    await s.app.inject({
      method: 'POST',
      url: '/api/dfem-log/error/report',
      headers: auth(token),
      payload: [{ message: 'from the other tenant' }],
    });
    await flush();

    const api = await list('api', 'size=200', token);
    const usual = await list('usual', 'size=200', token);
    const errors = await list('error', 'size=200', token);
    expect(api.total).toBeGreaterThanOrEqual(2); // its sign-in and its report
    expect(usual.total).toBe(1);
    expect(errors.total).toBe(1);
    for (const page of [api, usual, errors]) {
      for (const r of page.records) {
        expect(r.tenantId).toBe('200002');
        expect(r.createBy).toBe('otherboss');
      }
    }
    // and no detail of the platform tenant either
    const [mine] = (await list('api', 'size=1')).records;
    expect((await get(`/api/dfem-log/api/detail?id=${mine.id}`, token)).statusCode).toBe(404);
    // the platform administrator does not see the other tenant's rows either
    expect((await list('usual', 'size=200')).records.some((r) => r.createBy === 'otherboss')).toBe(false);
  });

  it('a user without log_api gets 403 (and without log_api_view no detail)', async () => {
    const db = s.database.db;
    const roleId = await makeRole(db, '000000', 'log-reader');
    await grantCodes(db, roleId, ['log', 'log_usual', 'log_error', 'log_error_view']);
    await makeUser(db, { account: 'logreader', roleIds: [roleId] });
    const { access_token: token } = await signIn(s, 'logreader', 'pass');
    expect((await get('/api/dfem-log/api/list', token)).statusCode).toBe(403);
    expect((await get('/api/dfem-log/api/detail?id=1', token)).statusCode).toBe(403);
    expect((await get('/api/dfem-log/usual/list', token)).statusCode).toBe(200);
    const [u] = (await list('usual', '', token)).records;
    expect((await get(`/api/dfem-log/usual/detail?id=${u.id}`, token)).statusCode).toBe(403);
    expect((await get('/api/dfem-log/error/list', token)).statusCode).toBe(200);
    // any signed-in user may report the browser's errors
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-log/error/report',
      headers: auth(token),
      payload: [{ message: 'from a plain user' }],
    });
    expect(res.json()).toMatchObject({ code: 200, data: 1 });
  });

  it('the seeded menu tree has the log screens with their view buttons', async () => {
    const routes = (await get('/api/dfem-system/menu/routes')).json().data as {
      code: string;
      children?: { code: string; path: string }[];
    }[];
    const log = routes.find((m) => m.code === 'log');
    expect(log?.children?.map((c) => c.code)).toEqual(['log_usual', 'log_api', 'log_error']);
    const buttons = JSON.stringify((await get('/api/dfem-system/menu/buttons')).json().data);
    for (const code of ['log_usual_view', 'log_api_view', 'log_error_view']) expect(buttons).toContain(code);
  });
});

describe('the recorder', () => {
  it('writes what is queued when it closes', async () => {
    const lines: unknown[] = [];
    const logger = { error: (...a: unknown[]) => lines.push(a), warn: (...a: unknown[]) => lines.push(a) };
    const recorder = new LogRecorder(s.database.db, logger as never, { intervalMs: 60_000 });
    recorder.recordUsual({ tenantId: '000000', logId: 'close-test', logLevel: 'INFO', logData: 'queued' });
    expect(recorder.queued).toBe(1);
    await recorder.close();
    expect(recorder.queued).toBe(0);
    expect((await list('usual', 'size=200')).records.some((r) => r.logId === 'close-test')).toBe(true);
    expect(lines).toEqual([]);
  });

  it('drops rows past its cap instead of growing without bound', async () => {
    const lines: unknown[] = [];
    const logger = { error: (...a: unknown[]) => lines.push(a), warn: (...a: unknown[]) => lines.push(a) };
    const recorder = new LogRecorder(s.database.db, logger as never, {
      intervalMs: 60_000,
      batchRows: 1000,
      maxQueued: 2,
    });
    for (let i = 0; i < 5; i++) recorder.recordUsual({ tenantId: '000000', logId: 'cap-test' });
    expect(recorder.queued).toBe(2);
    await recorder.close();
    expect(lines).toHaveLength(1);
  });
});
