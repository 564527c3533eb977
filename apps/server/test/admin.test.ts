import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { SEED } from '../src/seed/system';
import { clearCaches, grantCodes, makeRole, makeUser } from './fixtures';
import { auth, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });
const login = (username: string, password: string, tenantId = '000000') =>
  tokenRequest(s, { grant_type: 'password', username, password: md5Hex(password), tenantId });
const changePassword = (token: string, oldPassword: string, newPassword: string) =>
  s.app.inject({
    method: 'POST',
    url: `/api/dfem-user/update-password?${new URLSearchParams({
      oldPassword: md5Hex(oldPassword),
      newPassword: md5Hex(newPassword),
      newPassword1: md5Hex(newPassword),
    })}`,
    headers: auth(token),
  });

/** A new tenant's administrator signs in with the password answered once, and changes it (as it must). */
async function tenantAdmin(created: { data: { tenantId: string; adminPassword: string } }) {
  const { tenantId, adminPassword } = created.data;
  const signedIn = await login('admin', adminPassword, tenantId);
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const token = signedIn.json().access_token as string;
  expect((await changePassword(token, adminPassword, 'Tenant-Admin-1')).statusCode).toBe(200);
  return token;
}

describe('users', () => {
  it('an administrator creates a user with roles and depts; the user signs in with them', async () => {
    const res = await call(admin, 'POST', '/api/dfem-user/submit', {
      account: 'zhangsan',
      password: md5Hex('Zs#2026pass'),
      realName: '张三',
      phone: '13912345678',
      roleId: SEED.userRoleId,
      deptId: '1123598813738675202',
    });
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json().data;
    expect(user).toMatchObject({ account: 'zhangsan', roleName: '普通用户', deptName: '技术部' });
    expect(res.body).not.toContain('password');
    // the list answers the roles' English names beside the Chinese ones (the list read in English shows them)
    const listed = (await call(admin, 'GET', '/api/dfem-user/page?size=50&account=zhangsan')).json().data
      .records;
    expect(listed[0]).toMatchObject({ roleName: '普通用户', roleNameEn: 'Ordinary user' });
    const inDept = async (deptId: string) =>
      (await call(admin, 'GET', `/api/dfem-user/page?size=50&deptId=${deptId}`))
        .json()
        .data.records.map((r: { account: string }) => r.account);
    expect(await inDept(SEED.rootDeptId)).toContain('zhangsan'); // a dept filter takes the depts below it
    expect(await inDept('1123598813738675202')).toContain('zhangsan');
    expect(await inDept('1123598813738675203')).not.toContain('zhangsan');
    const signedIn = await login('zhangsan', 'Zs#2026pass');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ role_id: SEED.userRoleId, dept_id: '1123598813738675202' });
  });

  it('the phone rules of spec §5 answer word for word', async () => {
    const base = {
      account: 'phoney',
      password: md5Hex('x'),
      realName: 'p',
      roleId: SEED.userRoleId,
      deptId: SEED.rootDeptId,
    };
    const en = { ...auth(admin), 'accept-language': 'en' };
    const short = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-user/submit',
      headers: en,
      payload: { ...base, phone: '1391234' },
    });
    expect(short.json().msg).toBe('phone number length is not 11');
    const bad = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-user/submit',
      headers: en,
      payload: { ...base, phone: '23912345678' },
    });
    expect(bad.json().msg).toBe('phone number format is incorrect');
    const zh = await call(admin, 'POST', '/api/dfem-user/submit', { ...base, phone: '23912345678' });
    expect(zh.json().msg).toBe('手机号码格式不正确');
  });

  it('a role or dept of another tenant cannot be given', async () => {
    const res = await call(admin, 'POST', '/api/dfem-user/submit', {
      account: 'x1',
      password: md5Hex('x'),
      realName: 'x',
      roleId: '42',
      deptId: SEED.rootDeptId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('roleId');
  });

  it('reset-password answers a generated password once and asks for a change at sign-in', async () => {
    const id = await makeUser(s.database.db, {
      account: 'forgetful',
      password: 'old-pass',
      roleIds: [SEED.userRoleId],
    });
    const res = await call(admin, 'POST', `/api/dfem-user/reset-password?userIds=${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const [issued] = res.json().data;
    expect(issued).toMatchObject({ id, account: 'forgetful' });
    expect(issued.password).toMatch(/^[A-Za-z2-9]{4}-[A-Za-z2-9]{4}-[A-Za-z2-9]{4}$/);
    expect((await login('forgetful', 'old-pass')).statusCode).toBe(400);
    expect((await login('forgetful', '123456')).statusCode).toBe(400);
    const fresh = await login('forgetful', issued.password);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().password_change_required).toBe(true);
    // a second reset gives another password
    const again = (await call(admin, 'POST', `/api/dfem-user/reset-password?userIds=${id}`)).json().data;
    expect(again[0].password).not.toBe(issued.password);
  });

  it("reset-password, as the family's client asks for it (重置为初始密码), sets the tenant's configured initial password unless anyone could guess it", async () => {
    const db = s.database.db;
    const id = await makeUser(db, {
      account: 'resetfamily',
      password: 'old-pass',
      roleIds: [SEED.userRoleId],
    });
    // the family's client: POST user/reset-password?userIds=, then it shows 操作成功 only
    const reset = () =>
      s.app.inject({
        method: 'POST',
        url: `/api/dfem-system/user/reset-password?userIds=${id}`,
        headers: auth(admin),
      });
    const param = (paramKey: string, paramValue: string) =>
      db.insert(schema.param).values({ paramName: '初始密码', paramKey, paramValue, remark: 'test' });
    // a guessable one is not used: a random password is set (and answered) instead
    await param('account.initPassword', '123456');
    const guessed = await reset();
    expect(guessed.statusCode, guessed.body).toBe(200);
    expect(guessed.json().data[0].password).toMatch(/^[A-Za-z2-9]{4}-[A-Za-z2-9]{4}-[A-Za-z2-9]{4}$/);
    expect((await login('resetfamily', '123456')).statusCode).toBe(400);
    // the tenant's own configured password: the user signs in with it and must change it
    await param('account.initPassword.000000', 'Village2026');
    const res = await reset();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0]).toMatchObject({ id, account: 'resetfamily', password: 'Village2026' });
    const fresh = await login('resetfamily', 'Village2026');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().password_change_required).toBe(true);
    await db
      .delete(schema.param)
      .where(inArray(schema.param.paramKey, ['account.initPassword', 'account.initPassword.000000']));
  });

  it('unlock lifts the sign-in lock', async () => {
    const id = await makeUser(s.database.db, {
      account: 'locked',
      password: 'right',
      roleIds: [SEED.userRoleId],
    });
    for (let i = 0; i < 5; i++) await login('locked', 'wrong');
    expect((await login('locked', 'right')).statusCode).toBe(400);
    expect((await call(admin, 'POST', `/api/dfem-user/unlock?userIds=${id}`)).statusCode).toBe(200);
    expect((await login('locked', 'right')).statusCode).toBe(200);
  });

  it('guest registration waits for approval; granting a role approves it', async () => {
    const q = new URLSearchParams({
      tenantId: '000000',
      name: '访客',
      account: 'guest1',
      password: md5Hex('guest-pass'),
      oauthId: 'wx-123',
    });
    const reg = await s.app.inject({ method: 'POST', url: `/api/dfem-user/register-guest?${q}` });
    expect(reg.statusCode, reg.body).toBe(200);
    const pending = await login('guest1', 'guest-pass');
    expect(pending.json().error_description).toBe('账号正在等待管理员审核');
    const page = (await call(admin, 'GET', '/api/dfem-user/page?account=guest1')).json().data;
    expect(page.records[0]).toMatchObject({ account: 'guest1', status: 0 });
    const grant = await call(
      admin,
      'POST',
      `/api/dfem-user/grant?userIds=${page.records[0].id}&roleIds=${SEED.userRoleId}`,
    );
    expect(grant.statusCode).toBe(200);
    expect((await login('guest1', 'guest-pass')).statusCode).toBe(200);
    // registering a taken account answers like any registration (nothing is created, nothing revealed)
    const again = await s.app.inject({ method: 'POST', url: `/api/dfem-user/register-guest?${q}` });
    expect(again.statusCode).toBe(200);
    expect((await call(admin, 'GET', '/api/dfem-user/page?account=guest1')).json().data.total).toBe(1);
  });

  it('personal info: the user edits its own profile with the phone rules', async () => {
    const bad = await call(admin, 'POST', '/api/dfem-user/update-info', { realName: '管理员', phone: '123' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('手机号码长度不为11位');
    const okRes = await call(admin, 'POST', '/api/dfem-user/update-info', {
      realName: '王管理',
      phone: '13700001111',
      email: 'a@b.cn',
    });
    expect(okRes.statusCode).toBe(200);
    const info = (await call(admin, 'GET', '/api/dfem-user/info')).json().data;
    expect(info).toMatchObject({ realName: '王管理', phone: '13700001111', email: 'a@b.cn' });
  });

  it('the administrator cannot remove itself', async () => {
    const res = await call(admin, 'POST', `/api/dfem-user/remove?ids=${SEED.adminUserId}`);
    expect(res.statusCode).toBe(400);
  });
});

describe('tenants', () => {
  it('creating a tenant creates its administrator, who signs in with the password answered once and sees the package menus', async () => {
    const pkg = await call(admin, 'POST', '/api/dfem-system/tenant-package/submit', {
      packageName: '基础包',
      menuId: [menuId('desk'), menuId('notice'), menuId('notice_add')].join(','),
    });
    expect(pkg.statusCode, pkg.body).toBe(200);
    const res = await call(admin, 'POST', '/api/dfem-system/tenant/submit', {
      tenantName: '清水村',
      linkman: '李四',
      packageId: pkg.json().data.id,
      accountNumber: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    const tenantId = res.json().data.tenantId;
    expect(tenantId).toMatch(/^\d{6}$/);
    expect(res.json().data.adminAccount).toBe('admin');
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await login('admin', '123456', tenantId)).statusCode).toBe(400);
    const signedIn = await login('admin', res.json().data.adminPassword, tenantId);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().password_change_required).toBe(true);
    const token = await tenantAdmin(res.json());
    // the password is answered once: reading the tenant again does not show it
    const read = await call(admin, 'GET', `/api/dfem-system/tenant/detail?id=${res.json().data.id}`);
    expect(read.body).not.toContain(res.json().data.adminPassword);
    const menus = (await call(token, 'GET', '/api/dfem-system/menu/routes')).json().data;
    expect(menus.map((m: { code: string }) => m.code)).toEqual(['desk']);
    expect(menus[0].children.map((m: { code: string }) => m.code)).toEqual(['notice']);

    // the quota (2 accounts) counts the administrator
    const first = await call(token, 'POST', '/api/dfem-user/submit', {
      account: 'u1',
      password: md5Hex('p'),
      realName: 'u1',
      roleId: (await call(token, 'GET', '/api/dfem-system/role/select')).json().data[0].id,
      deptId: (await call(token, 'GET', '/api/dfem-system/dept/select')).json().data[0].id,
    });
    // the package has no user menu: the tenant's administrator may not add users at all
    expect(first.statusCode).toBe(403);
  });

  it('an expired tenant cannot sign in', async () => {
    const res = await call(admin, 'POST', '/api/dfem-system/tenant/submit', {
      tenantName: '过期村',
      linkman: '王五',
      expireTime: '2020-01-01 00:00:00',
    });
    const { tenantId, adminPassword } = res.json().data;
    const signedIn = await login('admin', adminPassword, tenantId);
    expect(signedIn.json().error_description).toBe('租户授权已过期,请联系管理员');
  });

  it('the account quota refuses one user too many', async () => {
    const res = await call(admin, 'POST', '/api/dfem-system/tenant/submit', {
      tenantName: '小村',
      linkman: '赵六',
      accountNumber: 1,
    });
    const token = await tenantAdmin(res.json());
    const roleId = (await call(token, 'GET', '/api/dfem-system/role/select')).json().data[0].id;
    const deptId = (await call(token, 'GET', '/api/dfem-system/dept/select')).json().data[0].id;
    const over = await call(token, 'POST', '/api/dfem-user/submit', {
      account: 'u2',
      password: md5Hex('p'),
      realName: 'u2',
      roleId,
      deptId,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toBe('账号额度已用完(上限 1 个)');
  });
});

describe('role grants', () => {
  it('grant replaces menus and scopes; role-tree-keys answers them; the user sees exactly those menus', async () => {
    const role = await makeRole(s.database.db, '000000', 'reader', '只读');
    await makeUser(s.database.db, { account: 'reader', roleIds: [role], deptId: SEED.rootDeptId });
    const menuIds = [menuId('system'), menuId('param'), menuId('param_view')];
    const res = await call(admin, 'POST', '/api/dfem-system/role/grant', {
      roleIds: [role],
      menuIds,
      dataScopeIds: [],
      apiScopeIds: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    const keys = (await call(admin, 'GET', `/api/dfem-system/menu/role-tree-keys?roleIds=${role}`)).json()
      .data;
    expect(keys.menu.sort()).toEqual([...menuIds].sort());
    const token = (
      await tokenRequest(s, { grant_type: 'password', username: 'reader', password: md5Hex('pass') })
    ).json().access_token;
    const menus = (await call(token, 'GET', '/api/dfem-system/menu/routes')).json().data;
    expect(menus).toHaveLength(1);
    expect(menus[0].children.map((m: { code: string }) => m.code)).toEqual(['param']);
    const buttons = JSON.stringify((await call(token, 'GET', '/api/dfem-system/menu/buttons')).json().data);
    expect(buttons).toContain('param_view');
    expect(buttons).not.toContain('param_add');
    expect(
      (
        await call(token, 'POST', '/api/dfem-system/param/submit', {
          paramName: 'a',
          paramKey: 'b',
          paramValue: 'c',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('a user with the grant button cannot hand out menus it does not hold', async () => {
    const role = await makeRole(s.database.db, '000000', 'granter', '授权员');
    await grantCodes(s.database.db, role, ['system', 'role', 'role_grant']);
    await makeUser(s.database.db, { account: 'granter', roleIds: [role], deptId: SEED.rootDeptId });
    const token = (
      await tokenRequest(s, { grant_type: 'password', username: 'granter', password: md5Hex('pass') })
    ).json().access_token;
    const escalate = await call(token, 'POST', '/api/dfem-system/role/grant', {
      roleIds: [role],
      menuIds: [menuId('tenant')],
    });
    expect(escalate.statusCode).toBe(400);
    expect(escalate.json().data.field).toBe('menuIds');
  });

  it('roles of another tenant cannot be granted to', async () => {
    const res = await call(admin, 'POST', '/api/dfem-system/role/grant', { roleIds: ['42'], menuIds: [] });
    expect(res.statusCode).toBe(404);
  });
});

describe('API scopes', () => {
  it('a path covered by a scope is refused to roles without it and allowed once granted', async () => {
    const role = await makeRole(s.database.db, '000000', 'poster', '岗位员');
    await grantCodes(s.database.db, role, ['post', 'post_view']);
    await makeUser(s.database.db, { account: 'poster', roleIds: [role], deptId: SEED.rootDeptId });
    const token = (
      await tokenRequest(s, { grant_type: 'password', username: 'poster', password: md5Hex('pass') })
    ).json().access_token;
    expect((await call(token, 'GET', '/api/dfem-system/post/list')).statusCode).toBe(200);
    const scope = await call(admin, 'POST', '/api/dfem-system/api-scope/submit', {
      menuId: menuId('post'),
      scopeName: '岗位接口',
      resourceCode: 'post',
      scopePath: '/api/dfem-system/post/**',
      scopeType: 1,
    });
    expect(scope.statusCode, scope.body).toBe(200);
    expect((await call(token, 'GET', '/api/dfem-system/post/list')).statusCode).toBe(403);
    await s.database.db
      .insert(schema.roleScope)
      .values({ scopeCategory: 2, scopeId: scope.json().data.id, roleId: role });
    clearCaches();
    expect((await call(token, 'GET', '/api/dfem-system/post/list')).statusCode).toBe(200);
    expect((await call(admin, 'GET', '/api/dfem-system/post/list')).statusCode).toBe(200);
  });

  it('a custom data scope over a field the resource does not have is refused', async () => {
    const res = await call(admin, 'POST', '/api/dfem-system/data-scope/submit', {
      menuId: menuId('notice'),
      scopeName: 'bad',
      resourceCode: 'notice',
      scopeType: 5,
      scopeValue: JSON.stringify({ field: 'password', op: 'eq', value: 'x' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('scopeValue');
  });
});

describe('selects and caches', () => {
  it('role/select and dept/select answer a user’s own roles and depts for the switch dialog', async () => {
    const roles = (await call(admin, 'GET', `/api/dfem-system/role/select?userId=${SEED.adminUserId}`)).json()
      .data;
    expect(roles.map((r: { roleName: string }) => r.roleName)).toEqual(['超级管理员']);
    const depts = (await call(admin, 'GET', `/api/dfem-system/dept/select?userId=${SEED.adminUserId}`)).json()
      .data;
    expect(depts.map((d: { deptName: string }) => d.deptName)).toEqual(['智慧乡村']);
    expect((await call(admin, 'GET', '/api/dfem-system/role/select?userId=42')).statusCode).toBe(404);
  });

  it('clear-cache answers for a signed-in user', async () => {
    expect((await call(admin, 'GET', '/api/dfem-auth/oauth/clear-cache')).json()).toMatchObject({
      code: 200,
      data: true,
    });
  });

  it('a dept moved under another takes its descendants’ paths along', async () => {
    const a = (
      await call(admin, 'POST', '/api/dfem-system/dept/submit', {
        deptName: 'A',
        fullName: 'A',
        deptCategory: 2,
        sort: 1,
      })
    ).json().data;
    const b = (
      await call(admin, 'POST', '/api/dfem-system/dept/submit', {
        deptName: 'B',
        fullName: 'B',
        deptCategory: 2,
        sort: 1,
        parentId: a.id,
      })
    ).json().data;
    const cyc = await call(admin, 'POST', '/api/dfem-system/dept/submit', { id: a.id, parentId: b.id });
    expect(cyc.statusCode).toBe(400);
    expect(cyc.json().data.field).toBe('parentId');
    const removeParent = await call(admin, 'POST', `/api/dfem-system/dept/remove?ids=${a.id}`);
    expect(removeParent.json().msg).toBe('请先删除子节点');
    const moved = await call(admin, 'POST', '/api/dfem-system/dept/submit', {
      id: a.id,
      parentId: SEED.rootDeptId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [row] = await s.database.db
      .select({ ancestors: schema.dept.ancestors })
      .from(schema.dept)
      .where((await import('drizzle-orm')).eq(schema.dept.id, b.id));
    expect(row.ancestors).toBe(`0,${SEED.rootDeptId},${a.id}`);
  });
});
