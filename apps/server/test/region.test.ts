import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regionRows } from '../src/seed/regions';
import { grantCodes, makeRole, makeTenant, makeUser } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/** Administrative divisions: the seeded slice, the lazy tree, detail, submit (ancestors), remove, access. */

let s: TestServer;
let admin: string;
let otherAdmin: string;
let plain: string;
let viewer: string;

const SYS = '/api/dfem-system';

const tokenFor = async (account: string, tenantId = '000000') =>
  (await signIn(s, account, 'pass', tenantId)).access_token;

beforeAll(async () => {
  s = await startTestServer();
  const db = s.database.db;
  admin = (await signIn(s)).access_token;
  await makeTenant(db, '100001', '第二租户');
  const roleB = await makeRole(db, '100001', 'administrator', '超级管理员');
  await grantCodes(db, roleB, 'all');
  await makeUser(db, { tenantId: '100001', account: 'badmin', roleIds: [roleB] });
  otherAdmin = await tokenFor('badmin', '100001');
  const none = await makeRole(db, '000000', 'nobody', '无权限');
  await grantCodes(db, none, []);
  await makeUser(db, { account: 'plainuser', roleIds: [none] });
  plain = await tokenFor('plainuser');
  const view = await makeRole(db, '000000', 'region_viewer', '区划查看');
  await grantCodes(db, view, ['region', 'region_view']);
  await makeUser(db, { account: 'viewer', roleIds: [view] });
  viewer = await tokenFor('viewer');
});
afterAll(() => s?.close());

const get = (url: string, token = admin, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'GET', url: `${SYS}${url}`, headers: { ...auth(token), ...headers } });
const post = (url: string, payload?: object, token = admin, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url: `${SYS}${url}`, headers: { ...auth(token), ...headers }, payload });

type LazyNode = {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  hasChildren: boolean;
  regionLevel: number;
};

