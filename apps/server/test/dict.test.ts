import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { dictServer, type Entry, flat } from './dict-kit';

/**
 * Platform dictionaries (dict) and the tenant's own (dict-biz): shapes, rules, removal, and the resource
 * engine's generic rules seen through them. Isolation and access are dict-access.test.ts.
 */

const k = dictServer();
const { get, post, makeDict, seededParent } = k;

type Node = Entry & { children: Node[] };
type TreeNode = {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  children: TreeNode[];
};

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
      const resEn = await post(`/${path}/submit`, body, k.admin, { 'accept-language': 'en' });
      expect(resEn.statusCode).toBe(400);
      expect(resEn.json()).toEqual({ code: 400, success: false, data: { field }, msg: en });
      // blank counts as missing
      if (field !== 'isSealed') {
        const blank = await post(`/${path}/submit`, { ...body, [field]: '  ' }, k.admin, {
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
      const en = await post(`/${path}/submit`, body, k.admin, { 'accept-language': 'en' });
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
      const res = await post('/dict/submit', { ...base, [field]: value }, k.admin, {
        'accept-language': 'en',
      });
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
    const en = await post('/dict/submit', body, k.admin, { 'accept-language': 'en' });
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
    const en = await post(`/dict/remove?ids=${id}`, undefined, k.admin, { 'accept-language': 'en' });
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
    const rows = await k.s.database.db
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

/** What the resource engine does for every binding, seen through the dictionaries. */
describe('the engine’s generic rules, through dictionaries', () => {
  it('a row every tenant reads: another tenant’s update and removal are 403 before its body is checked', async () => {
    const { parent, children } = await makeDict('dict', [['1', '甲']]);
    const bad = await post('/dict/submit', { id: children[0].id, sort: -5 }, k.otherAdmin);
    expect(bad.statusCode).toBe(403);
    const update = await post('/dict/submit', { id: parent.id, dictValue: '别人的' }, k.otherAdmin);
    expect(update.statusCode).toBe(403);
    const remove = await post(`/dict/remove?ids=${children[0].id}`, undefined, k.otherAdmin);
    expect(remove.statusCode).toBe(403);
    // read, whole and unchanged
    expect((await get(`/dict/detail?id=${parent.id}`, k.otherAdmin)).json().data.dictValue).toBe(
      parent.dictValue,
    );
    expect((await get(`/dict/dictionary?code=${parent.code}`, k.otherAdmin)).json().data).toHaveLength(1);
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
    const rows = await k.s.database.db
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
      const res = await get('/post/list?postCode=ceo', k.admin, { 'accept-language': 'en' });
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
