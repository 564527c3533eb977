import { MENU_TREE, WEB_CLIENT_ID, WEB_CLIENT_SECRET } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILY_MENUS } from '../src/modules/system/family-client';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { SEED } from '../src/seed/system';
import { clearCaches, grantCodes, makeRole, makeTenant, makeUser } from './fixtures';
import { basic, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * Issue 14: the family's own console (Saber 4.x, `src/api/**` and `src/views/**`) on our server. Every call
 * is replayed the way that client sends it — its query names, bodies and headers (`Authorization: Basic`
 * always, `Blade-Auth: bearer …` once signed in) — and the fields its screens read are asserted.
 */

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
});
afterAll(() => s.close());

/** The family's axios: the Basic client header on every request, the token when there is one. */
const family = (token?: string, lang?: string) => ({
  authorization: basic(),
  ...(token ? { 'blade-auth': `bearer ${token}` } : {}),
  ...(lang ? { 'accept-language': lang } : {}),
});
const get = (url: string, token = admin, lang?: string) =>
  s.app.inject({ method: 'GET', url, headers: family(token, lang) });
const post = (url: string, payload?: object, token = admin) =>
  s.app.inject({ method: 'POST', url, headers: family(token), ...(payload ? { payload } : {}) });

/** `loginByUsername` / `refreshToken` of the family's api/user.js. */
const familyToken = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  s.app.inject({
    method: 'POST',
    url: `/api/dfem-auth/token?${new URLSearchParams(params)}`,
    headers: { ...family(), ...headers },
  });
const familySignIn = (account = 'admin', password = 'admin', tenantId = '000000') =>
  familyToken({ grantType: 'password', tenantId, account, password: md5Hex(password), type: 'account' });

type Node = { code: string; children?: Node[]; hasChildren?: boolean } & Record<string, unknown>;
/** The family's SET_PERMISSION: codes of the nodes that have no `children` at all. */
function familyPermissions(list: Node[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (n.children) walk(n.children);
      else out[n.code] = true;
    }
  };
  walk(list);
  return out;
}

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
    const badClient = await s.app.inject({
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
    const db = s.database.db;
    const role = await makeRole(db, '000000', 'locked_family');
    await makeUser(db, { account: 'lockme', roleIds: [role], deptId: SEED.rootDeptId });
    for (let i = 0; i < 3; i++) expect((await familySignIn('lockme', 'bad')).statusCode).toBe(400);
    for (let i = 0; i < 2; i++)
      expect(
        (await tokenRequest(s, { grant_type: 'password', username: 'lockme', password: md5Hex('bad') }))
          .statusCode,
      ).toBe(400);
    const locked = await familySignIn('lockme', 'pass');
    expect(locked.statusCode).toBe(400);
    expect(locked.json().msg).toMatch(/锁定|30/);
  });

  it('is recorded in the API and usual logs as a sign-in, without the password', async () => {
    await familySignIn();
    await s.app.auditLog.flush();
    const api = await s.database.db
      .select()
      .from(schema.logApi)
      .where(eq(schema.logApi.requestUri, '/api/dfem-auth/token'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.some((r) => r.title === 'sign-in' && r.createBy === 'admin')).toBe(true);
    expect(JSON.stringify(api)).not.toContain(md5Hex('admin'));
    // nor in the request log: the md5 and the tokens of the query are masked
    const first = (await familySignIn()).json().data;
    await familyToken({ grantType: 'refresh_token', scope: 'all', refreshToken: first.refreshToken });
    const log = s.logs.join('');
    expect(log).toContain('/api/dfem-auth/token');
    for (const secret of [md5Hex('admin'), first.refreshToken, first.accessToken])
      expect(log).not.toContain(secret);
    const usual = await s.database.db
      .select()
      .from(schema.logUsual)
      .where(eq(schema.logUsual.logId, 'sign-in'));
    expect(usual.some((r) => String(r.logData).includes('grant password'))).toBe(true);
  });
});