const lazy = async (parentCode?: string, token = admin) => {
  const res = await get(
    `/region/lazy-tree${parentCode === undefined ? '' : `?parentCode=${parentCode}`}`,
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as LazyNode[];
};

describe('the seeded slice', () => {
  it('holds the 31 provincial-level divisions with their GB/T 2260 codes', async () => {
    const provinces = await lazy();
    expect(provinces).toHaveLength(31);
    expect(await lazy('00')).toEqual(provinces);
    const byCode = Object.fromEntries(provinces.map((p) => [p.id, p.title]));
    expect(byCode).toMatchObject({
      '11': '北京市',
      '31': '上海市',
      '33': '浙江省',
      '44': '广东省',
      '52': '贵州省',
      '54': '西藏自治区',
      '65': '新疆维吾尔自治区',
    });
    for (const p of provinces) {
      expect(p).toEqual({
        id: p.id,
        parentId: '00',
        title: p.title,
        key: p.id,
        value: p.id,
        hasChildren: p.id === '52' || p.id === '33',
        regionLevel: 1,
      });
      expect(p.id).toMatch(/^\d{2}$/);
    }
  });

  it('the seed rows are consistent: parents first, codes extend their parent, ancestors follow', () => {
    const rows = regionRows();
    const codes = new Set<string>();
    for (const r of rows) {
      if (r.parentCode !== '00') {
        expect(codes.has(r.parentCode!), r.code).toBe(true);
        expect(r.code.startsWith(r.parentCode!), r.code).toBe(true);
      }
      expect(codes.has(r.code), r.code).toBe(false);
      codes.add(r.code);
      expect(r.ancestors!.split(',').length).toBe(r.regionLevel);
    }
    expect(rows.filter((r) => r.regionLevel === 5).length).toBeGreaterThan(100);
  });

  it('lazy-tree walks 贵州省 down to a village of 雷山县', async () => {
    const cities = await lazy('52');
    expect(cities.map((c) => c.id)).toContain('5226');
    expect(cities.find((c) => c.id === '5226')).toMatchObject({
      title: '黔东南苗族侗族自治州',
      parentId: '52',
      hasChildren: true,
      regionLevel: 2,
    });
    expect(cities.find((c) => c.id === '5201')).toMatchObject({ title: '贵阳市', hasChildren: false });
    const counties = await lazy('5226');
    expect(counties).toHaveLength(16);
    expect(counties.find((c) => c.id === '522634')).toMatchObject({
      title: '雷山县',
      hasChildren: true,
      regionLevel: 3,
    });
    const towns = await lazy('522634');
    expect(towns.map((t) => t.title)).toEqual(
      expect.arrayContaining([
        '丹江镇',
        '西江镇',
        '永乐镇',
        '郎德镇',
        '大塘镇',
        '望丰乡',
        '达地水族乡',
        '方祥乡',
      ]),
    );
    const danjiang = towns.find((t) => t.id === '522634100')!;
    expect(danjiang).toMatchObject({ title: '丹江镇', regionLevel: 4, hasChildren: true });
    const villages = await lazy('522634100');
    expect(villages.length).toBeGreaterThan(10);
    const village = villages.find((v) => v.id === '522634100201')!;
    expect(village).toMatchObject({
      title: '东门村村民委员会',
      regionLevel: 5,
      hasChildren: false,
      parentId: '522634100',
    });
    expect(await lazy(village.id)).toEqual([]);
    // a second town of the county has villages too
    expect((await lazy('522634101')).map((v) => v.title)).toContain('西江村村民委员会');
  });

  it('a second path runs through 浙江省 杭州市 西湖区 转塘街道', async () => {
    expect((await lazy('33')).find((c) => c.id === '3301')?.title).toBe('杭州市');
    expect((await lazy('3301')).find((c) => c.id === '330106')?.title).toBe('西湖区');
    expect((await lazy('330106')).find((c) => c.id === '330106010')?.title).toBe('转塘街道');
    const villages = await lazy('330106010');
    expect(villages.find((v) => v.id === '330106010213')?.title).toBe('桐坞村委会');
  });
});

describe('list and detail', () => {
  it('list pages and filters by parentCode, name and regionLevel', async () => {
    const provinces = (await get('/region/list?parentCode=00&current=1&size=10')).json().data;
    expect(provinces).toMatchObject({ total: 31, size: 10, current: 1, pages: 4 });
    expect(provinces.records).toHaveLength(10);
    expect(provinces.records[0]).toMatchObject({
      code: '11',
      name: '北京市',
      regionLevel: 1,
      ancestors: '00',
    });
    expect((await get('/region/list?regionLevel=1&size=50')).json().data.total).toBe(31);
    const byName = (await get(`/region/list?name=${encodeURIComponent('雷山')}`)).json().data;
    expect(byName.records.map((r: { code: string }) => r.code)).toEqual(['522634']);
    const towns = (await get('/region/list?parentCode=522634&regionLevel=4&size=50')).json().data;
    expect(towns.total).toBe(9);
  });

  it('detail answers one division with its ancestors and parent name', async () => {
    const res = await get('/region/detail?code=522634100');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: '522634100',
      code: '522634100',
      parentCode: '522634',
      parentName: '雷山县',
      ancestors: '00,52,5226,522634',
      name: '丹江镇',
      regionLevel: 4,
      level: 4,
      sort: expect.any(Number),
      remark: '',
    });
    expect((await get('/region/detail?code=99')).statusCode).toBe(404);
    expect((await get('/region/detail?code=abc')).statusCode).toBe(400);
  });
});

