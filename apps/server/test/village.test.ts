import { idCardCheckDigit, VILLAGE_DEMO, villagerResource } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { villager } from '../src/modules/village/tables';
import {
  grantCodes,
  makeRole,
  makeTenant,
  makeUser,
  readSheet,
  signedInUser,
  uploadFile,
  xlsxOf,
} from './fixtures';
import { auth, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/** Village affairs: villager rules, references, Excel, the household view, the ranking and the overview. */
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const get = (url: string, tk = token) =>
  s.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth(tk) });
const post = (url: string, payload?: object, tk = token) =>
  s.app.inject({ method: 'POST', url: `${API}${url}`, headers: auth(tk), payload });

/** A valid ID number for a birth date and sex (odd 17th digit: male), made distinct by n. */
function idFor(birth: string, sex: 1 | 2, n: number, region = '430181') {
  const seq = (n % 100) * 10 + (sex === 1 ? 1 : 2);
  const first = `${region}${birth.replaceAll('-', '')}${String(seq).padStart(3, '0')}`;
  return first + idCardCheckDigit(first);
}

const villagerBody = (over: Record<string, unknown> = {}) => ({
  name: '测试村民',
  sex: '1',
  householdNo: 'T0001',
  relation: '1',
  villageGroup: '1',
  ...over,
});

async function count(where = sql`true`) {
  const [r] = await s.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(villager)
    .where(and(eq(villager.isDeleted, 0), where));
  return Number(r.n);
}

describe('villager rules', () => {
  it('an ID number with a wrong check digit is a 400 naming idCard', async () => {
    const good = idFor('1980-05-12', 1, 1);
    const bad = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    const res = await post('/villager/submit', villagerBody({ idCard: bad }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'idCard' }, msg: '身份证号校验位不正确' });
  });

  it('a birth date or a sex that disagrees with the ID number is a 400 naming that field', async () => {
    const id = idFor('1980-05-12', 1, 2);
    const birth = await post('/villager/submit', villagerBody({ idCard: id, birthDate: '1980-05-13' }));
    expect(birth.statusCode).toBe(400);
    expect(birth.json()).toMatchObject({ data: { field: 'birthDate' }, msg: '出生日期与身份证号码不一致' });
    const sex = await post(
      '/villager/submit',
      villagerBody({ idCard: id, sex: '2', birthDate: '1980-05-12' }),
    );
    expect(sex.statusCode).toBe(400);
    expect(sex.json().data.field).toBe('sex');
    const en = await s.app.inject({
      method: 'POST',
      url: `${API}/villager/submit`,
      headers: { ...auth(token), 'accept-language': 'en' },
      payload: villagerBody({ idCard: id, birthDate: '1981-01-01' }),
    });
    expect(en.json().msg).toBe('Birth date does not agree with the ID number');
  });

  it('an ID number with an impossible birth date or region is refused', async () => {
    for (const id of [
      idFor('1980-02-30', 1, 3),
      idFor('2199-01-01', 1, 3),
      idFor('1980-05-12', 1, 3, '990181'),
    ]) {
      const res = await post('/villager/submit', villagerBody({ idCard: id }));
      expect(res.statusCode, id).toBe(400);
      expect(res.json().data.field).toBe('idCard');
    }
  });

  it('a duplicate ID number in the tenant is refused; birth date and sex are read from the number', async () => {
    const id = idFor('1975-11-03', 2, 4);
    const first = await post('/villager/submit', villagerBody({ idCard: id, sex: '2' }));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ birthDate: '1975-11-03', sex: '2' });
    const dup = await post(
      '/villager/submit',
      villagerBody({ name: '另一人', idCard: id.toLowerCase(), sex: '2' }),
    );
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ data: { field: 'idCard' }, msg: '身份证号已存在' });
    // the same row may keep its own number
    const again = await post('/villager/submit', {
      ...villagerBody({ idCard: id, sex: '2' }),
      id: first.json().data.id,
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a contact number is a mobile or a landline with its area code; anything else is a 400 in the spec’s words (§5)', async () => {
    const refused = {
      '1380013800': '手机号码长度不为11位',
      '12800138000': '手机号码格式不正确',
      '84561234': '手机号码格式不正确',
      '0731-8456': '手机号码格式不正确',
      '0731-84561234x': '手机号码格式不正确',
    };
    for (const [phone, msg] of Object.entries(refused))
      expect((await post('/villager/submit', villagerBody({ phone }))).json(), phone).toMatchObject({
        data: { field: 'phone' },
        msg,
      });
    for (const [n, phone] of ['13800138000', '0731-84561234', '073184561234', '010-12345678-801'].entries()) {
      const res = await post(
        '/villager/submit',
        villagerBody({ phone, idCard: idFor('1990-01-01', 1, 70 + n) }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.phone).toBe(phone);
    }
  });
});

