import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, signIn, startTestServer, type TestServer } from './harness';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'GET', url, headers: { ...auth(token), ...headers } });

describe('envelope and errors', () => {
  it('wraps data in the envelope with msg in the request language', async () => {
    const zh = (await get('/api/dfem-auth/oauth/user-info')).json();
    expect(zh).toMatchObject({ code: 200, success: true, msg: '操作成功' });
    const en = (await get('/api/dfem-auth/oauth/user-info', { 'accept-language': 'en' })).json();
    expect(en.msg).toBe('Operation successful');
  });

  it('an unknown endpoint is a 404 envelope', async () => {
    const res = await get('/api/dfem-system/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, success: false, data: null, msg: '接口不存在' });
  });

  it('bad input is a 400 that names the field, without stack or SQL', async () => {
    const res = await get('/api/dfem-user/page?current=0&size=10');
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('current');
    expect(res.json().msg).toContain('current');
    const big = await get('/api/dfem-user/page?size=100000');
    expect(big.statusCode).toBe(400);
    expect(big.body).not.toMatch(/at .*\.ts|select|stack/i);
  });

  it('sends security headers: an API answer may run nothing and be framed nowhere', async () => {
    const res = await get('/api/dfem-auth/oauth/settings');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    // a page (and its assets) has the console's own policy
    const page = await s.app.inject({ method: 'GET', url: '/wel/index' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('menus and buttons', () => {
  it('routes answers the role’s menu tree with the contract fields', async () => {
    const res = await get('/api/dfem-system/menu/routes');
    expect(res.statusCode).toBe(200);
    const tree = res.json().data;
    expect(tree.length).toBeGreaterThan(0);
    const system = tree.find((n: { code: string }) => n.code === 'system');
    expect(system).toMatchObject({ name: '系统管理', path: '/system', category: 1, parentId: '0' });
    for (const key of [
      'id',
      'parentId',
      'code',
      'name',
      'alias',
      'path',
      'source',
      'sort',
      'category',
      'action',
      'isOpen',
      'children',
    ])
      expect(system).toHaveProperty(key);
    expect(system.children.length).toBeGreaterThan(0);
    // buttons (category 2) never appear among menus
    const all = JSON.stringify(tree);
    expect(all).not.toContain('"category":2');
  });

  it('menus are named in the request language', async () => {
    const en = (await get('/api/dfem-system/menu/routes', { 'accept-language': 'en' })).json().data;
    expect(en.find((n: { code: string }) => n.code === 'system').name).toBe('System');
    const zh = (await get('/api/dfem-system/menu/routes')).json().data;
    expect(zh.find((n: { code: string }) => n.code === 'system').name).toBe('系统管理');
  });

  it('a role without grants sees no menus and no buttons', async () => {
    const { hashSecret } = await import('../src/platform/auth/password');
    const { schema } = await import('../src/platform/db');
    const { md5Hex } = await import('./harness');
    const [u] = await s.database.db
      .insert(schema.user)
      .values({ account: 'plain', password: await hashSecret(md5Hex('plain')) })
      .returning({ id: schema.user.id });
    await s.database.db.insert(schema.userRole).values({ userId: u.id, roleId: '1123598816738675202' });
    const t = (await signIn(s, 'plain', 'plain')).access_token;
    const menus = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-system/menu/routes',
      headers: auth(t),
    });
    expect(menus.json().data).toEqual([]);
    const buttons = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-system/menu/buttons',
      headers: auth(t),
    });
    expect(buttons.json().data).toEqual([]);
  });

  it('buttons answers granted button codes under their menus', async () => {
    const tree = (await get('/api/dfem-system/menu/buttons')).json().data;
    const codes = JSON.stringify(tree).match(/"code":"[a-z_]+"/g) ?? [];
    expect(codes).toContain('"code":"param_add"');
    expect(codes).toContain('"code":"param_delete"');
  });
});

describe('dictionary and tenant info', () => {
  it('dictionary answers the entries of one code in order', async () => {
    const rows = (await get('/api/dfem-system/dict/dictionary?code=sex')).json().data;
    expect(rows.map((r: { dictValue: string }) => r.dictValue)).toEqual(['男', '女', '未知']);
    expect(rows[0]).toMatchObject({ code: 'sex', dictKey: '1', isSealed: 0 });
  });

  it('the flow dictionary carries the route remark used by flowRoutes', async () => {
    const rows = (await get('/api/dfem-system/dict/dictionary?code=flow')).json().data;
    expect(rows[0]).toMatchObject({ dictKey: '1', dictValue: '请假流程', remark: 'leave' });
  });

  it('tenant info is public and answers {} for an unknown domain', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-system/tenant/info?domain=nowhere.example',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({});
  });
});

describe('users page', () => {
  it('pages users of the caller’s tenant with role and dept names', async () => {
    const page = (await get('/api/dfem-user/page?current=1&size=10')).json().data;
    expect(page).toMatchObject({ current: 1, size: 10, pages: 1 });
    expect(page.total).toBe(page.records.length);
    const admin = page.records.find((r: { account: string }) => r.account === 'admin');
    expect(admin).toMatchObject({ roleName: '超级管理员', deptName: '智慧乡村' });
    expect(admin.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('treats quotes and wildcards in filters as plain text', async () => {
    for (const v of ["1' OR '1'='1", '%', '_']) {
      const res = await get(`/api/dfem-user/page?account=${encodeURIComponent(v)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.total).toBe(0);
    }
  });
});