describe('submit and remove', () => {
  it('creates a division with computed ancestors, and updates it when the code exists', async () => {
    const res = await post('/region/submit', {
      code: '522634100901',
      parentCode: '522634100',
      name: '测试村村民委员会',
      regionLevel: 5,
      sort: 99,
      remark: '测试',
      ancestors: 'forged',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      code: '522634100901',
      parentCode: '522634100',
      ancestors: '00,52,5226,522634,522634100',
      regionLevel: 5,
      sort: 99,
      remark: '测试',
    });
    const before = (await get('/region/list?parentCode=522634100&size=200')).json().data.total;
    const update = await post('/region/submit', { code: '522634100901', name: '改名村村民委员会' });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json().data).toMatchObject({ name: '改名村村民委员会', sort: 99, regionLevel: 5 });
    expect((await get('/region/list?parentCode=522634100&size=200')).json().data.total).toBe(before);
    const detail = (await get('/region/detail?code=522634100901')).json().data;
    expect(detail).toMatchObject({ name: '改名村村民委员会', parentName: '丹江镇' });
  });

  it('a new province sits below 00; moving a division moves the ancestors of those below it', async () => {
    const county = await post('/region/submit', {
      code: '529901',
      parentCode: '52',
      name: '测试县',
      regionLevel: 3,
    });
    expect(county.json().data.ancestors).toBe('00,52');
    const town = await post('/region/submit', {
      code: '529901001',
      parentCode: '529901',
      name: '测试镇',
      regionLevel: 4,
    });
    expect(town.json().data.ancestors).toBe('00,52,529901');
    const city = await post('/region/submit', {
      code: '5299',
      parentCode: '52',
      name: '测试市',
      regionLevel: 2,
    });
    expect(city.statusCode, city.body).toBe(200);
    const moved = await post('/region/submit', { code: '529901', parentCode: '5299' });
    expect(moved.json().data.ancestors).toBe('00,52,5299');
    expect((await get('/region/detail?code=529901001')).json().data.ancestors).toBe('00,52,5299,529901');
    const province = await post('/region/submit', { code: '99', name: '测试省', regionLevel: 1 });
    expect(province.json().data).toMatchObject({ parentCode: '00', ancestors: '00' });
    expect(await lazy()).toHaveLength(32);
    expect((await post('/region/remove?id=99')).statusCode).toBe(200);
    expect(await lazy()).toHaveLength(31);
    for (const code of ['529901001', '529901', '5299'])
      expect((await post(`/region/remove?id=${code}`)).statusCode, code).toBe(200);
    expect(await lazy('52')).toHaveLength(9);
  });

  it('refuses bad input naming the field, in the request language', async () => {
    const cases: [body: Record<string, unknown>, field: string, en?: string][] = [
      [{ parentCode: '52', name: 'x', regionLevel: 2 }, 'code', 'please enter region code'],
      [
        { code: '52a1', parentCode: '52', name: 'x', regionLevel: 2 },
        'code',
        'the region code must be 2 to 12 digits',
      ],
      [{ code: '1234567890123', name: 'x', regionLevel: 2 }, 'code'],
      [
        { code: '5398', parentCode: '52', name: 'x', regionLevel: 2 },
        'code',
        'the region code must start with its parent code',
      ],
      [{ code: '520', parentCode: '5299999', name: 'x', regionLevel: 2 }, 'code'],
      [
        { code: '529801', parentCode: '5298', name: 'x', regionLevel: 3 },
        'parentCode',
        'the parent region does not exist',
      ],
      [{ code: '5298', parentCode: '52', regionLevel: 2 }, 'name', 'please enter region name'],
      [{ code: '5298', parentCode: '52', name: 'x'.repeat(65), regionLevel: 2 }, 'name'],
      [{ code: '5298', parentCode: '52', name: 'x' }, 'regionLevel', 'please select region level'],
      [{ code: '5298', parentCode: '52', name: 'x', regionLevel: 6 }, 'regionLevel'],
      [{ code: '5298', parentCode: '52', name: 'x', regionLevel: 2, sort: -1 }, 'sort'],
    ];
    for (const [body, field, en] of cases) {
      const res = await post('/region/submit', body, admin, { 'accept-language': 'en' });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data, JSON.stringify(body)).toEqual({ field });
      if (en) expect(res.json().msg).toBe(en);
    }
    const zh = await post('/region/submit', { code: '5298', parentCode: '52', regionLevel: 2 });
    expect(zh.json().msg).toBe('请输入区划名称');
    expect((await get('/region/detail?code=5298')).statusCode).toBe(404);
  });

  it('a division with divisions below it cannot be removed; a leaf can', async () => {
    const zh = await post('/region/remove?id=522634');
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toEqual({ code: 400, success: false, data: null, msg: '请先删除子节点' });
    const en = await post('/region/remove?id=522634100', undefined, admin, { 'accept-language': 'en' });
    expect(en.json().msg).toBe('please remove its children first');
    await post('/region/submit', {
      code: '522634100902',
      parentCode: '522634100',
      name: '临时村',
      regionLevel: 5,
    });
    expect((await post('/region/remove?id=522634100902')).statusCode).toBe(200);
    expect((await get('/region/detail?code=522634100902')).statusCode).toBe(404);
    expect((await post('/region/remove?id=522634100902')).statusCode).toBe(404);
    expect((await get('/region/detail?code=522634')).statusCode).toBe(200);
  });
});