describe('the family captcha: GET /api/dfem-auth/captcha and grantType=captcha', () => {
  let c: TestServer;
  beforeAll(async () => {
    c = await startTestServer({ CAPTCHA_MODE: 'true' }, { alongside: s });
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

describe('bugs of ours the family found', () => {
  it('menu/buttons: leaves carry no children, so the family finds every code', async () => {
    const tree = (await get('/api/dfem-system/menu/buttons')).json().data as Node[];
    const walk = (nodes: Node[]): void => {
      for (const n of nodes) {
        if (n.children) {
          expect(n.children.length, n.code).toBeGreaterThan(0);
          walk(n.children);
        }
      }
    };
    walk(tree);
    const permission = familyPermissions(tree);
    for (const code of ['menu_add', 'dept_edit', 'user_delete', 'post_view'])
      expect(permission[code], code).toBe(true);
    // the family's own codes beside ours
    for (const code of ['data_scope_setting', 'topmenu_setting', 'region_debug'])
      expect(permission[code], code).toBe(true);
  });

  it('family codes follow ours: not held without our code', async () => {
    const db = s.database.db;
    const role = await makeRole(db, '000000', 'scope_viewer');
    await grantCodes(db, role, ['authority', 'data_scope', 'data_scope_view']);
    await makeUser(db, { account: 'scopeviewer', roleIds: [role], deptId: SEED.rootDeptId });
    const token = (await familySignIn('scopeviewer', 'pass')).json().data.accessToken;
    const permission = familyPermissions((await get('/api/dfem-system/menu/buttons', token)).json().data);
    expect(permission.data_scope_view).toBe(true);
    expect(permission.data_scope_setting).toBeUndefined();
  });

  it('menu/lazy-menu-list and lazy-list say which nodes have children; parentId= is the root', async () => {
    for (const path of ['lazy-menu-list', 'lazy-list']) {
      const roots = (await get(`/api/dfem-system/menu/${path}?parentId=0`)).json().data as Node[];
      const system = roots.find((r) => r.code === 'system');
      expect(system?.hasChildren, path).toBe(true);
      // the family's search reset sends parentId=0, its first load may send it empty
      const empty = await get(`/api/dfem-system/menu/${path}?parentId=`);
      expect(empty.statusCode, path).toBe(200);
      expect((empty.json().data as Node[]).map((r) => r.code)).toEqual(roots.map((r) => r.code));
      const children = (await get(`/api/dfem-system/menu/${path}?parentId=${menuId('system')}`)).json()
        .data as Node[];
      expect(children.length).toBeGreaterThanOrEqual(13);
      const dict = children.find((c) => c.code === 'dict');
      // menus only: the dictionary screen has buttons (category 2) but no menu below it
      if (path === 'lazy-menu-list') expect(dict?.hasChildren).toBe(false);
      else expect(dict?.hasChildren).toBe(true);
    }
    // the family's search: parentId= with a name filter searches every level
    const found = (
      await get(`/api/dfem-system/menu/lazy-menu-list?parentId=&name=${encodeURIComponent('菜单管理')}`)
    ).json().data as Node[];
    expect(found.map((r) => r.code)).toContain('menu');
  });

  it('dept/lazy-list and dept/lazy-tree say which depts have children', async () => {
    const list = (await get('/api/dfem-system/dept/lazy-list?parentId=0')).json().data as Node[];
    expect(list.find((d) => d.id === SEED.rootDeptId)?.hasChildren).toBe(true);
    const below = (await get(`/api/dfem-system/dept/lazy-list?parentId=${SEED.rootDeptId}`)).json()
      .data as Node[];
    expect(below.find((d) => d.deptName === '运营部')?.hasChildren).toBe(true);
    expect(below.find((d) => d.deptName === '财务部')?.hasChildren).toBe(false);
    const tree = (await get('/api/dfem-system/dept/lazy-tree?parentId=')).json().data as Node[];
    expect(tree.find((d) => d.id === SEED.rootDeptId)).toMatchObject({
      title: '智慧乡村',
      hasChildren: true,
    });
  });

  it('dict/list answers the tree also when current and size are sent', async () => {
    const res = await get('/api/dfem-system/dict/list?current=1&size=10&code=sex');
    const data = res.json().data as Node[];
    expect(Array.isArray(data)).toBe(true);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ code: 'sex', dictKey: '-1' });
    expect(data[0].children?.map((c) => c.dictKey)).toEqual(['1', '2', '3']);
  });

  it('dept/tree and role/tree take tenantId: the platform administrator picks any tenant, others only their own', async () => {
    const db = s.database.db;
    await makeTenant(db, '200001', '家族租户');
    await db
      .insert(schema.dept)
      .values({ tenantId: '200001', deptName: '别家机构', fullName: '别家机构', parentId: '0' });
    const otherRole = await makeRole(db, '200001', 'administrator', '别家管理员');
    await grantCodes(db, otherRole, 'all');
    await makeUser(db, { account: 'otheradmin', roleIds: [otherRole], tenantId: '200001' });
    const mine = (await get('/api/dfem-system/dept/tree?tenantId=000000')).json();
    expect(mine.code).toBe(200);
    expect(JSON.stringify(mine.data)).toContain('智慧乡村');
    const theirs = (await get('/api/dfem-system/dept/tree?tenantId=200001')).json();
    expect(theirs.code).toBe(200);
    expect(JSON.stringify(theirs.data)).toContain('别家机构');
    expect(JSON.stringify(theirs.data)).not.toContain('智慧乡村');
    const roles = (await get('/api/dfem-system/role/tree?tenantId=200001')).json().data as Node[];
    expect(roles.map((r) => r.title)).toEqual(['别家管理员']);
    expect((await get('/api/dfem-system/dept/tree?tenantId=')).statusCode).toBe(200);
    expect((await get('/api/dfem-system/dept/tree?tenantId=abc')).statusCode).toBe(400);

    // the other tenant's administrator: its own tenant only, never the platform's
    const other = (await familySignIn('otheradmin', 'pass', '200001')).json().data.accessToken;
    expect((await get('/api/dfem-system/dept/tree?tenantId=200001', other)).statusCode).toBe(200);
    for (const url of [
      '/api/dfem-system/dept/tree?tenantId=000000',
      '/api/dfem-system/role/tree?tenantId=000000',
    ]) {
      const res = await get(url, other);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain('智慧乡村');
    }
    // a platform user who is not an administrator: its own tenant only
    const role = await makeRole(db, '000000', 'dept_reader');
    await grantCodes(db, role, ['dept', 'dept_view']);
    await makeUser(db, { account: 'deptreader', roleIds: [role], deptId: SEED.rootDeptId });
    const reader = (await familySignIn('deptreader', 'pass')).json().data.accessToken;
    expect((await get('/api/dfem-system/dept/tree?tenantId=200001', reader)).statusCode).toBe(403);
    expect((await get('/api/dfem-system/dept/tree?tenantId=000000', reader)).statusCode).toBe(200);
  });

  it('rows carry <dict field>Name in the caller language: posts, notices, data scopes', async () => {
    const postRes = await post('/api/dfem-system/post/submit', {
      category: 2,
      postCode: 'fam01',
      postName: '家族岗位',
      sort: 1,
    });
    expect(postRes.statusCode, postRes.body).toBe(200);
    expect(postRes.json().data.categoryName).toBe('中层');
    const posts = (await get('/api/dfem-system/post/list?current=1&size=50')).json().data.records as Node[];
    expect(posts.find((p) => p.postCode === 'fam01')?.categoryName).toBe('中层');
    const en = (await get('/api/dfem-system/post/list?current=1&size=50&postCode=fam01', admin, 'en')).json()
      .data.records as Node[];
    expect(en[0].categoryName).toBe('Middle management');

    const notice = await post('/api/dfem-desk/notice/submit', {
      title: '家族通知',
      category: 1,
      releaseTime: '2024-01-01 10:00:00',
      content: 'x',
    });
    expect(notice.statusCode, notice.body).toBe(200);
    const notices = (await get('/api/dfem-desk/notice/list?current=1&size=10')).json().data.records as Node[];
    expect(notices.find((n) => n.title === '家族通知')?.categoryName).toBe('发布通知');
    const detail = (await get(`/api/dfem-desk/notice/detail?id=${notice.json().data.id}`)).json().data;
    expect(detail.categoryName).toBe('发布通知');

    const scope = await post('/api/dfem-system/data-scope/submit', {
      menuId: menuId('notice'),
      scopeName: '通知管理 [本人可见]',
      resourceCode: 'notice',
      scopeColumn: 'create_user',
      scopeType: 2,
      scopeField: '*',
      scopeClass: 'org.springblade.desk.mapper.NoticeMapper.selectNoticePage',
    });
    expect(scope.statusCode, scope.body).toBe(200);
    const scopes = (
      await get(`/api/dfem-system/data-scope/list?current=1&size=10&menuId=${menuId('notice')}`)
    ).json().data.records as Node[];
    expect(scopes[0]).toMatchObject({ scopeTypeName: '本人可见', scopeType: 2 });
  });
});

describe('saves the family forms make', () => {
  it("a client is edited as the family's form saves it: a placeholder for the secret, kept when sent back; the seeded client has a redirect URI", async () => {
    const [seeded] = await s.database.db
      .select({ id: schema.client.id })
      .from(schema.client)
      .where(eq(schema.client.clientId, WEB_CLIENT_ID));
    const detail = (await get(`/api/dfem-system/client/detail?id=${seeded.id}`)).json().data;
    // the secret is never answered: a placeholder stands for it; the form's required 回调地址 has a value
    expect(detail.clientSecret).toBe('********');
    expect(JSON.stringify(detail)).not.toMatch(/argon2/);
    expect(detail.webServerRedirectUri).toMatch(/^https?:\/\//);
    // the form sends the whole record back, the placeholder included: the stored secret is kept
    const saved = await post('/api/dfem-system/client/submit', { ...detail, accessTokenValidity: 7200 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await familySignIn()).statusCode).toBe(200);
    // a new secret typed in replaces it: the old one no longer signs in
    const changed = await post('/api/dfem-system/client/submit', {
      ...detail,
      clientSecret: 'a-new-secret-2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await familySignIn()).statusCode).toBe(401);
    const withNew = await familyToken(
      {
        grantType: 'password',
        tenantId: '000000',
        account: 'admin',
        password: md5Hex('admin'),
        type: 'account',
      },
      { authorization: basic(WEB_CLIENT_ID, 'a-new-secret-2026') },
    );
    expect(withNew.statusCode, withNew.body).toBe(200);
    // put back (the other tests sign in with the seeded secret)
    const back = await post(
      '/api/dfem-system/client/submit',
      { ...detail, clientSecret: WEB_CLIENT_SECRET },
      withNew.json().data.accessToken,
    );
    expect(back.statusCode, back.body).toBe(200);
  });

  it('a department without deptCategory is a company', async () => {
    const res = await post('/api/dfem-system/dept/submit', {
      tenantId: '000000',
      deptName: '家族机构',
      fullName: '家族机构全称',
      parentId: SEED.rootDeptId,
      sort: 9,
      remark: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ deptCategory: 1, deptCategoryName: '公司' });
  });

  it('a menu with an icon-font icon of the family is kept', async () => {
    const res = await post('/api/dfem-system/menu/submit', {
      name: '家族菜单',
      code: 'family_menu',
      path: '/family/menu',
      parentId: menuId('system'),
      source: 'iconfont iconicon_setting',
      category: 1,
      alias: 'menu',
      action: 0,
      isOpen: 1,
      sort: 99,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.source).toBe('iconfont iconicon_setting');
    const bad = await post('/api/dfem-system/menu/submit', {
      name: '坏图标',
      code: 'bad_icon',
      path: '/bad',
      source: '<img src=x onerror=alert(1)>',
      category: 1,
      sort: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('source');
  });

  it('a client with the family grant names; unknown ones refused; an edit without the secret keeps it', async () => {
    const res = await post('/api/dfem-system/client/submit', {
      clientId: 'family_client',
      clientSecret: 'family_secret',
      scope: 'all',
      authorizedGrantTypes: 'refresh_token,password,authorization_code,captcha,social',
      accessTokenValidity: 3600,
      refreshTokenValidity: 604800,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    // never the secret: its placeholder
    expect(res.json().data.clientSecret).toBe('********');
    const bogus = await post('/api/dfem-system/client/submit', {
      id,
      authorizedGrantTypes: 'password,bogus',
    });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().data.field).toBe('authorizedGrantTypes');
    // the family's edit dialog sends the row back without the secret it never saw
    const edit = await post('/api/dfem-system/client/submit', {
      id,
      clientId: 'family_client',
      scope: 'all',
      authorizedGrantTypes: 'refresh_token,password',
      accessTokenValidity: 7200,
      refreshTokenValidity: 604800,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const signed = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-auth/token?grantType=password&tenantId=000000&account=admin&password=${md5Hex('admin')}`,
      headers: { authorization: basic('family_client', 'family_secret') },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data.expiresIn).toBe(7200);
  });

  it('a region with the family level field', async () => {
    const res = await post('/api/dfem-system/region/submit', {
      parentCode: '52',
      code: '5297',
      subCode: '97',
      name: '家族市',
      level: 2,
      sort: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = (await get('/api/dfem-system/region/detail?code=5297')).json().data;
    expect(detail).toMatchObject({ regionLevel: 2, level: 2, parentCode: '52' });
  });

  it('a data scope keeps scopeColumn, scopeField and scopeClass; they are checked names, never SQL', async () => {
    const body = {
      menuId: menuId('post'),
      scopeName: '岗位管理 [所在机构可见]',
      resourceCode: 'post',
      scopeColumn: 'create_dept',
      scopeType: 3,
      scopeField: '*',
      scopeClass: 'org.springblade.system.mapper.PostMapper.selectPostPage',
      remark: '',
    };
    const res = await post('/api/dfem-system/data-scope/submit', body);
    expect(res.statusCode, res.body).toBe(200);
    const detail = (await get(`/api/dfem-system/data-scope/detail?id=${res.json().data.id}`)).json().data;
    expect(detail).toMatchObject({
      scopeColumn: 'create_dept',
      scopeField: '*',
      scopeClass: body.scopeClass,
      scopeTypeName: '所在机构可见',
    });
    for (const [field, value] of [
      ['scopeColumn', 'create_dept; drop table blade_user'],
      ['scopeField', "id,name' or '1'='1"],
      ['scopeClass', 'a b'],
    ]) {
      const bad = await post('/api/dfem-system/data-scope/submit', { ...body, [field]: value });
      expect(bad.statusCode, field).toBe(400);
      expect(bad.json().data.field).toBe(field);
    }
  });
});

describe('the family paths beside ours', () => {
  it('users under /api/dfem-system/user/* are the /api/dfem-user handlers', async () => {
    const list = await get('/api/dfem-system/user/list?current=1&size=10');
    expect(list.statusCode, list.body).toBe(200);
    const ours = (await get('/api/dfem-user/page?current=1&size=10')).json().data;
    expect(list.json().data.total).toBe(ours.total);
    expect(list.json().data.records.map((r: Node) => r.id)).toEqual(ours.records.map((r: Node) => r.id));
    expect((await get('/api/dfem-system/user/page?current=1&size=10')).json().data.total).toBe(ours.total);
    const detail = (await get(`/api/dfem-system/user/detail?id=${SEED.adminUserId}`)).json().data;
    expect(detail).toMatchObject({ account: 'admin' });
    expect(JSON.stringify(detail)).not.toMatch(/password|argon/i);
    expect((await get('/api/dfem-system/user/info')).json().data.account).toBe('admin');

    const created = await post('/api/dfem-system/user/submit', {
      account: 'familyuser',
      name: '家族',
      realName: '家族用户',
      password: md5Hex('Family#2024'),
      password2: md5Hex('Family#2024'),
      roleId: SEED.userRoleId,
      deptId: SEED.rootDeptId,
      tenantId: '000000',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as string;
    const granted = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/grant?userIds=${id}&roleIds=${SEED.userRoleId}`,
      headers: family(admin),
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const unlock = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/unlock?userIds=${id}`,
      headers: family(admin),
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    const reset = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/reset-password?userIds=${id}`,
      headers: family(admin),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.headers['cache-control']).toBe('no-store');
    const template = await get('/api/dfem-system/user/export-template');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toMatch(/spreadsheetml/);
    const removed = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/remove?ids=${id}`,
      headers: family(admin),
    });
    expect(removed.statusCode, removed.body).toBe(200);
  });

  it('the aliases keep permission codes, tenant isolation and API scopes', async () => {
    const db = s.database.db;
    const role = await makeRole(db, '000000', 'no_users');
    await grantCodes(db, role, ['post', 'post_view']);
    await makeUser(db, { account: 'nousers', roleIds: [role], deptId: SEED.rootDeptId });
    const token = (await familySignIn('nousers', 'pass')).json().data.accessToken;
    expect((await get('/api/dfem-system/user/list', token)).statusCode).toBe(403);
    expect((await get(`/api/dfem-system/user/detail?id=${SEED.adminUserId}`, token)).statusCode).toBe(403);
    // an API scope over /api/dfem-user/** covers the alias too
    const reader = await makeRole(db, '000000', 'user_reader');
    await grantCodes(db, reader, ['user', 'user_view']);
    await makeUser(db, { account: 'userreader', roleIds: [reader], deptId: SEED.rootDeptId });
    const readerToken = (await familySignIn('userreader', 'pass')).json().data.accessToken;
    expect((await get('/api/dfem-system/user/list', readerToken)).statusCode).toBe(200);
    const scope = await post('/api/dfem-system/api-scope/submit', {
      menuId: menuId('user'),
      scopeName: '用户接口',
      resourceCode: 'user',
      scopePath: '/api/dfem-user/**',
      scopeType: 1,
    });
    expect(scope.statusCode, scope.body).toBe(200);
    clearCaches();
    expect((await get('/api/dfem-user/page', readerToken)).statusCode).toBe(403);
    expect((await get('/api/dfem-system/user/list', readerToken)).statusCode).toBe(403);
    expect((await get('/api/dfem-system/user/page', readerToken)).statusCode).toBe(403);
    await post(`/api/dfem-system/api-scope/remove?ids=${scope.json().data.id}`);
    clearCaches();
  });

  it('tenant/select: every tenant for the platform administrator, its own for anyone else', async () => {
    const all = (await get('/api/dfem-system/tenant/select')).json().data as Node[];
    expect(all.map((t) => t.tenantId)).toEqual(expect.arrayContaining(['000000', '200001']));
    expect(all[0]).toHaveProperty('tenantName');
    const other = (await familySignIn('otheradmin', 'pass', '200001')).json().data.accessToken;
    const own = (await get('/api/dfem-system/tenant/select', other)).json().data as Node[];
    expect(own.map((t) => t.tenantId)).toEqual(['200001']);
  });

  it('region/select: the divisions below a code, as the cascading pickers read them', async () => {
    const provinces = (await get('/api/dfem-system/region/select')).json().data as Node[];
    expect(provinces.find((p) => p.code === '52')).toMatchObject({ name: '贵州省' });
    const cities = (await get('/api/dfem-system/region/select?code=52')).json().data as Node[];
    expect(cities.every((c) => String(c.code).startsWith('52'))).toBe(true);
    expect(cities.length).toBeGreaterThan(0);
    expect((await get('/api/dfem-system/region/select?code=x')).statusCode).toBe(400);
    expect((await s.app.inject({ method: 'GET', url: '/api/dfem-system/region/select' })).statusCode).toBe(
      401,
    );
  });

  it('oss/endpoint/put-file stores the avatar and answers its link; the profile keeps it', async () => {
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)]), 'avatar.png');
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      headers: family(admin),
      payload: form,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { link, originalName } = res.json().data;
    expect(link).toMatch(/^\/api\/dfem-resource\/file\/avatar\/[0-9a-f-]{36}\.png$/);
    expect(originalName).toBe('avatar.png');
    expect((await s.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    // the family's info screen then saves the profile with it
    const saved = await post('/api/dfem-system/user/update-info', {
      avatar: link,
      realName: '管理员',
      phone: '13800000000',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get('/api/dfem-system/user/info')).json().data.avatar).toBe(link);
    // not an image: refused
    const text = new FormData();
    text.append('file', new Blob([new Uint8Array(Buffer.from('hello'))]), 'a.png');
    const bad = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      headers: family(admin),
      payload: text,
    });
    expect(bad.statusCode).toBe(400);
    const anonymous = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      payload: form,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the family’s download links: ?blade-auth= on an Excel export or template', () => {
  const link = (url: string, token: string) =>
    s.app.inject({
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
      const res = await link(url, admin);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
    }
    expect(s.logs.join('\n')).not.toContain(admin);
    const logged = await s.database.db.select({ params: schema.logApi.params }).from(schema.logApi);
    expect(logged.map((r) => r.params ?? '').join('\n')).not.toContain(admin);
  });

  it('anywhere else a token in the query is no token: 401', async () => {
    for (const url of [
      '/api/dfem-user/page?current=1&size=10',
      '/api/dfem-hope-manage/villager/page?current=1',
    ])
      expect((await link(url, admin)).statusCode, url).toBe(401);
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
    const ours = (await get('/api/dfem-system/menu/routes', admin)).json().data as MenuTree[];
    const mine = byCode(ours);
    expect(mine.get('role')).toMatchObject({ path: '/system/role', source: 'TeamOutlined' });
    expect(mine.get('region')?.path).toBe('/system/region');
    expect(mine.get('log_usual')?.path).toBe('/log/usual');
    expect(mine.get('system')?.source).toBe('SettingOutlined');
    const shape = (nodes: MenuTree[]) => flat(nodes).map((n) => [n.id, n.code, n.name, n.parentId]);
    expect(shape(theirs)).toEqual(shape(ours));
  });

  it('a refresh on the family path stays the family’s; the same grants decide what either console sees', async () => {
    const db = s.database.db;
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
    const ours = (await signIn(s, 'familylogs', 'pass')).access_token;
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
    const db = s.database.db;
    const role = await makeRole(db, '000000', 'no_avatar');
    await grantCodes(db, role, ['desk', 'notice', 'notice_view']);
    await makeUser(db, { account: 'noavatar', roleIds: [role], deptId: SEED.rootDeptId });
    const signed = (await familySignIn('noavatar', 'pass')).json().data;
    expect(signed.avatar).toMatch(/^\/api\/dfem-/);
    const image = await s.app.inject({ method: 'GET', url: signed.avatar });
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
    const ours = await signIn(s, 'noavatar', 'pass');
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
    const put = await s.app.inject({
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
    expect((await signIn(s, 'noavatar', 'pass')).avatar).toBe(link);
  });
});