describe('unique values', () => {
  it('a licence plate already on a vehicle of the tenant is refused, naming the field', async () => {
    const body = { plateNo: '湘A9Z001', vehicleType: '1', ownerId: VILLAGE_DEMO.villagerId, usage: '1' };
    const first = await post('/vehicle/submit', body);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post('/vehicle/submit', body);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ data: { field: 'plateNo' }, msg: '车牌号码已存在' });
    // once the first is removed, the plate is free again
    expect((await post(`/vehicle/remove?ids=${first.json().data.id}`, {})).statusCode).toBe(200);
    expect((await post('/vehicle/submit', body)).statusCode).toBe(200);
  });
});

describe('date ranges', () => {
  it('a cadre’s term cannot end before it starts (spec §5), whole or sent one side at a time', async () => {
    const body = { villagerId: VILLAGE_DEMO.villagerId, position: '4', termStart: '2026-03-01' };
    const refused = await post('/villagerToCadre/submit', { ...body, termEnd: '2026-02-28' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ data: { field: 'termEnd' }, msg: '任期结束不能早于任期开始' });
    const sameDay = await post('/villagerToCadre/submit', { ...body, termEnd: '2026-03-01' });
    expect(sameDay.statusCode, sameDay.body).toBe(200);
    const { id } = sameDay.json().data;
    // an update naming only the start is checked against the stored end
    const later = await post('/villagerToCadre/submit', { id, termStart: '2026-04-01' });
    expect(later.statusCode).toBe(400);
    expect(later.json().data.field).toBe('termEnd');
    expect((await get(`/villagerToCadre/detail?id=${id}`)).json().data.termStart).toBe('2026-03-01');
  });
});