describe('access', () => {
  it('only the platform tenant changes regions; every tenant reads them', async () => {
    expect(await lazy(undefined, otherAdmin)).toHaveLength(31);
    expect((await get('/region/list?parentCode=00', otherAdmin)).json().data.total).toBe(31);
    const create = await post(
      '/region/submit',
      { code: '5297', parentCode: '52', name: 'x', regionLevel: 2 },
      otherAdmin,
    );
    expect(create.statusCode).toBe(403);
    expect((await post('/region/remove?id=522634100201', undefined, otherAdmin)).statusCode).toBe(403);
    expect((await get('/region/detail?code=522634100201')).statusCode).toBe(200);
  });

  it('the lazy tree is open to signed-in users; the rest follows the region codes', async () => {
    expect(await lazy('52', plain)).toHaveLength(9);
    expect((await get('/region/list', plain)).statusCode).toBe(403);
    expect((await get('/region/detail?code=52', plain)).statusCode).toBe(403);
    expect((await get('/region/list', viewer)).statusCode).toBe(200);
    expect((await get('/region/detail?code=52', viewer)).statusCode).toBe(200);
    expect(
      (await post('/region/submit', { code: '52', name: '贵州', regionLevel: 1 }, viewer)).statusCode,
    ).toBe(403);
    expect((await post('/region/remove?id=522634100201', undefined, viewer)).statusCode).toBe(403);
    const anon = await s.app.inject({ method: 'GET', url: `${SYS}/region/lazy-tree` });
    expect(anon.statusCode).toBe(401);
  });
});

describe('hostile input', () => {
  const hostile = encodeURIComponent("1' OR '1'='1");
  it('filter values are bound or refused, never SQL', async () => {
    const byName = await get(`/region/list?name=${hostile}`);
    expect(byName.statusCode).toBe(200);
    expect(byName.json().data.total).toBe(0);
    const byParent = await get(`/region/list?parentCode=${encodeURIComponent("1' OR '1")}`);
    expect(byParent.statusCode).toBe(200);
    expect(byParent.json().data.total).toBe(0);
    expect((await get(`/region/list?regionLevel=${hostile}`)).statusCode).toBe(400);
    expect((await get(`/region/lazy-tree?parentCode=${encodeURIComponent("1' OR '1")}`)).json().data).toEqual(
      [],
    );
    expect((await get(`/region/lazy-tree?parentCode=${hostile}`)).json().data).toEqual([]);
    expect((await get(`/region/lazy-tree?parentCode=${hostile}${hostile}`)).statusCode).toBe(400);
    expect((await get(`/region/detail?code=${hostile}`)).statusCode).toBe(400);
    expect((await post(`/region/remove?id=${hostile}`)).statusCode).toBe(400);
    const submit = await post('/region/submit', { code: "52' OR '1'='1", name: 'x', regionLevel: 1 });
    expect(submit.statusCode).toBe(400);
    expect(submit.json().data.field).toBe('code');
    expect(await lazy()).toHaveLength(31);
  });
});
