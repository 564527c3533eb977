import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../src/seed/system';
import { readSheet, USER_SHEET_HEADER, uploadFile, xlsxOf } from './fixtures';
import { auth, md5Hex, signIn, startTestServer, type TestServer } from './harness';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const workbook = (rows: (string | number)[][]) => xlsxOf(USER_SHEET_HEADER, rows);
const upload = (buf: Buffer, query = '') =>
  uploadFile(s, token, `/api/dfem-user/import-user${query}`, buf, 'users.xlsx');

const page = async (account: string) =>
  (
    await s.app.inject({ method: 'GET', url: `/api/dfem-user/page?account=${account}`, headers: auth(token) })
  ).json().data;

describe('user import', () => {
  it('imports valid rows with roles and depts named as people read them', async () => {
    const res = await upload(
      await workbook([
        ['imp1', '导入一', '', '13911112222', 'imp1@example.com', '男', '1990-05-01', '普通用户', '技术部'],
        ['imp2', '导入二', '', '', '', '女', '', '普通用户,超级管理员', '运营部'],
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ created: 2, updated: 0, total: 2 });
    const row = (await page('imp1')).records[0];
    expect(row).toMatchObject({
      realName: '导入一',
      roleName: '普通用户',
      deptName: '技术部',
      sex: 1,
      birthday: '1990-05-01',
    });
  });

  it('one bad row imports nothing and the answer names every bad row', async () => {
    const res = await upload(
      await workbook([
        ['okrow', '正常', '', '13911113333', '', '男', '', '普通用户', '技术部'],
        ['badphone', '坏电话', '', '139111', '', '男', '', '普通用户', '技术部'],
        ['badrole', '坏角色', '', '', '', '', '', '不存在的角色', '技术部'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    const errors = res.json().data.errors;
    expect(errors).toEqual([
      { row: 3, field: 'phone', message: '手机号码长度不为11位' },
      { row: 4, field: 'roleId', message: '所属角色"不存在的角色"未登记' },
    ]);
    expect(res.json().msg).toContain('第 3 行');
    expect((await page('okrow')).total).toBe(0);
  });

  it('the message counts the bad rows, not their errors', async () => {
    const res = await upload(
      await workbook([
        ['badtwo', '两处错', '', '139111', 'not-an-email', '男', '', '普通用户', '技术部'],
        ['okrow2', '正常', '', '', '', '', '', '普通用户', '技术部'],
        ['badthree', '三处错', '', '12', 'nope', '', '', '不存在的角色', '技术部'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    const errors: { row: number }[] = res.json().data.errors;
    expect(errors.length).toBeGreaterThanOrEqual(5);
    expect(new Set(errors.map((e) => e.row))).toEqual(new Set([2, 4]));
    expect(res.json().msg).toMatch(/^共 2 行数据有误,未导入任何数据。第 2 行/);
  });

  it('re-importing an existing account is refused, and with isCovered=1 updates it instead of duplicating', async () => {
    const file = await workbook([['imp1', '改名了', '', '13911112222', '', '男', '', '普通用户', '财务部']]);
    const refused = await upload(file);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors[0]).toMatchObject({ row: 2, field: 'account' });
    const covered = await upload(file, '?isCovered=1');
    expect(covered.json().data).toEqual({ created: 0, updated: 1, total: 1 });
    const data = await page('imp1');
    expect(data.total).toBe(1);
    expect(data.records[0]).toMatchObject({ realName: '改名了', deptName: '财务部' });
  });

  it('a file that is not a workbook is refused by its content', async () => {
    const res = await upload(Buffer.from('account,realName\nx,y\n'));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('file');
  });
});

describe('user export', () => {
  it('writes what the filters select, and a formula-looking cell stays text', async () => {
    const made = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-user/submit',
      headers: auth(token),
      payload: {
        account: 'formula',
        password: md5Hex('x'),
        realName: '=1+2',
        roleId: SEED.userRoleId,
        deptId: SEED.rootDeptId,
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-user/export-user?account=formula',
      headers: auth(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readSheet(res.rawPayload);
    expect(rows[0].slice(0, 2)).toEqual(['登录账号', '用户姓名']);
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(0, 2)).toEqual(['formula', "'=1+2"]);
  });

  it('the template has the headers in the request language', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-user/export-template',
      headers: { ...auth(token), 'accept-language': 'en' },
    });
    const rows = await readSheet(res.rawPayload);
    expect(rows).toEqual([
      ['Account', 'Real name', 'Nickname', 'Phone', 'Email', 'Sex', 'Birthday', 'Roles', 'Departments'],
    ]);
  });
});
