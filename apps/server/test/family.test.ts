import { MENU_TREE } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILY_MENUS } from '../src/modules/system/family-client';
import { schema } from '../src/platform/db';
import { SEED } from '../src/seed/system';
import { familyServer, type Node } from './family-kit';
import { grantCodes, makeRole, makeUser } from './fixtures';
import { basic, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * Issue 14: the family's own console (Saber 4.x, `src/api/**` and `src/views/**`) on our server — its
 * sign-in on its own path (the token, its refresh, the lockout, the captcha), its download links, and the
 * menus and avatar a session there is answered. Every call is replayed the way that client sends it — its
 * query names, bodies and headers (`Authorization: Basic` always, `Blade-Auth: bearer …` once signed in) —
 * and the fields its screens read are asserted. What its screens read and save is family-screens.test.ts.
 */

const k = familyServer();
const { get, post, familyToken, familySignIn } = k;

describe('the family sign-in: POST /api/dfem-auth/token', () => {
  it('answers the envelope with the fields the family stores', async () => {
    const res = await familySignIn();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ code: 200, success: true });
    const d = body.data;
    expect(d).toMatchObject({
      tenantId: '000000',
      userId: SEED.adminUserId,
      account: 'admin',
      tokenType: 'bearer',
      authority: 'administrator',
    });
    // the family's client shows the administrator's buttons when `authority.includes('admin')`
    expect(d.authority.includes('admin')).toBe(true);
    for (const k of ['accessToken', 'refreshToken', 'userName', 'avatar', 'expiresIn', 'roleId', 'deptId'])
      expect(d, k).toHaveProperty(k);
    expect(d.expiresIn).toBeGreaterThan(0);
    // the token works as ours does
    const buttons = await get('/api/dfem-system/menu/buttons', d.accessToken);
    expect(buttons.statusCode).toBe(200);
    // no password hash in the answer
    expect(JSON.stringify(body)).not.toMatch(/argon2|\$argon/);
  });

  it('refreshes with grantType=refresh_token, rotating: a used refresh token is refused', async () => {
    const first = (await familySignIn()).json().data;
    const next = await familyToken({
      grantType: 'refresh_token',
      scope: 'all',
      refreshToken: first.refreshToken,
    });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().data.accessToken).toBeTruthy();
    expect(next.json().data.refreshToken).not.toBe(first.refreshToken);
    const again = await familyToken({
      grantType: 'refresh_token',
      scope: 'all',
      refreshToken: first.refreshToken,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 400, success: false });
    expect(typeof again.json().msg).toBe('string');
    // the replay ended the family: the rotated token is dead too
    const rotated = await familyToken({
      grantType: 'refresh_token',
      scope: 'all',
      refreshToken: next.json().data.refreshToken,
    });
    expect(rotated.statusCode).toBe(400);
  });

  it('errors are { code, msg } in the request language; a bad client is a 401', async () => {
    const wrong = await familySignIn('admin', 'nope');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 400, success: false, msg: '用户名或密码不正确' });
    const badClient = await k.s.app.inject({
      method: 'POST',
      url: `/api/dfem-auth/token?grantType=password&account=admin&password=${md5Hex('admin')}`,
      headers: { authorization: basic('saber', 'wrong-secret') },
    });
    expect(badClient.statusCode).toBe(401);
    expect(badClient.json().code).toBe(401);
    const unknownGrant = await familyToken({ grantType: 'social', tenantId: '000000', source: 'github' });
    expect(unknownGrant.statusCode).toBe(400);
    expect(unknownGrant.json().code).toBe(400);
  });

  it('shares the lockout with /oauth/token: failures on either path count together', async () => {
    const db = k.s.database.db;
    const role = await makeRole(db, '000000', 'locked_family');
    await makeUser(db, { account: 'lockme', roleIds: [role], deptId: SEED.rootDeptId });
    for (let i = 0; i < 3; i++) expect((await familySignIn('lockme', 'bad')).statusCode).toBe(400);
    for (let i = 0; i < 2; i++)
      expect(
        (await tokenRequest(k.s, { grant_type: 'password', username: 'lockme', password: md5Hex('bad') }))
          .statusCode,
      ).toBe(400);
    const locked = await familySignIn('lockme', 'pass');
    expect(locked.statusCode).toBe(400);
    expect(locked.json().msg).toMatch(/锁定|30/);
  });

  it('is recorded in the API and usual logs as a sign-in, without the password', async () => {
    await familySignIn();
    await k.s.app.auditLog.flush();
    const api = await k.s.database.db
      .select()
      .from(schema.logApi)
      .where(eq(schema.logApi.requestUri, '/api/dfem-auth/token'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.some((r) => r.title === 'sign-in' && r.createBy === 'admin')).toBe(true);
    expect(JSON.stringify(api)).not.toContain(md5Hex('admin'));
    // nor in the request log: the md5 and the tokens of the query are masked
    const first = (await familySignIn()).json().data;
    await familyToken({ grantType: 'refresh_token', scope: 'all', refreshToken: first.refreshToken });
    const log = k.s.logs.join('');
    expect(log).toContain('/api/dfem-auth/token');
    for (const secret of [md5Hex('admin'), first.refreshToken, first.accessToken])
      expect(log).not.toContain(secret);
    const usual = await k.s.database.db
      .select()
      .from(schema.logUsual)
      .where(eq(schema.logUsual.logId, 'sign-in'));
    expect(usual.some((r) => String(r.logData).includes('grant password'))).toBe(true);
  });
});