describe('references', () => {
  it('a relation names its villager; the list answers the name; a foreign or unknown villager is refused', async () => {
    const res = await post('/villagerToCadre/submit', {
      villagerId: VILLAGE_DEMO.villagerId,
      position: '4',
      termStart: '2026-01-10',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [demo] = await s.database.db
      .select({ name: villager.name })
      .from(villager)
      .where(eq(villager.id, VILLAGE_DEMO.villagerId));
    expect(res.json().data.villagerName).toBe(demo.name);
    const page = (await get(`/villagerToCadre/page?villagerId=${VILLAGE_DEMO.villagerId}&size=50`)).json()
      .data;
    expect(page.records.some((r: { villagerName: string }) => r.villagerName === demo.name)).toBe(true);

    const unknown = await post('/villagerToCadre/submit', {
      villagerId: '42',
      position: '4',
      termStart: '2026-01-10',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data.field).toBe('villagerId');

    // another tenant's administrator cannot point at this tenant's villager
    await makeTenant(s.database.db, '200002', '另一村');
    const role = await makeRole(s.database.db, '200002', 'administrator');
    await grantCodes(s.database.db, role, 'all');
    await makeUser(s.database.db, { tenantId: '200002', account: 'other', roleIds: [role] });
    const other = (
      await tokenRequest(s, {
        grant_type: 'password',
        username: 'other',
        password: md5Hex('pass'),
        tenantId: '200002',
      })
    ).json().access_token;
    const foreign = await post(
      '/villagerToCadre/submit',
      { villagerId: VILLAGE_DEMO.villagerId, position: '4', termStart: '2026-01-10' },
      other,
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().data.field).toBe('villagerId');
    expect((await get('/villager/select?keyword=', other)).json().data).toEqual([]);
  });

  it('the picker finds villagers by name or ID number, masks the number, and serves relation screens only', async () => {
    const [demo] = (await s.database.db
      .select({ name: villager.name, idCard: villager.idCard })
      .from(villager)
      .where(eq(villager.id, VILLAGE_DEMO.villagerId))) as { name: string; idCard: string }[];
    const byName = (await get(`/villager/select?keyword=${encodeURIComponent(demo.name)}`)).json().data;
    expect(byName.map((r: { id: string }) => r.id)).toContain(VILLAGE_DEMO.villagerId);
    const hit = byName.find((r: { id: string }) => r.id === VILLAGE_DEMO.villagerId);
    expect(hit.hint).toMatch(/^\d{4}\*+[\dX]{4}$/);
    expect(JSON.stringify(byName)).not.toContain(demo.idCard);
    const byId = (await get(`/villager/select?keyword=${demo.idCard!.slice(-6)}`)).json().data;
    expect(byId.map((r: { id: string }) => r.id)).toContain(VILLAGE_DEMO.villagerId);
    const byIds = (await get(`/villager/select?ids=${VILLAGE_DEMO.villagerId}`)).json().data;
    expect(byIds).toEqual([{ id: VILLAGE_DEMO.villagerId, label: demo.name, hint: hit.hint }]);
    expect((await get('/villager/select?drop=1')).statusCode).toBe(400);

    // a user holding only the cadre screen may pick villagers; one holding neither may not
    const role = await makeRole(s.database.db, '000000', 'cadre-clerk');
    await makeUser(s.database.db, { account: 'clerk', roleIds: [role] });
    const clerk = (
      await tokenRequest(s, { grant_type: 'password', username: 'clerk', password: md5Hex('pass') })
    ).json().access_token;
    await grantCodes(s.database.db, role, ['villager_to_cadre']);
    expect((await get('/villager/select?keyword=', clerk)).statusCode).toBe(200);
    await grantCodes(s.database.db, role, ['param']);
    expect((await get('/villager/select?keyword=', clerk)).statusCode).toBe(403);
  });
});

const HEADERS = [
  '姓名',
  '性别',
  '民族',
  '身份证号',
  '联系电话',
  '出生日期',
  '户号',
  '与户主关系',
  '村民小组',
  '住址',
  '备注',
];

const workbook = (rows: (string | number | Date | null)[][], headers = HEADERS) => xlsxOf(headers, rows);
const upload = (path: string, buf: Buffer, query = '') =>
  uploadFile(s, token, `${API}${path}${query}`, buf, 'file.xlsx');

describe('villager Excel', () => {
  const a = idFor('1990-03-04', 1, 11);
  const b = idFor('1992-07-08', 2, 12);
  const c = idFor('2015-09-10', 1, 13);
  const good = () =>
    workbook([
      [
        '导入甲',
        '男',
        '汉族',
        a,
        '13900001111',
        '1990-03-04',
        'IMP-1',
        '户主',
        '第一村民小组',
        '青山村一组',
        null,
      ],
      [
        '导入乙',
        '女',
        '苗族',
        b,
        null,
        new Date(Date.UTC(1992, 6, 8)),
        'IMP-1',
        '配偶',
        '第一村民小组',
        null,
        '=1+2',
      ],
      ['导入丙', '男', '汉族', c, null, '2015/9/10', 'IMP-1', '子女', '第一村民小组', null, null],
    ]);

  it('one bad row imports nothing and every bad row is named with its reason', async () => {
    const before = await count();
    const bad = idFor('1990-03-04', 1, 14);
    const wrongCheck = bad.slice(0, 17) + (bad[17] === '0' ? '1' : '0');
    const res = await upload(
      '/villager/excel/import',
      await workbook([
        [
          '好行',
          '男',
          '汉族',
          idFor('1990-03-04', 1, 15),
          null,
          null,
          'IMP-2',
          '户主',
          '第一村民小组',
          null,
          null,
        ],
        ['校验位错', '男', '汉族', wrongCheck, null, null, 'IMP-2', '子女', '第一村民小组', null, null],
        ['', '男', '汉族', null, '123', null, 'IMP-2', '子女', '第九组', null, null],
        [
          '日期不符',
          '男',
          '汉族',
          idFor('1990-03-04', 1, 16),
          null,
          '1990-03-05',
          'IMP-2',
          '子女',
          '第一村民小组',
          null,
          null,
        ],
        [
          '重复',
          '男',
          '汉族',
          idFor('1990-03-04', 1, 15),
          null,
          null,
          'IMP-2',
          '子女',
          '第一村民小组',
          null,
          null,
        ],
        ['无证', '男', '汉族', null, null, null, 'IMP-2', '子女', '第一村民小组', null, null],
      ]),
    );
    expect(res.statusCode).toBe(400);
    const errors = res.json().data.errors as { row: number; field: string; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 3, field: 'idCard', message: '身份证号校验位不正确' }),
        expect.objectContaining({ row: 4, field: 'name', message: '请输入姓名' }),
        expect.objectContaining({ row: 4, field: 'phone', message: '手机号码长度不为11位' }),
        expect.objectContaining({ row: 4, field: 'villageGroup' }),
        expect.objectContaining({ row: 5, field: 'birthDate', message: '出生日期与身份证号码不一致' }),
        expect.objectContaining({ row: 6, field: 'idCard', message: '身份证号与第 2 行重复' }),
        // the form may leave it empty, an import may not: it is what a re-import matches on
        expect.objectContaining({
          row: 7,
          field: 'idCard',
          message: '导入时身份证号必填,用于识别已导入的行',
        }),
      ]),
    );
    expect(errors.some((e) => e.row === 2)).toBe(false);
    expect(res.json().msg).toContain('未导入任何数据');
    expect(await count()).toBe(before);
  });

  it('imports valid rows with dictionary labels and dates as people type them; re-importing updates', async () => {
    const before = await count();
    const res = await upload('/villager/excel/import', await good());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ created: 3, updated: 0, total: 3 });
    expect(await count()).toBe(before + 3);
    const members = (await get('/villager/household?householdNo=IMP-1')).json().data;
    expect(members.map((m: { name: string }) => m.name)).toEqual(['导入甲', '导入乙', '导入丙']);
    expect(members[1]).toMatchObject({
      sex: '2',
      ethnicity: '6',
      birthDate: '1992-07-08',
      relation: '2',
      remark: '=1+2',
    });
    expect(members[2].birthDate).toBe('2015-09-10');

    // the same file again changes nothing but the update time; an edited row is updated, not added
    const again = await upload('/villager/excel/import', await good());
    expect(again.json().data).toEqual({ created: 0, updated: 3, total: 3 });
    const edited = await workbook([
      ['导入甲', '男', '汉族', a, '13900002222', '1990-03-04', 'IMP-1', '户主', '第二村民小组', '新址', null],
    ]);
    expect((await upload('/villager/excel/import', edited)).json().data).toEqual({
      created: 0,
      updated: 1,
      total: 1,
    });
    expect(await count()).toBe(before + 3);
    const [row] = (await get(`/villager/page?idCard=${a}`)).json().data.records;
    // a list answers the mobile masked; the detail answers it whole
    expect(row).toMatchObject({ phone: '139****2222', villageGroup: '2', address: '新址' });
    expect((await get(`/villager/detail?id=${row.id}`)).json().data.phone).toBe('13900002222');
  });

  it('reports progress under the key the client chose', async () => {
    const res = await upload('/villager/excel/import', await good(), '?progressKey=abc12345-key');
    expect(res.statusCode).toBe(200);
    const progress = (await get('/villager/excel/progress?key=abc12345-key')).json().data;
    expect(progress).toEqual({ phase: 'done', done: 3, total: 3 });
    expect((await get('/villager/excel/progress?key=bad')).statusCode).toBe(400);
  });

  it('a file that is not a workbook, or has no header row, is refused', async () => {
    const notXlsx = await upload('/villager/excel/import', Buffer.from('name,sex\n张三,男'));
    expect(notXlsx.statusCode).toBe(400);
    expect(notXlsx.json().data.field).toBe('file');
    const noHeader = await upload('/villager/excel/import', await workbook([['x', 'y']], ['甲', '乙']));
    expect(noHeader.statusCode).toBe(400);
  });

  it('exports what the filters select, with labels, and escapes cells a spreadsheet would run', async () => {
    await post(
      '/villager/submit',
      villagerBody({ name: '=HYPERLINK("x")', householdNo: 'EXP-1', villageGroup: '5', remark: '@SUM(A1)' }),
    );
    const res = await get('/villager/excel/export?householdNo=EXP-1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['姓名', '身份证号', '村民小组', '脱贫户']));
    expect(rows).toHaveLength(2);
    const name = rows[0].indexOf('姓名');
    expect(rows[1][name]).toBe(`'=HYPERLINK("x")`);
    expect(rows[1]).toContain(`'@SUM(A1)`);
    expect(rows[1][rows[0].indexOf('村民小组')]).toBe('第五村民小组');
    expect(rows[1][rows[0].indexOf('低保户')]).toBe('否');
    // a filter the list refuses is refused here too
    expect((await get('/villager/excel/export?password=x')).statusCode).toBe(400);

    // and the exported file imports back as an update of the same row (escaped text comes back as it was)
    const [exported] = (await get('/villager/page?householdNo=EXP-1')).json().data.records;
    await post('/villager/submit', {
      ...villagerBody({ householdNo: 'EXP-1', villageGroup: '5' }),
      id: exported.id,
      idCard: idFor('1970-01-01', 1, 21),
      name: '=HYPERLINK("x")',
      birthDate: '1970-01-01',
    });
    const file = (await get('/villager/excel/export?householdNo=EXP-1')).rawPayload;
    const back = await upload('/villager/excel/import', file);
    expect(back.json().data, back.body).toEqual({ created: 0, updated: 1, total: 1 });
    const [after] = (await get('/villager/page?householdNo=EXP-1')).json().data.records;
    expect(after.name).toBe('=HYPERLINK("x")');
  });

  it('exports every row in batches, newest first', async () => {
    await s.database.db.execute(sql`insert into hope_villager (tenant_id, name, sex, household_no, relation, village_group)
      select '000000', '批量' || g, 1 + g % 2, 'BULK-' || (g / 4), '3', '1' from generate_series(1, 2500) g`);
    const total = await count();
    const res = await get('/villager/excel/export?size=10');
    const rows = await readSheet(res.rawPayload);
    expect(rows.length - 1).toBe(total);
    expect(total).toBeGreaterThan(2000); // more than one batch: the seed's village plus a bulk insert
  }, 60_000);

  it('an export’s sheet is named after its list and keeps its header row in view', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      (await get('/villager/excel/export?householdNo=QS0001')).rawPayload as unknown as ArrayBuffer,
    );
    expect(wb.worksheets[0].name).toBe(villagerResource.label.zh);
    expect(wb.worksheets[0].views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('the template has the columns and a sheet explaining them; import and export need their codes', async () => {
    const res = await get('/villager/excel/template');
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Sheet1', '填写说明']);
    expect((await readSheet(res.rawPayload))[0]).toEqual(expect.arrayContaining(['姓名', '身份证号']));

    const role = await makeRole(s.database.db, '000000', 'viewer');
    await makeUser(s.database.db, { account: 'viewer', roleIds: [role] });
    await grantCodes(s.database.db, role, ['villager', 'villager_view']);
    const viewer = (
      await tokenRequest(s, { grant_type: 'password', username: 'viewer', password: md5Hex('pass') })
    ).json().access_token;
    expect((await get('/villager/excel/export', viewer)).statusCode).toBe(403);
    expect((await get('/villager/excel/template', viewer)).statusCode).toBe(403);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await good())]), 'f.xlsx');
    const refused = await s.app.inject({
      method: 'POST',
      url: `${API}/villager/excel/import`,
      headers: auth(viewer),
      payload: form,
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('Excel of the other village records', () => {
  it('incomes export the household head with the ID number, and import back by it', async () => {
    const res = await get('/villagerIncome/excel/export');
    expect(res.statusCode).toBe(200);
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['户主', '户主身份证号', '年度', '人均纯收入(元)']));
    const [demo] = (await s.database.db
      .select({ name: villager.name, idCard: villager.idCard })
      .from(villager)
      .where(eq(villager.id, VILLAGE_DEMO.villagerId))) as { name: string; idCard: string }[];
    const file = await workbook(
      [[demo.name, demo.idCard, 2030, 4, 20000, 10000, 0, 2000, null]],
      [
        '户主',
        '户主身份证号',
        '年度',
        '家庭人口',
        '工资性收入(元)',
        '经营性收入(元)',
        '财产性收入(元)',
        '转移性收入(元)',
        '备注',
      ],
    );
    const imported = await upload('/villagerIncome/excel/import', file);
    expect(imported.json().data, imported.body).toEqual({ created: 1, updated: 0, total: 1 });
    // a household's income of a year is matched by head and year: the same file again updates it
    const again = await upload('/villagerIncome/excel/import', file);
    expect(again.json().data, again.body).toEqual({ created: 0, updated: 1, total: 1 });
    const [row] = (await get('/villagerIncome/page?year=2030')).json().data.records;
    expect(row).toMatchObject({
      villagerId: VILLAGE_DEMO.villagerId,
      villagerName: demo.name,
      totalIncome: '32000.00',
      perCapita: '8000.00',
    });

    const unknown = await upload(
      '/villagerIncome/excel/import',
      await workbook([['无此人', null, 2030, 4]], ['户主', '户主身份证号', '年度', '家庭人口']),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data.errors[0]).toMatchObject({ row: 2, field: 'villagerId' });
  });

  it.each(['filingRecords', 'visitingRecords', 'visitingReception'])(
    '%s exports, and offers a template',
    async (key) => {
      const res = await get(`/${key}/excel/export`);
      expect(res.statusCode).toBe(200);
      expect((await readSheet(res.rawPayload)).length).toBeGreaterThan(1);
      expect((await get(`/${key}/excel/template`)).statusCode).toBe(200);
    },
  );
});

