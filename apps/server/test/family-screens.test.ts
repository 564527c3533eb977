import { WEB_CLIENT_ID, WEB_CLIENT_SECRET } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { SEED } from '../src/seed/system';
import { family, familyServer, type Node } from './family-kit';
import { clearCaches, grantCodes, makeRole, makeTenant, makeUser } from './fixtures';
import { basic, md5Hex } from './harness';

/**
 * Issue 14: the family's own console (Saber 4.x, `src/api/**` and `src/views/**`) on our server — what its
 * screens read and save: bugs of ours it found, the saves its forms make, and its paths beside ours. Every
 * call is replayed the way that client sends it — its query names, bodies and headers (`Authorization:
 * Basic` always, `Blade-Auth: bearer …` once signed in) — and the fields its screens read are asserted. Its
 * sign-in, download links and menus are family.test.ts.
 */

const k = familyServer();
const { get, post, familyToken, familySignIn } = k;

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
    const db = k.s.database.db;
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
    const db = k.s.database.db;
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
    const en = (
      await get('/api/dfem-system/post/list?current=1&size=50&postCode=fam01', k.admin, 'en')
    ).json().data.records as Node[];
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
    const [seeded] = await k.s.database.db
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
    const signed = await k.s.app.inject({
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
    const granted = await k.s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/grant?userIds=${id}&roleIds=${SEED.userRoleId}`,
      headers: family(k.admin),
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const unlock = await k.s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/unlock?userIds=${id}`,
      headers: family(k.admin),
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    const reset = await k.s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/reset-password?userIds=${id}`,
      headers: family(k.admin),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.headers['cache-control']).toBe('no-store');
    const template = await get('/api/dfem-system/user/export-template');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toMatch(/spreadsheetml/);
    const removed = await k.s.app.inject({
      method: 'POST',
      url: `/api/dfem-system/user/remove?ids=${id}`,
      headers: family(k.admin),
    });
    expect(removed.statusCode, removed.body).toBe(200);
  });

  it('the aliases keep permission codes, tenant isolation and API scopes', async () => {
    const db = k.s.database.db;
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
    expect((await k.s.app.inject({ method: 'GET', url: '/api/dfem-system/region/select' })).statusCode).toBe(
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
    const res = await k.s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      headers: family(k.admin),
      payload: form,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { link, originalName } = res.json().data;
    expect(link).toMatch(/^\/api\/dfem-resource\/file\/avatar\/[0-9a-f-]{36}\.png$/);
    expect(originalName).toBe('avatar.png');
    expect((await k.s.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
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
    const bad = await k.s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      headers: family(k.admin),
      payload: text,
    });
    expect(bad.statusCode).toBe(400);
    const anonymous = await k.s.app.inject({
      method: 'POST',
      url: '/api/dfem-resource/oss/endpoint/put-file',
      payload: form,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