describe('the family captcha: GET /api/dfem-auth/captcha and grantType=captcha', () => {
  let c: TestServer;
  beforeAll(async () => {
    c = await startTestServer({ CAPTCHA_MODE: 'true' }, { alongside: k.s });
  });
  afterAll(() => c.close());

  it('answers { key, image } in the envelope; the captcha grant checks Captcha-Key / Captcha-Code', async () => {
    const res = await c.app.inject({ method: 'GET', url: '/api/dfem-auth/captcha' });
    expect(res.statusCode).toBe(200);
    const { key, image } = res.json().data;
    expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
    const answer = (await c.kv.get(`captcha:${key}`)) as string;
    const params = {
      grantType: 'captcha',
      tenantId: '000000',
      account: 'admin',
      password: md5Hex('admin'),
      type: 'account',
    };
    const send = (k: string, code: string) =>
      c.app.inject({
        method: 'POST',
        url: `/api/dfem-auth/token?${new URLSearchParams(params)}`,
        headers: { authorization: basic(), 'captcha-key': k, 'captcha-code': code },
      });
    const ok = await send(key, answer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.accessToken).toBeTruthy();
    // spent: the same answer again is refused
    expect((await send(key, answer)).statusCode).toBe(400);
    // the password grant may not skip it while captcha mode is on
    const skip = await c.app.inject({
      method: 'POST',
      url: `/api/dfem-auth/token?${new URLSearchParams({ ...params, grantType: 'password' })}`,
      headers: { authorization: basic() },
    });
    expect(skip.statusCode).toBe(400);
  });
});

describe('the family’s download links: ?blade-auth= on an Excel export or template', () => {
  const link = (url: string, token: string) =>
    k.s.app.inject({
      method: 'GET',
      url: `${url}${url.includes('?') ? '&' : '?'}blade-auth=${encodeURIComponent(`bearer ${token}`)}`,
    });

  it('the user export, its template and a resource export open as links; the token is never logged', async () => {
    for (const url of [
      '/api/dfem-system/user/export-user?account=admin',
      '/api/dfem-user/export-template',
      '/api/dfem-hope-manage/villager/excel/export?villageGroup=1',
      '/api/dfem-hope-manage/villager/excel/template',
    ]) {
      const res = await link(url, k.admin);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
    }
    expect(k.s.logs.join('\n')).not.toContain(k.admin);
    const logged = await k.s.database.db.select({ params: schema.logApi.params }).from(schema.logApi);
    expect(logged.map((r) => r.params ?? '').join('\n')).not.toContain(k.admin);
  });

  it('anywhere else a token in the query is no token: 401', async () => {
    for (const url of [
      '/api/dfem-user/page?current=1&size=10',
      '/api/dfem-hope-manage/villager/page?current=1',
    ])
      expect((await link(url, k.admin)).statusCode, url).toBe(401);
  });
});

/**
 * Issue 40, item 4: the family's router builds a screen from a menu's path (`src/views<path>.vue`) and draws
 * its `source` as a class of its icon fonts (`iconfont icon…`) or Element's (`el-icon-…`); its top bar
 * draws `avatar` as an <img>. A session signed in on its path (`POST /token`) is answered its names; ours
 * (`POST /oauth/token`) keeps ours. The menus are the same ones: only their names differ.
 */
