import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { clearCaches, grantCodes, makeRole, makeTenant, makeUser } from './fixtures';
import { auth, md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/** Platform dictionaries (dict) and the tenant's own (dict-biz): shapes, rules, removal, isolation, access. */

let s: TestServer;
let admin: string;
let otherAdmin: string;
let noDelete: string;
let plain: string;

const SYS = '/api/dfem-system';

async function tokenFor(account: string, tenantId = '000000') {
  const res = await tokenRequest(s, {
    grant_type: 'password',
    username: account,
    password: md5Hex('pass'),
    tenantId,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().access_token as string;
}

beforeAll(async () => {
  s = await startTestServer();
  const db = s.database.db;
  admin = (await signIn(s)).access_token;
  await makeTenant(db, '100001', '第二租户');
  const roleB = await makeRole(db, '100001', 'administrator', '超级管理员');
  await grantCodes(db, roleB, 'all');
  await makeUser(db, { tenantId: '100001', account: 'badmin', roleIds: [roleB] });
  otherAdmin = await tokenFor('badmin', '100001');
  const limited = await makeRole(db, '000000', 'dict_keeper', '字典维护');
  await grantCodes(db, limited, ['dict', 'dict_add', 'dict_edit', 'dict_view', 'dict_biz', 'dict_biz_view']);
  await makeUser(db, { account: 'keeper', roleIds: [limited] });
  noDelete = await tokenFor('keeper');
  const none = await makeRole(db, '000000', 'nobody', '无权限');
  await grantCodes(db, none, []);
  await makeUser(db, { account: 'plainuser', roleIds: [none] });
  plain = await tokenFor('plainuser');
});
afterAll(() => s?.close());

const get = (url: string, token = admin, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'GET', url: `${SYS}${url}`, headers: { ...auth(token), ...headers } });
const post = (url: string, payload?: object, token = admin, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url: `${SYS}${url}`, headers: { ...auth(token), ...headers }, payload });

/** The rows of a tree answer, parents before their children. */
const flat = (nodes: (Entry & { children?: Entry[] })[]): Entry[] =>
  nodes.flatMap((n) => [n, ...flat((n.children ?? []) as (Entry & { children?: Entry[] })[])]);

type Entry = {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  remark: string;
  isSealed: number;
};
type Node = Entry & { children: Node[] };
type TreeNode = {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  children: TreeNode[];
};

let seq = 0;
/** a new dictionary (parent row) with entries; answers the parent and the entries */
async function makeDict(path: 'dict' | 'dict-biz', entries: [key: string, value: string][], token = admin) {
  const code = `t_${path.replace('-', '_')}_${++seq}`;
  const res = await post(
    `/${path}/submit`,
    { code, dictValue: `测试字典${seq}`, sort: seq, isSealed: 0 },
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  const parent = res.json().data as Entry;
  const children: Entry[] = [];
  for (const [i, [dictKey, dictValue]] of entries.entries()) {
    const c = await post(
      `/${path}/submit`,
      { parentId: parent.id, code, dictKey, dictValue, sort: i + 1, isSealed: 0 },
      token,
    );
    expect(c.statusCode, c.body).toBe(200);
    children.push(c.json().data);
  }
  return { code, parent, children };
}

async function seededParent(code: string) {
  const page = (await get(`/dict/parent-list?code=${code}&size=50`)).json().data;
  return (page.records as Entry[]).find((r) => r.code === code)!;
}

describe('reads: shapes', () => {
  it('parent-list answers a page of dictionaries (parentId 0, key -1) with string ids', async () => {
    const res = await get('/dict/parent-list?current=1&size=5');
    expect(res.statusCode).toBe(200);
    const page = res.json().data;
    expect(Object.keys(page).sort()).toEqual(['current', 'pages', 'records', 'size', 'total']);
    expect(page).toMatchObject({ current: 1, size: 5 });
    expect(page.records).toHaveLength(5);
    expect(page.total).toBeGreaterThanOrEqual(15);
    expect(page.pages).toBe(Math.ceil(page.total / 5));
    for (const r of page.records as Entry[]) {
      expect(r.parentId).toBe('0');
      expect(r.dictKey).toBe('-1');
      expect(typeof r.id).toBe('string');
      expect(r.id).toMatch(/^\d+$/);
    }
  });

  it('parent-list filters code and name with like', async () => {
    const byCode = (await get('/dict/parent-list?code=sex')).json().data;
    expect(byCode.records.map((r: Entry) => r.code)).toEqual(['sex']);
    expect(byCode.records[0]).toMatchObject({ dictValue: '性别', isSealed: 0, sort: expect.any(Number) });
    const byName = (await get(`/dict/parent-list?dictValue=${encodeURIComponent('权限')}`)).json().data;
    expect(byName.records.map((r: Entry) => r.code).sort()).toEqual(['api_scope_type', 'data_scope_type']);
  });

  it('child-list answers the entries of one dictionary as a tree, nested entries under theirs', async () => {
    const sex = await seededParent('sex');
    const tree = (await get(`/dict/child-list?parentId=${sex.id}`)).json().data as Node[];
    expect(tree.map((n) => n.dictValue)).toEqual(['男', '女', '未知']);
    for (const n of tree) {
      expect(n).toMatchObject({ parentId: sex.id, code: 'sex', children: [] });
    }
    // an entry below an entry
    const { parent, children } = await makeDict('dict', [
      ['1', '一级'],
      ['2', '一级乙'],
    ]);
    const nested = await post('/dict/submit', {
      parentId: children[0].id,
      dictKey: '11',
      dictValue: '二级',
      sort: 1,
      isSealed: 0,
    });
    expect(nested.statusCode, nested.body).toBe(200);
    expect(nested.json().data.code).toBe(parent.code);
    const t = (await get(`/dict/child-list?parentId=${parent.id}`)).json().data as Node[];
    expect(t.map((n) => n.dictKey)).toEqual(['1', '2']);
    expect(t[0].children.map((n) => n.dictValue)).toEqual(['二级']);
    expect(t[0].children[0].children).toEqual([]);
    // the children of a nested entry
    const sub = (await get(`/dict/child-list?parentId=${children[0].id}`)).json().data as Node[];
    expect(sub.map((n) => n.dictKey)).toEqual(['11']);
    // an unknown parent has no children
    expect((await get('/dict/child-list?parentId=123')).json().data).toEqual([]);
  });

  it('tree?code=DICT is the picker tree of every dictionary, with the contract node fields', async () => {
    const res = await get('/dict/tree?code=DICT');
    expect(res.statusCode).toBe(200);
    const roots = res.json().data as TreeNode[];
    expect(roots.length).toBeGreaterThanOrEqual(15);
    for (const r of roots) {
      expect(Object.keys(r).sort()).toEqual(['children', 'id', 'key', 'parentId', 'title', 'value']);
      expect(r.parentId).toBe('0');
      expect(r.key).toBe(r.id);
      expect(r.value).toBe(r.id);
    }
    const sex = roots.find((r) => r.title === '性别')!;
    expect(sex.children.map((c) => c.title)).toEqual(['男', '女', '未知']);
    expect(sex.children[0].parentId).toBe(sex.id);
    // one dictionary's tree
    const only = (await get('/dict/tree?code=sex')).json().data as TreeNode[];
    expect(only).toHaveLength(1);
    expect(only[0].title).toBe('性别');
  });

  it('dictionary answers the entries of one code in order, exactly the contract fields', async () => {
    const rows = (await get('/dict/dictionary?code=sex')).json().data as Entry[];
    expect(rows.map((r) => [r.dictKey, r.dictValue])).toEqual([
      ['1', '男'],
      ['2', '女'],
      ['3', '未知'],
    ]);
    expect(Object.keys(rows[0]).sort()).toEqual(
      ['code', 'dictKey', 'dictValue', 'id', 'isSealed', 'parentId', 'remark', 'sort'].sort(),
    );
    expect(rows[0]).toMatchObject({ code: 'sex', isSealed: 0, remark: '' });
    expect(rows.map((r) => r.sort)).toEqual([1, 2, 3]);
    expect((await get('/dict/dictionary?code=no_such_code')).json().data).toEqual([]);
  });

  it('list answers every entry as a tree, also when current/size are sent (the family sends them)', async () => {
    const tree = (await get('/dict/list?code=yes_no')).json().data as (Entry & { children?: Entry[] })[];
    expect(Array.isArray(tree)).toBe(true);
    expect(tree.map((r) => r.dictKey)).toEqual(['-1']);
    expect(
      flat(tree)
        .map((r) => r.dictKey)
        .sort(),
    ).toEqual(['-1', '0', '1']);
    const paged = (await get('/dict/list?code=yes_no&current=1&size=2')).json().data;
    expect(paged).toEqual(tree);
    const byValue = flat((await get(`/dict/list?dictValue=${encodeURIComponent('未知')}`)).json().data);
    expect(byValue.map((r) => r.code)).toContain('sex');
  });

  it('detail answers one row; an unknown id is a 404', async () => {
    const sex = await seededParent('sex');
    const res = await get(`/dict/detail?id=${sex.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: sex.id, code: 'sex', dictValue: '性别', parentId: '0' });
    expect((await get('/dict/detail?id=42')).statusCode).toBe(404);
  });
});

describe('submit: validation (spec §5)', () => {
  const REQUIRED: [field: string, body: Record<string, unknown>, zh: string, en: string][] = [
    ['code', { dictValue: '名', sort: 1, isSealed: 0 }, '请输入字典编号', 'please enter dictionary number'],
    ['dictValue', { code: 'v_x', sort: 1, isSealed: 0 }, '请输入字典名称', 'please enter dictionary name'],
    ['sort', { code: 'v_x', dictValue: '名', isSealed: 0 }, '请输入字典排序', 'please enter dictionary sort'],
    [
      'isSealed',
      { code: 'v_x', dictValue: '名', sort: 1, isSealed: '' },
      '请选择封存',
      'please select sealed',
    ],
  ];

  for (const path of ['dict', 'dict-biz'] as const) {
    it.each(REQUIRED)(`${path}: a missing %s is refused in both languages`, async (field, body, zh, en) => {
      const resZh = await post(`/${path}/submit`, body);
      expect(resZh.statusCode).toBe(400);
      expect(resZh.json()).toEqual({ code: 400, success: false, data: { field }, msg: zh });
      const resEn = await post(`/${path}/submit`, body, admin, { 'accept-language': 'en' });
      expect(resEn.statusCode).toBe(400);
      expect(resEn.json()).toEqual({ code: 400, success: false, data: { field }, msg: en });
      // blank counts as missing
      if (field !== 'isSealed') {
        const blank = await post(`/${path}/submit`, { ...body, [field]: '  ' }, admin, {
          'accept-language': 'en',
        });
        expect(blank.json().msg).toBe(en);
      }
    });

    it(`${path}: a child's missing dictKey is refused in both languages`, async () => {
      const { parent } = await makeDict(path, []);
      const body = { parentId: parent.id, dictValue: '项', sort: 1, isSealed: 0 };
      const zh = await post(`/${path}/submit`, body);
      expect(zh.statusCode).toBe(400);
      expect(zh.json()).toEqual({
        code: 400,
        success: false,
        data: { field: 'dictKey' },
        msg: '请输入字典键值',
      });
      const en = await post(`/${path}/submit`, body, admin, { 'accept-language': 'en' });
      expect(en.json()).toEqual({
        code: 400,
        success: false,
        data: { field: 'dictKey' },
        msg: 'please enter dictionary key',
      });
    });
  }

  it('isSealed defaults to 0 when absent and must be 0 or 1', async () => {
    const res = await post('/dict/submit', { code: 'v_default_sealed', dictValue: '默认', sort: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ isSealed: 0, parentId: '0', dictKey: '-1', remark: '' });
    const bad = await post('/dict/submit', { code: 'v_bad_sealed', dictValue: '坏', sort: 0, isSealed: 2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('isSealed');
  });

  it('lengths are at most 255 and sort is an integer of at least 0', async () => {
    const base = { code: 'v_len', dictValue: '长', sort: 1, isSealed: 0 };
    for (const [field, value] of [
      ['code', 'x'.repeat(256)],
      ['dictValue', '长'.repeat(256)],
      ['remark', 'r'.repeat(256)],
      ['sort', -1],
      ['sort', 1.5],
      ['sort', 'abc'],
    ] as const) {
      const res = await post('/dict/submit', { ...base, [field]: value }, admin, { 'accept-language': 'en' });
      expect(res.statusCode, `${field}=${String(value).slice(0, 10)}`).toBe(400);
      expect(res.json().data.field).toBe(field);
      expect(res.json().msg).not.toMatch(/select|insert|stack/i);
    }
    const max = await post('/dict/submit', { ...base, code: 'c'.repeat(255), remark: 'r'.repeat(255) });
    expect(max.statusCode, max.body).toBe(200);
  });

  it("a child's code is its parent's, whatever the body says", async () => {
    const { parent } = await makeDict('dict', []);
    const res = await post('/dict/submit', {
      parentId: parent.id,
      code: 'something_else',
      dictKey: 'k',
      dictValue: '项',
      sort: 1,
      isSealed: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ code: parent.code, parentId: parent.id, dictKey: 'k' });
  });

  it('a parentId that is not a live row of the same table and tenant is refused', async () => {
    const body = { dictKey: 'k', dictValue: '项', sort: 1, isSealed: 0 };
    const unknown = await post('/dict/submit', { ...body, parentId: '123456' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data.field).toBe('parentId');
    const { parent: bizParent } = await makeDict('dict-biz', []);
    const crossTable = await post('/dict/submit', { ...body, parentId: bizParent.id });
    expect(crossTable.json().data).toEqual({ field: 'parentId' });
    const malformed = await post('/dict/submit', { ...body, parentId: "1' OR '1'='1" });
    expect(malformed.json().data).toEqual({ field: 'parentId' });
  });

  it('a duplicate key within a dictionary is refused; the same key elsewhere is fine', async () => {
    const { parent } = await makeDict('dict', [['1', '甲']]);
    const body = { parentId: parent.id, dictKey: '1', dictValue: '乙', sort: 2, isSealed: 0 };
    const zh = await post('/dict/submit', body);
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toEqual({
      code: 400,
      success: false,
      data: { field: 'dictKey' },
      msg: '字典键值已存在',
    });
    const en = await post('/dict/submit', body, admin, { 'accept-language': 'en' });
    expect(en.json().msg).toBe('dictionary key already exists');
    const other = await makeDict('dict', [['1', '甲']]);
    expect(other.children[0].dictKey).toBe('1');
    // the biz table of the tenant is another namespace
    const biz = await makeDict('dict-biz', [['1', '甲']]);
    expect(biz.children).toHaveLength(1);
  });

  it('a duplicate dictionary code is refused', async () => {
    const res = await post('/dict/submit', { code: 'sex', dictValue: '性别二', sort: 1, isSealed: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('code');
  });

  it('an update changes the row; a dictionary renamed takes its entries along', async () => {
    const { parent, children } = await makeDict('dict', [
      ['a', '甲'],
      ['b', '乙'],
    ]);
    const renamed = `${parent.code}_renamed`;
    const res = await post('/dict/submit', { ...parent, code: renamed, dictValue: '改名', remark: '备注' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: parent.id,
      code: renamed,
      dictValue: '改名',
      remark: '备注',
    });
    const entries = (await get(`/dict/dictionary?code=${renamed}`)).json().data as Entry[];
    expect(entries.map((e) => e.id)).toEqual(children.map((c) => c.id));
    expect((await get(`/dict/dictionary?code=${parent.code}`)).json().data).toEqual([]);
    // an update of one field keeps the others
    const partial = await post('/dict/submit', { id: children[0].id, dictValue: '甲甲' });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json().data).toMatchObject({ dictKey: 'a', dictValue: '甲甲', code: renamed, sort: 1 });
    // an entry cannot move below itself
    const cyclic = await post('/dict/submit', { id: children[0].id, parentId: children[0].id });
    expect(cyclic.json().data).toEqual({ field: 'parentId' });
    // an unknown id is a 404
    const gone = await post('/dict/submit', { id: '999', code: 'x', dictValue: 'x', sort: 1, isSealed: 0 });
    expect(gone.statusCode).toBe(404);
  });
});

describe('remove', () => {
  it('a sealed entry cannot be removed, nor a dictionary holding one', async () => {
    const { parent } = await makeDict('dict', [['1', '甲']]);
    const sealed = await post('/dict/submit', {
      parentId: parent.id,
      dictKey: '2',
      dictValue: '封存项',
      sort: 2,
      isSealed: 1,
    });
    expect(sealed.statusCode, sealed.body).toBe(200);
    const id = sealed.json().data.id;
    const zh = await post(`/dict/remove?ids=${id}`);
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toMatchObject({ code: 400, success: false, msg: '封存的字典不能删除' });
    const en = await post(`/dict/remove?ids=${id}`, undefined, admin, { 'accept-language': 'en' });
    expect(en.json().msg).toBe('a sealed dictionary cannot be removed');
    const withParent = await post(`/dict/remove?ids=${parent.id}`);
    expect(withParent.statusCode).toBe(400);
    // nothing was removed
    expect((await get(`/dict/dictionary?code=${parent.code}`)).json().data).toHaveLength(2);
    // unsealed, it goes
    expect((await post('/dict/submit', { id, isSealed: 0 })).statusCode).toBe(200);
    expect((await post(`/dict/remove?ids=${id}`)).statusCode).toBe(200);
  });

  it('removing a dictionary removes its entries (soft delete, nested entries too)', async () => {
    const { parent, children } = await makeDict('dict', [
      ['1', '甲'],
      ['2', '乙'],
    ]);
    const nested = await post('/dict/submit', {
      parentId: children[0].id,
      dictKey: '11',
      dictValue: '丙',
      sort: 1,
    });
    const nestedId = nested.json().data.id as string;
    const res = await post(`/dict/remove?ids=${parent.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(`/dict/dictionary?code=${parent.code}`)).json().data).toEqual([]);
    expect((await get(`/dict/detail?id=${children[1].id}`)).statusCode).toBe(404);
    expect((await get(`/dict/parent-list?code=${parent.code}`)).json().data.total).toBe(0);
    const ids = [parent.id, ...children.map((c) => c.id), nestedId];
    const rows = await s.database.db
      .select({ id: schema.dict.id, isDeleted: schema.dict.isDeleted })
      .from(schema.dict)
      .where(inArray(schema.dict.id, ids));
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.isDeleted === 1)).toBe(true);
    // the code is free again
    const again = await post('/dict/submit', { code: parent.code, dictValue: '重建', sort: 1 });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('removes several at once, all or nothing', async () => {
    const a = await makeDict('dict-biz', [['1', '甲']]);
    const b = await makeDict('dict-biz', []);
    const partial = await post(`/dict-biz/remove?ids=${a.parent.id},999`);
    expect(partial.statusCode).toBe(404);
    expect((await get(`/dict-biz/dictionary?code=${a.code}`)).json().data).toHaveLength(1);
    const both = await post(`/dict-biz/remove?ids=${a.parent.id},${b.parent.id}`);
    expect(both.statusCode).toBe(200);
    expect((await get(`/dict-biz/dictionary?code=${a.code}`)).json().data).toEqual([]);
    expect((await post('/dict-biz/remove')).statusCode).toBe(400);
  });
});

describe('dict-biz belongs to its tenant', () => {
  it("another tenant's administrator sees and touches none of tenant 000000's rows", async () => {
    const mine = await makeDict('dict-biz', [
      ['1', '红'],
      ['2', '绿'],
    ]);
    const row = await s.database.db
      .select({ tenantId: schema.dictBiz.tenantId })
      .from(schema.dictBiz)
      .where(eq(schema.dictBiz.id, mine.parent.id));
    expect(row[0].tenantId).toBe('000000');

    const list = (await get(`/dict-biz/list?code=${mine.code}`, otherAdmin)).json().data;
    expect(list).toEqual([]);
    const all = flat((await get('/dict-biz/list', otherAdmin)).json().data);
    expect(all.some((r) => r.code === mine.code)).toBe(false);
    expect((await get('/dict-biz/parent-list', otherAdmin)).json().data.total).toBe(0);
    expect((await get(`/dict-biz/child-list?parentId=${mine.parent.id}`, otherAdmin)).json().data).toEqual(
      [],
    );
    expect((await get(`/dict-biz/dictionary?code=${mine.code}`, otherAdmin)).json().data).toEqual([]);
    expect((await get('/dict-biz/tree?code=DICT', otherAdmin)).json().data).toEqual([]);
    expect((await get(`/dict-biz/detail?id=${mine.parent.id}`, otherAdmin)).statusCode).toBe(404);
    const update = await post(
      '/dict-biz/submit',
      { id: mine.children[0].id, dictKey: '1', dictValue: '黑', sort: 1, isSealed: 0 },
      otherAdmin,
    );
    expect(update.statusCode).toBe(404);
    // nor can it hang an entry below a foreign dictionary
    const below = await post(
      '/dict-biz/submit',
      { parentId: mine.parent.id, dictKey: '9', dictValue: '黑', sort: 1, isSealed: 0 },
      otherAdmin,
    );
    expect(below.statusCode).toBe(400);
    expect(below.json().data.field).toBe('parentId');
    expect((await post(`/dict-biz/remove?ids=${mine.parent.id}`, undefined, otherAdmin)).statusCode).toBe(
      404,
    );
    expect(
      (await post(`/dict-biz/remove?ids=${mine.children[1].id}`, undefined, otherAdmin)).statusCode,
    ).toBe(404);
    // untouched
    const still = (await get(`/dict-biz/dictionary?code=${mine.code}`)).json().data as Entry[];
    expect(still.map((e) => e.dictValue)).toEqual(['红', '绿']);
  });

  it('each tenant keeps its own codes; the rows carry the tenant', async () => {
    const theirs = await makeDict('dict-biz', [['1', '他们的']], otherAdmin);
    const rows = await s.database.db
      .select({ tenantId: schema.dictBiz.tenantId })
      .from(schema.dictBiz)
      .where(and(eq(schema.dictBiz.code, theirs.code)));
    expect(rows.map((r) => r.tenantId)).toEqual(['100001', '100001']);
    expect((await get(`/dict-biz/dictionary?code=${theirs.code}`)).json().data).toEqual([]);
    const own = (await get(`/dict-biz/dictionary?code=${theirs.code}`, otherAdmin)).json().data as Entry[];
    expect(own.map((e) => e.dictValue)).toEqual(['他们的']);
    const detail = (await get(`/dict-biz/detail?id=${theirs.parent.id}`, otherAdmin)).json().data;
    expect(detail.tenantId).toBe('100001');
    // the same code in tenant 000000 is no clash
    const same = await post('/dict-biz/submit', { code: theirs.code, dictValue: '我们的', sort: 1 });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('platform dictionaries are read by every tenant but changed only by the platform tenant', async () => {
    const read = await get('/dict/parent-list?code=sex', otherAdmin);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.total).toBe(1);
    const sex = read.json().data.records[0] as Entry;
    const create = await post('/dict/submit', { code: 'tenant_try', dictValue: '试', sort: 1 }, otherAdmin);
    expect(create.statusCode).toBe(403);
    const update = await post('/dict/submit', { ...sex, dictValue: '改' }, otherAdmin);
    expect(update.statusCode).toBe(403);
    expect((await post(`/dict/remove?ids=${sex.id}`, undefined, otherAdmin)).statusCode).toBe(403);
    expect((await get('/dict/dictionary?code=sex')).json().data).toHaveLength(3);
  });
});

describe('permissions', () => {
  it('a user without dict_delete gets 403 on remove, and reads and writes with the other codes', async () => {
    const { parent } = await makeDict('dict', [['1', '甲']]);
    expect((await post(`/dict/remove?ids=${parent.id}`, undefined, noDelete)).statusCode).toBe(403);
    expect((await get(`/dict/parent-list?code=${parent.code}`, noDelete)).json().data.total).toBe(1);
    expect((await get(`/dict/detail?id=${parent.id}`, noDelete)).statusCode).toBe(200);
    const edit = await post('/dict/submit', { id: parent.id, dictValue: '改' }, noDelete);
    expect(edit.statusCode, edit.body).toBe(200);
    // dict_biz: only the menu and view
    expect((await get('/dict-biz/parent-list', noDelete)).statusCode).toBe(200);
    expect(
      (await post('/dict-biz/submit', { code: 'k', dictValue: 'k', sort: 1 }, noDelete)).statusCode,
    ).toBe(403);
  });

  it('dictionary and tree are open to every signed-in user; the rest needs the codes', async () => {
    expect((await get('/dict/dictionary?code=sex', plain)).statusCode).toBe(200);
    expect((await get('/dict/tree?code=DICT', plain)).statusCode).toBe(200);
    expect((await get('/dict-biz/dictionary?code=sex', plain)).statusCode).toBe(200);
    expect((await get('/dict-biz/tree?code=DICT', plain)).statusCode).toBe(200);
    for (const url of ['/dict/list', '/dict/parent-list', '/dict/child-list?parentId=1', '/dict/detail?id=1'])
      expect((await get(url, plain)).statusCode, url).toBe(403);
    expect((await post('/dict/submit', { code: 'p', dictValue: 'p', sort: 1 }, plain)).statusCode).toBe(403);
    expect((await post('/dict/remove?ids=1', undefined, plain)).statusCode).toBe(403);
    // not signed in
    const anon = await s.app.inject({ method: 'GET', url: `${SYS}/dict/dictionary?code=sex` });
    expect(anon.statusCode).toBe(401);
  });
});

describe('hostile input', () => {
  const hostile = encodeURIComponent("1' OR '1'='1");
  it('filter values are bound, never SQL', async () => {
    for (const url of [
      `/dict/parent-list?code=${hostile}`,
      `/dict/parent-list?dictValue=${hostile}`,
      `/dict-biz/parent-list?code=${hostile}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().data.total, url).toBe(0);
    }
    expect((await get(`/dict/list?dictValue=${hostile}`)).json().data).toEqual([]);
    expect((await get(`/dict/list?code=${hostile}&current=1&size=10`)).json().data).toEqual([]);
    expect((await get(`/dict/dictionary?code=${hostile}`)).json().data).toEqual([]);
    expect((await get(`/dict/tree?code=${hostile}`)).json().data).toEqual([]);
    // LIKE wildcards are literal
    expect((await get('/dict/parent-list?code=%25')).json().data.total).toBe(0);
    expect((await get('/dict/parent-list?code=_')).json().data.total).toBeGreaterThan(0); // menu_category…
  });

  it('malformed ids and paging are a 400 naming the parameter', async () => {
    for (const [url, field] of [
      [`/dict/detail?id=${hostile}`, 'id'],
      [`/dict/child-list?parentId=${hostile}`, 'parentId'],
      ['/dict/parent-list?size=100000', 'size'],
      ['/dict/list?current=0', 'current'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().data.field, url).toBe(field);
    }
    const remove = await post(`/dict/remove?ids=${hostile}`);
    expect(remove.statusCode).toBe(400);
    const badId = await post('/dict/submit', { id: '1 OR 1=1', code: 'x', dictValue: 'x', sort: 1 });
    expect(badId.statusCode).toBe(400);
    // the seeded dictionaries are all still there
    expect((await get('/dict/dictionary?code=sex')).json().data).toHaveLength(3);
  });
});

describe('the data scope of the dictionary screens', () => {
  /** A role holding the dict-biz screen with a data scope on dictBiz (the definition's key). */
  async function scopedKeeper(account: string, scopeType: number, scopeValue?: string) {
    const db = s.database.db;
    const role = await makeRole(db, '000000', account, account);
    await grantCodes(db, role, ['dict_biz', 'dict_biz_view', 'dict_biz_edit', 'dict_biz_delete']);
    const [scope] = await db
      .insert(schema.scopeData)
      .values({
        menuId: menuId('dict_biz'),
        resourceCode: 'dictBiz',
        scopeName: `dict-biz ${account}`,
        scopeType,
        scopeValue,
      })
      .returning({ id: schema.scopeData.id });
    await db.insert(schema.roleScope).values({ scopeCategory: 1, scopeId: scope.id, roleId: role });
    clearCaches();
    await makeUser(db, { account, roleIds: [role] });
    return tokenFor(account);
  }

  it('a custom scope narrows list, parent-list, child-list, detail, submit and remove; the pickers stay whole', async () => {
    const seen = await makeDict('dict-biz', [['1', '甲']]);
    const hidden = await makeDict('dict-biz', [['1', '乙']]);
    const token = await scopedKeeper(
      'scoped_keeper',
      5,
      JSON.stringify({ field: 'code', op: 'eq', value: seen.code }),
    );
    const parents = (await get('/dict-biz/parent-list?size=200', token)).json().data.records as Entry[];
    expect(parents.map((r) => r.code)).toEqual([seen.code]);
    const all = flat((await get('/dict-biz/list', token)).json().data);
    expect(new Set(all.map((r) => r.code))).toEqual(new Set([seen.code]));
    expect((await get(`/dict-biz/child-list?parentId=${hidden.parent.id}`, token)).json().data).toEqual([]);
    expect((await get(`/dict-biz/detail?id=${hidden.parent.id}`, token)).statusCode).toBe(404);
    expect((await get(`/dict-biz/detail?id=${seen.parent.id}`, token)).statusCode).toBe(200);
    const edit = await post('/dict-biz/submit', { id: hidden.children[0].id, dictValue: '改' }, token);
    expect(edit.statusCode).toBe(404);
    expect((await post(`/dict-biz/remove?ids=${hidden.parent.id}`, undefined, token)).statusCode).toBe(404);
    // every screen's selects still read the whole dictionary
    const entries = (await get(`/dict-biz/dictionary?code=${hidden.code}`, token)).json().data as Entry[];
    expect(entries.map((e) => e.dictValue)).toEqual(['乙']);
  });

  it('rows record their creator: a scope of own rows shows only the caller’s own', async () => {
    await makeDict('dict-biz', [['1', '丙']]);
    const token = await scopedKeeper('own_keeper', 2);
    // the seeded rows and the administrator's are not the keeper's
    expect((await get('/dict-biz/parent-list', token)).json().data.total).toBe(0);
    expect(flat((await get('/dict-biz/list', token)).json().data)).toEqual([]);
  });
});

/** What the resource engine does for every binding, seen through the dictionaries. */
describe('the engine’s generic rules, through dictionaries', () => {
  it('a row every tenant reads: another tenant’s update and removal are 403 before its body is checked', async () => {
    const { parent, children } = await makeDict('dict', [['1', '甲']]);
    const bad = await post('/dict/submit', { id: children[0].id, sort: -5 }, otherAdmin);
    expect(bad.statusCode).toBe(403);
    const update = await post('/dict/submit', { id: parent.id, dictValue: '别人的' }, otherAdmin);
    expect(update.statusCode).toBe(403);
    const remove = await post(`/dict/remove?ids=${children[0].id}`, undefined, otherAdmin);
    expect(remove.statusCode).toBe(403);
    // read, whole and unchanged
    expect((await get(`/dict/detail?id=${parent.id}`, otherAdmin)).json().data.dictValue).toBe(
      parent.dictValue,
    );
    expect((await get(`/dict/dictionary?code=${parent.code}`, otherAdmin)).json().data).toHaveLength(1);
  });

  it('a tree without an ancestors path refuses a parent below the row, at any depth', async () => {
    const { parent, children } = await makeDict('dict', [['1', '甲']]);
    const b = (
      await post('/dict/submit', { parentId: children[0].id, dictKey: '11', dictValue: '乙', sort: 1 })
    ).json().data as Entry;
    const c = (
      await post('/dict/submit', { parentId: b.id, dictKey: '111', dictValue: '丙', sort: 1 })
    ).json().data as Entry;
    for (const [row, below] of [
      [children[0], b],
      [children[0], c],
      [parent, c],
      [b, c],
    ] as const) {
      const res = await post('/dict/submit', { id: row.id, parentId: below.id });
      expect(res.statusCode, `${row.dictValue} below ${below.dictValue}`).toBe(400);
      expect(res.json().data).toEqual({ field: 'parentId' });
    }
    // nothing moved; a move up the tree is fine
    const t = (await get(`/dict/child-list?parentId=${parent.id}`)).json().data as Node[];
    expect(t[0].children[0].children.map((n) => n.id)).toEqual([c.id]);
    const up = await post('/dict/submit', { id: c.id, parentId: children[0].id });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data).toMatchObject({ parentId: children[0].id, code: parent.code });
  });

  it('a removal takes the subtree along, and a sealed row anywhere in it refuses the whole removal', async () => {
    const { parent, children } = await makeDict('dict-biz', [
      ['1', '甲'],
      ['2', '乙'],
    ]);
    const b = (
      await post('/dict-biz/submit', { parentId: children[0].id, dictKey: '11', dictValue: '乙', sort: 1 })
    ).json().data as Entry;
    const sealed = (
      await post('/dict-biz/submit', {
        parentId: b.id,
        dictKey: '111',
        dictValue: '封',
        sort: 1,
        isSealed: 1,
      })
    ).json().data as Entry;
    for (const ids of [children[0].id, parent.id, `${children[1].id},${b.id}`]) {
      const res = await post(`/dict-biz/remove?ids=${ids}`);
      expect(res.statusCode, ids).toBe(400);
      expect(res.json().msg).toBe('封存的字典不能删除');
    }
    // all or nothing: every row is still there
    expect((await get(`/dict-biz/dictionary?code=${parent.code}`)).json().data).toHaveLength(4);
    // unsealed, the entry goes with everything below it, and its sibling stays
    expect((await post('/dict-biz/submit', { id: sealed.id, isSealed: 0 })).statusCode).toBe(200);
    expect((await post(`/dict-biz/remove?ids=${children[0].id}`)).statusCode).toBe(200);
    const left = (await get(`/dict-biz/dictionary?code=${parent.code}`)).json().data as Entry[];
    expect(left.map((e) => e.id)).toEqual([children[1].id]);
    const rows = await s.database.db
      .select({ isDeleted: schema.dictBiz.isDeleted })
      .from(schema.dictBiz)
      .where(inArray(schema.dictBiz.id, [children[0].id, b.id, sealed.id]));
    expect(rows.map((r) => r.isDeleted)).toEqual([1, 1, 1]);
  });

  it('a row moved into another dictionary takes its subtree and the subtree’s keys along', async () => {
    const from = await makeDict('dict', [['1', '甲']]);
    const nested = (
      await post('/dict/submit', { parentId: from.children[0].id, dictKey: '7', dictValue: '七', sort: 1 })
    ).json().data as Entry;
    const clashing = await makeDict('dict', [
      ['2', '乙'],
      ['7', '另一个七'],
    ]);
    // the nested key 7 would clash in the other dictionary
    const refused = await post('/dict/submit', { id: from.children[0].id, parentId: clashing.parent.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data).toEqual({ field: 'dictKey' });
    const to = await makeDict('dict', [['2', '乙']]);
    const moved = await post('/dict/submit', { id: from.children[0].id, parentId: to.parent.id });
    expect(moved.statusCode, moved.body).toBe(200);
    const entries = (await get(`/dict/dictionary?code=${to.code}`)).json().data as Entry[];
    expect(entries.map((e) => [e.dictKey, e.code])).toEqual(
      expect.arrayContaining([
        ['1', to.code],
        ['7', to.code],
      ]),
    );
    expect((await get(`/dict/detail?id=${nested.id}`)).json().data.code).toBe(to.code);
    expect((await get(`/dict/dictionary?code=${from.code}`)).json().data).toEqual([]);
  });

  it('labels of platform dictionary values follow a change at once (the kept labels are dropped)', async () => {
    const label = async () => {
      const res = await get('/post/list?postCode=ceo', admin, { 'accept-language': 'en' });
      return res.json().data.records[0].categoryName as string;
    };
    expect(await label()).toBe('Senior management');
    const entry = ((await get('/dict/dictionary?code=post_category')).json().data as Entry[]).find(
      (e) => e.dictKey === '1',
    )!;
    const changed = await post('/dict/submit', { id: entry.id, dictValueEn: 'Top management' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await label()).toBe('Top management');
    await post('/dict/submit', { id: entry.id, dictValueEn: 'Senior management' });
    expect(await label()).toBe('Senior management');
  });
});
