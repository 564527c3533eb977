import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { dictServer, type Entry, flat, SYS } from './dict-kit';
import { clearCaches, grantCodes, makeRole, makeUser } from './fixtures';

/**
 * Platform dictionaries (dict) and the tenant's own (dict-biz): isolation and access — dict-biz belongs to
 * its tenant, the permission codes, hostile input, the data scope of the screens. Shapes, rules and removal
 * are dict.test.ts.
 */

const k = dictServer();
const { get, post, makeDict, tokenFor } = k;

describe('dict-biz belongs to its tenant', () => {
  it("another tenant's administrator sees and touches none of tenant 000000's rows", async () => {
    const mine = await makeDict('dict-biz', [
      ['1', '红'],
      ['2', '绿'],
    ]);
    const row = await k.s.database.db
      .select({ tenantId: schema.dictBiz.tenantId })
      .from(schema.dictBiz)
      .where(eq(schema.dictBiz.id, mine.parent.id));
    expect(row[0].tenantId).toBe('000000');

    const list = (await get(`/dict-biz/list?code=${mine.code}`, k.otherAdmin)).json().data;
    expect(list).toEqual([]);
    const all = flat((await get('/dict-biz/list', k.otherAdmin)).json().data);
    expect(all.some((r) => r.code === mine.code)).toBe(false);
    expect((await get('/dict-biz/parent-list', k.otherAdmin)).json().data.total).toBe(0);
    expect((await get(`/dict-biz/child-list?parentId=${mine.parent.id}`, k.otherAdmin)).json().data).toEqual(
      [],
    );
    expect((await get(`/dict-biz/dictionary?code=${mine.code}`, k.otherAdmin)).json().data).toEqual([]);
    expect((await get('/dict-biz/tree?code=DICT', k.otherAdmin)).json().data).toEqual([]);
    expect((await get(`/dict-biz/detail?id=${mine.parent.id}`, k.otherAdmin)).statusCode).toBe(404);
    const update = await post(
      '/dict-biz/submit',
      { id: mine.children[0].id, dictKey: '1', dictValue: '黑', sort: 1, isSealed: 0 },
      k.otherAdmin,
    );
    expect(update.statusCode).toBe(404);
    // nor can it hang an entry below a foreign dictionary
    const below = await post(
      '/dict-biz/submit',
      { parentId: mine.parent.id, dictKey: '9', dictValue: '黑', sort: 1, isSealed: 0 },
      k.otherAdmin,
    );
    expect(below.statusCode).toBe(400);
    expect(below.json().data.field).toBe('parentId');
    expect((await post(`/dict-biz/remove?ids=${mine.parent.id}`, undefined, k.otherAdmin)).statusCode).toBe(
      404,
    );
    expect(
      (await post(`/dict-biz/remove?ids=${mine.children[1].id}`, undefined, k.otherAdmin)).statusCode,
    ).toBe(404);
    // untouched
    const still = (await get(`/dict-biz/dictionary?code=${mine.code}`)).json().data as Entry[];
    expect(still.map((e) => e.dictValue)).toEqual(['红', '绿']);
  });

  it('each tenant keeps its own codes; the rows carry the tenant', async () => {
    const theirs = await makeDict('dict-biz', [['1', '他们的']], k.otherAdmin);
    const rows = await k.s.database.db
      .select({ tenantId: schema.dictBiz.tenantId })
      .from(schema.dictBiz)
      .where(and(eq(schema.dictBiz.code, theirs.code)));
    expect(rows.map((r) => r.tenantId)).toEqual(['100001', '100001']);
    expect((await get(`/dict-biz/dictionary?code=${theirs.code}`)).json().data).toEqual([]);
    const own = (await get(`/dict-biz/dictionary?code=${theirs.code}`, k.otherAdmin)).json().data as Entry[];
    expect(own.map((e) => e.dictValue)).toEqual(['他们的']);
    const detail = (await get(`/dict-biz/detail?id=${theirs.parent.id}`, k.otherAdmin)).json().data;
    expect(detail.tenantId).toBe('100001');
    // the same code in tenant 000000 is no clash
    const same = await post('/dict-biz/submit', { code: theirs.code, dictValue: '我们的', sort: 1 });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('platform dictionaries are read by every tenant but changed only by the platform tenant', async () => {
    const read = await get('/dict/parent-list?code=sex', k.otherAdmin);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.total).toBe(1);
    const sex = read.json().data.records[0] as Entry;
    const create = await post('/dict/submit', { code: 'tenant_try', dictValue: '试', sort: 1 }, k.otherAdmin);
    expect(create.statusCode).toBe(403);
    const update = await post('/dict/submit', { ...sex, dictValue: '改' }, k.otherAdmin);
    expect(update.statusCode).toBe(403);
    expect((await post(`/dict/remove?ids=${sex.id}`, undefined, k.otherAdmin)).statusCode).toBe(403);
    expect((await get('/dict/dictionary?code=sex')).json().data).toHaveLength(3);
  });
});

describe('permissions', () => {
  it('a user without dict_delete gets 403 on remove, and reads and writes with the other codes', async () => {
    const { parent } = await makeDict('dict', [['1', '甲']]);
    expect((await post(`/dict/remove?ids=${parent.id}`, undefined, k.noDelete)).statusCode).toBe(403);
    expect((await get(`/dict/parent-list?code=${parent.code}`, k.noDelete)).json().data.total).toBe(1);
    expect((await get(`/dict/detail?id=${parent.id}`, k.noDelete)).statusCode).toBe(200);
    const edit = await post('/dict/submit', { id: parent.id, dictValue: '改' }, k.noDelete);
    expect(edit.statusCode, edit.body).toBe(200);
    // dict_biz: only the menu and view
    expect((await get('/dict-biz/parent-list', k.noDelete)).statusCode).toBe(200);
    expect(
      (await post('/dict-biz/submit', { code: 'k', dictValue: 'k', sort: 1 }, k.noDelete)).statusCode,
    ).toBe(403);
  });

  it('dictionary and tree are open to every signed-in user; the rest needs the codes', async () => {
    expect((await get('/dict/dictionary?code=sex', k.plain)).statusCode).toBe(200);
    expect((await get('/dict/tree?code=DICT', k.plain)).statusCode).toBe(200);
    expect((await get('/dict-biz/dictionary?code=sex', k.plain)).statusCode).toBe(200);
    expect((await get('/dict-biz/tree?code=DICT', k.plain)).statusCode).toBe(200);
    for (const url of ['/dict/list', '/dict/parent-list', '/dict/child-list?parentId=1', '/dict/detail?id=1'])
      expect((await get(url, k.plain)).statusCode, url).toBe(403);
    expect((await post('/dict/submit', { code: 'p', dictValue: 'p', sort: 1 }, k.plain)).statusCode).toBe(
      403,
    );
    expect((await post('/dict/remove?ids=1', undefined, k.plain)).statusCode).toBe(403);
    // not signed in
    const anon = await k.s.app.inject({ method: 'GET', url: `${SYS}/dict/dictionary?code=sex` });
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
    const db = k.s.database.db;
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