describe('menus the family console can open and draw, and a real avatar', () => {
  const ONE_PIXEL_PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  );
  /** The screens of the family's console (its `src/views`, vue2 line 4.7.0) that ours has too. */
  const FAMILY_VIEWS = [
    '/desk/notice',
    '/system/user',
    '/system/dept',
    '/system/dict',
    '/system/menu',
    '/system/post',
    '/system/param',
    '/system/tenant',
    '/system/client',
    '/system/topmenu',
    '/authority/role',
    '/authority/datascope',
    '/base/region',
    '/monitor/log/usual',
    '/monitor/log/api',
    '/monitor/log/error',
    '/report/reportlist',
  ];
  /** the family's icon classes: its two icon fonts, or Element's */
  const DRAWABLE = /^(?:iconfont icon[\w-]+|el-icon-[a-z0-9-]+)$/;

  type MenuTree = Node & { path: string; source: string; id: string };
  const flat = (nodes: MenuTree[]): MenuTree[] =>
    nodes.flatMap((n) => [n, ...flat((n.children ?? []) as MenuTree[])]);
  const byCode = (nodes: MenuTree[]) => new Map(flat(nodes).map((n) => [n.code, n]));

  it('the one table names screens of our menu tree by their code and our path', () => {
    const ours = new Map<string, string>();
    const walk = (nodes: typeof MENU_TREE) => {
      for (const n of nodes) {
        ours.set(n.code, n.path);
        walk(n.children ?? []);
      }
    };
    walk(MENU_TREE);
    for (const [code, entry] of Object.entries(FAMILY_MENUS)) {
      expect(ours.get(code), code).toBe(entry.ours);
      expect(entry.source, code).toMatch(DRAWABLE);
      if (entry.path && !['/monitor/log'].includes(entry.path))
        expect(FAMILY_VIEWS, code).toContain(entry.path);
    }
  });

  it("the family's routes: its paths for the screens both consoles have, icons it can draw; ours keep ours", async () => {
    const family = (await familySignIn()).json().data.accessToken as string;
    const res = await get('/api/dfem-system/menu/routes', family);
    expect(res.statusCode, res.body).toBe(200);
    const theirs = res.json().data as MenuTree[];
    const menus = byCode(theirs);
    expect(menus.get('role')?.path).toBe('/authority/role');
    expect(menus.get('region')?.path).toBe('/base/region');
    expect(menus.get('log')?.path).toBe('/monitor/log');
    expect(menus.get('log_usual')?.path).toBe('/monitor/log/usual');
    expect(menus.get('log_api')?.path).toBe('/monitor/log/api');
    expect(menus.get('log_error')?.path).toBe('/monitor/log/error');
    expect(menus.get('report')?.path).toBe('/report/reportlist');
    expect(menus.get('system')?.source).toBe('iconfont iconicon_setting');
    expect(menus.get('role')?.source).toBe('iconfont iconicon_boss');
    // every screen the family's console has is reached by a menu of its path, and every icon is drawable
    const paths = flat(theirs).map((n) => n.path);
    for (const view of FAMILY_VIEWS) expect(paths, view).toContain(view);
    for (const n of flat(theirs)) expect(n.source, `${n.code}: ${n.source}`).toMatch(DRAWABLE);
    // the renamed screens' first calls, as their pages send them, answer the shapes they read
    for (const url of [
      '/api/dfem-system/role/list',
      '/api/dfem-system/region/lazy-tree?parentCode=00',
      '/api/dfem-log/usual/list?current=1&size=20',
      '/api/dfem-log/api/list?current=1&size=20',
      '/api/dfem-log/error/list?current=1&size=20',
      '/api/dfem-report/report/rest/list?current=1&size=10',
    ]) {
      const page = await get(url, family);
      expect(page.statusCode, `${url}: ${page.body.slice(0, 200)}`).toBe(200);
      const data = page.json().data;
      expect(Array.isArray(data) || Array.isArray(data?.records), url).toBe(true);
    }

    // our console, the same administrator: our paths and antd icon names, the very same menus
    const ours = (await get('/api/dfem-system/menu/routes', k.admin)).json().data as MenuTree[];
    const mine = byCode(ours);
    expect(mine.get('role')).toMatchObject({ path: '/system/role', source: 'TeamOutlined' });
    expect(mine.get('region')?.path).toBe('/system/region');
    expect(mine.get('log_usual')?.path).toBe('/log/usual');
    expect(mine.get('system')?.source).toBe('SettingOutlined');
    const shape = (nodes: MenuTree[]) => flat(nodes).map((n) => [n.id, n.code, n.name, n.parentId]);
    expect(shape(theirs)).toEqual(shape(ours));
  });

  it('a refresh on the family path stays the family’s; the same grants decide what either console sees', async () => {
    const db = k.s.database.db;
    const role = await makeRole(db, '000000', 'family_logs');
    await grantCodes(db, role, ['log', 'log_usual', 'log_usual_view', 'system', 'role', 'role_view']);
    await makeUser(db, { account: 'familylogs', roleIds: [role], deptId: SEED.rootDeptId });
    const first = (await familySignIn('familylogs', 'pass')).json().data;
    const next = (
      await familyToken({ grantType: 'refresh_token', scope: 'all', refreshToken: first.refreshToken })
    ).json().data;
    const theirs = (await get('/api/dfem-system/menu/routes', next.accessToken)).json().data as MenuTree[];
    expect(flat(theirs).map((n) => [n.code, n.path])).toEqual([
      ['system', '/system'],
      ['role', '/authority/role'],
      ['log', '/monitor/log'],
      ['log_usual', '/monitor/log/usual'],
    ]);
    const ours = (await signIn(k.s, 'familylogs', 'pass')).access_token;
    const mine = (await get('/api/dfem-system/menu/routes', ours)).json().data as MenuTree[];
    expect(flat(mine).map((n) => [n.code, n.path])).toEqual([
      ['system', '/system'],
      ['role', '/system/role'],
      ['log', '/log'],
      ['log_usual', '/log/usual'],
    ]);
    // the renamed menus open nothing more: the screens' calls are checked as ever
    expect((await get('/api/dfem-system/user/list?current=1&size=10', next.accessToken)).statusCode).toBe(
      403,
    );
    expect((await get('/api/dfem-system/role/list', next.accessToken)).statusCode).toBe(200);
    expect((await get('/api/dfem-log/usual/list?current=1&size=10', next.accessToken)).statusCode).toBe(200);
  });

  it('top menus: the family gets an icon it can draw, ours keep theirs; one it can draw is kept', async () => {
    const made = await post('/api/dfem-system/topmenu/submit', {
      code: 'fam_top',
      name: '家族顶部',
      source: 'AppstoreOutlined',
      sort: 1,
    });
    expect(made.statusCode, made.body).toBe(200);
    const kept = await post('/api/dfem-system/topmenu/submit', {
      code: 'fam_top_el',
      name: '家族顶部二',
      source: 'el-icon-menu',
      sort: 2,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const family = (await familySignIn()).json().data.accessToken as string;
    const theirs = (await get('/api/dfem-system/menu/top-menu', family)).json().data as MenuTree[];
    expect(theirs.find((t) => t.code === 'fam_top')?.source).toBe('iconfont icon-caidan');
    expect(theirs.find((t) => t.code === 'fam_top_el')?.source).toBe('el-icon-menu');
    const ours = (await get('/api/dfem-system/menu/top-menu')).json().data as MenuTree[];
    expect(ours.find((t) => t.code === 'fam_top')?.source).toBe('AppstoreOutlined');
  });

  it('a user without an avatar: the family is answered a picture the server serves, ours the empty value', async () => {
    const db = k.s.database.db;
    const role = await makeRole(db, '000000', 'no_avatar');
    await grantCodes(db, role, ['desk', 'notice', 'notice_view']);
    await makeUser(db, { account: 'noavatar', roleIds: [role], deptId: SEED.rootDeptId });
    const signed = (await familySignIn('noavatar', 'pass')).json().data;
    expect(signed.avatar).toMatch(/^\/api\/dfem-/);
    const image = await k.s.app.inject({ method: 'GET', url: signed.avatar });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(image.body).toContain('<svg');
    // the family's profile screen (its getUserInfo)
    const info = (await get('/api/dfem-system/user/info', signed.accessToken)).json().data;
    expect(info.avatar).toBe(signed.avatar);
    expect((await get('/api/dfem-auth/oauth/user-info', signed.accessToken)).json().data.avatar).toBe(
      signed.avatar,
    );
    // our console keeps the empty value (it draws its own placeholder)
    const ours = await signIn(k.s, 'noavatar', 'pass');
    expect(ours.avatar).toBe('');
    expect((await get('/api/dfem-user/info', ours.access_token)).json().data.avatar ?? '').toBe('');
    // the profile sent back with the default it was shown: still no avatar of one's own
    const saved = await post(
      '/api/dfem-system/user/update-info',
      { avatar: signed.avatar, realName: 'noavatar', phone: '13800000001' },
      signed.accessToken,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get('/api/dfem-user/info', ours.access_token)).json().data.avatar ?? '').toBe('');
    // an avatar of one's own is answered as it is, on either path
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(ONE_PIXEL_PNG)]), 'me.png');
    const put = await k.s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      headers: { authorization: basic(), 'blade-auth': `bearer ${signed.accessToken}` },
      payload: form,
    });
    expect(put.statusCode, put.body).toBe(200);
    const link = put.json().data.link as string;
    const own = await post(
      '/api/dfem-system/user/update-info',
      { avatar: link, realName: 'noavatar', phone: '13800000001' },
      signed.accessToken,
    );
    expect(own.statusCode, own.body).toBe(200);
    expect((await familySignIn('noavatar', 'pass')).json().data.avatar).toBe(link);
    expect((await signIn(k.s, 'noavatar', 'pass')).avatar).toBe(link);
  });
});