describe('households, ranking and overview', () => {
  it('the household view lists households with their head and size', async () => {
    const page = (await get('/villager/households?size=5')).json().data;
    expect(page.total).toBeGreaterThan(80);
    expect(page.records).toHaveLength(5);
    const first = page.records[0];
    const members = (await get(`/villager/household?householdNo=${first.householdNo}`)).json().data;
    expect(members).toHaveLength(first.members);
    expect(members[0].name).toBe(first.headName);
    expect((await get('/villager/households?bogus=1')).statusCode).toBe(400);
  });

  it('the views declared on a binding keep the resource’s tenant and permission: another tenant and a user without the code get nothing', async () => {
    const ours = (await get('/villager/households?size=200')).json().data.total as number;
    expect(ours).toBeGreaterThan(0);
    // another tenant's administrator, holding every code, sees none of this tenant's households or ranking
    await makeTenant(s.database.db, '200003', '第三村');
    const admin3 = await makeRole(s.database.db, '200003', 'administrator');
    await grantCodes(s.database.db, admin3, 'all');
    const foreign = (await signedInUser(s, 'viewsAdmin3', [admin3], '200003')).token;
    expect((await get('/villager/households?size=200', foreign)).json().data.total).toBe(0);
    expect((await get('/scoreRank/ranking?size=200', foreign)).json().data.total).toBe(0);
    const household = await get(`/villager/household?householdNo=${encodeURIComponent('H0001')}`, foreign);
    expect(household.json().data).toEqual([]);
    // a user of this tenant without the villager and score codes is refused
    const clerk = await makeRole(s.database.db, '000000', 'clerk', '文员');
    await grantCodes(s.database.db, clerk, ['vehicle']);
    const limited = (await signedInUser(s, 'noVillagerCode', [clerk])).token;
    for (const url of ['/villager/households', '/villager/household?householdNo=H0001', '/scoreRank/ranking'])
      expect((await get(url, limited)).statusCode, url).toBe(403);
    // and a query key the view does not know is a 400, not a filter
    expect((await get('/scoreRank/ranking?tenantId=200003')).statusCode).toBe(400);
  });

  it('a score record takes its rule’s points, and the ranking follows the records', async () => {
    const top = (await get('/scoreRank/ranking?size=1')).json().data.records[0];
    expect(top.rank).toBe(1);
    // a new household earns more than the leader through a rule of +10 points
    const created = await post('/villager/submit', villagerBody({ name: '积分户', householdNo: 'RANK-1' }));
    const villagerId = created.json().data.id;
    const rule = await post('/scoreRankRule/submit', {
      category: '1',
      ruleName: '测试加分',
      points: top.points + 10,
    });
    const record = await post('/scoreRank/submit', {
      villagerId,
      ruleId: rule.json().data.id,
      recordDate: '2026-01-15',
      points: 99999,
    });
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json().data.points).toBe(top.points + 10);
    const now = (await get('/scoreRank/ranking?size=1')).json().data.records[0];
    expect(now).toMatchObject({
      householdNo: 'RANK-1',
      headName: '积分户',
      points: top.points + 10,
      rank: 1,
    });
    // a deduction pulls it back
    const minus = await post('/scoreRankRule/submit', { category: '2', ruleName: '测试扣分', points: -20 });
    await post('/scoreRank/submit', { villagerId, ruleId: minus.json().data.id, recordDate: '2026-01-16' });
    const later = (await get('/scoreRank/ranking?size=200')).json().data.records;
    expect(later.find((r: { householdNo: string }) => r.householdNo === 'RANK-1').points).toBe(
      top.points - 10,
    );
  });

  it('the overview counts the tenant’s villagers and follows changes', async () => {
    const stats = (await get('/villageAffairsOverview/statistics')).json().data;
    expect(stats.population).toBe(await count());
    expect(stats.male + stats.female).toBeLessThanOrEqual(stats.population);
    expect(stats.pyramid).toHaveLength(9);
    expect(stats.politicalStatus.map((p: { name: string }) => p.name)).toContain('群众');
    expect(stats.cadres).toBeGreaterThan(0);
    expect(stats.visitsThisMonth).toBeGreaterThan(0);
    const lowIncome = stats.lowIncome;
    await post('/villager/submit', villagerBody({ name: '低保新户', householdNo: 'OV-1', lowIncome: 1 }));
    const after = (await get('/villageAffairsOverview/statistics')).json().data;
    expect(after.population).toBe(stats.population + 1);
    expect(after.lowIncome).toBe(lowIncome + 1);
    expect(after.households).toBe(stats.households + 1);
    // another tenant sees its own (empty) village
    const role = await makeRole(s.database.db, '200002', 'ov-admin');
    await grantCodes(s.database.db, role, 'all');
    await makeUser(s.database.db, { tenantId: '200002', account: 'ovadmin', roleIds: [role] });
    const other = (
      await tokenRequest(s, {
        grant_type: 'password',
        username: 'ovadmin',
        password: md5Hex('pass'),
        tenantId: '200002',
      })
    ).json().access_token;
    expect((await get('/villageAffairsOverview/statistics', other)).json().data.population).toBe(0);
  });
});
