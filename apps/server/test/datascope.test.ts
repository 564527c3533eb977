import { noticeResource } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { clearCaches, grantCodes, makeRole, makeUser, sampleRecord } from './fixtures';
import { auth, md5Hex, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * The five data-scope types of the contract, on notices: 技术部 (tech), 运营部 (ops) and its child 村务组
 * (village) each have a user who writes one notice.
 */
const DEPT = { tech: '1123598813738675202', ops: '1123598813738675203', village: '1123598813738675205' };
let s: TestServer;
let role: string;
const tokens: Record<string, string> = {};
const rows: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  const db = s.database.db;
  role = await makeRole(db, '000000', 'clerk', '办事员');
  await grantCodes(db, role, ['notice', 'notice_add', 'notice_edit', 'notice_delete', 'notice_view']);
  for (const [name, deptId] of Object.entries(DEPT)) {
    await makeUser(db, { account: name, roleIds: [role], deptId });
    const res = await tokenRequest(s, { grant_type: 'password', username: name, password: md5Hex('pass') });
    tokens[name] = res.json().access_token;
    const created = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-desk/notice/submit',
      headers: auth(tokens[name]),
      payload: {
        ...sampleRecord(noticeResource, 1),
        title: `notice of ${name}`,
        category: name === 'village' ? '2' : '1',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    rows[name] = created.json().data.id;
  }
});
afterAll(() => s.close());

async function setScope(scopeType: number | null, scopeValue?: string) {
  const db = s.database.db;
  await db.delete(schema.roleScope);
  await db.delete(schema.scopeData);
  if (scopeType !== null) {
    const [scope] = await db
      .insert(schema.scopeData)
      .values({
        menuId: menuId('notice'),
        resourceCode: 'notice',
        scopeName: `type ${scopeType}`,
        scopeType,
        scopeValue,
      })
      .returning({ id: schema.scopeData.id });
    await db.insert(schema.roleScope).values({ scopeCategory: 1, scopeId: scope.id, roleId: role });
  }
  clearCaches();
}

async function visibleTo(user: string) {
  const res = await s.app.inject({
    method: 'GET',
    url: '/api/dfem-desk/notice/list?size=200',
    headers: auth(tokens[user]),
  });
  expect(res.statusCode).toBe(200);
  return res
    .json()
    .data.records.map((r: { title: string }) => r.title.replace('notice of ', ''))
    .sort();
}

const detail = (user: string, owner: string) =>
  s.app.inject({
    method: 'GET',
    url: `/api/dfem-desk/notice/detail?id=${rows[owner]}`,
    headers: auth(tokens[user]),
  });

describe('data scope', () => {
  it('without a granted scope the role sees every row of its tenant', async () => {
    await setScope(null);
    expect(await visibleTo('ops')).toEqual(['ops', 'tech', 'village']);
  });

  it('type 1 (all) sees every row', async () => {
    await setScope(1);
    expect(await visibleTo('ops')).toEqual(['ops', 'tech', 'village']);
  });

  it('type 2 (own rows) sees only what the user wrote; another row by id is not found', async () => {
    await setScope(2);
    expect(await visibleTo('ops')).toEqual(['ops']);
    expect((await detail('ops', 'tech')).statusCode).toBe(404);
    expect((await detail('ops', 'ops')).statusCode).toBe(200);
  });

  it('type 3 (own dept) sees rows written in the user’s dept only', async () => {
    await setScope(3);
    expect(await visibleTo('ops')).toEqual(['ops']);
    expect(await visibleTo('village')).toEqual(['village']);
    expect((await detail('ops', 'village')).statusCode).toBe(404);
  });

  it('type 4 (own dept and below) adds the depts below', async () => {
    await setScope(4);
    expect(await visibleTo('ops')).toEqual(['ops', 'village']);
    expect(await visibleTo('tech')).toEqual(['tech']);
    expect((await detail('ops', 'village')).statusCode).toBe(200);
    expect((await detail('ops', 'tech')).statusCode).toBe(404);
  });

  it('type 5 (custom) applies a condition over a whitelisted field', async () => {
    await setScope(5, JSON.stringify({ field: 'category', op: 'eq', value: '2' }));
    expect(await visibleTo('tech')).toEqual(['village']);
  });

  it('a custom scope naming a column outside the whitelist lets nothing through', async () => {
    await setScope(5, JSON.stringify({ field: 'is_deleted; drop table blade_user', op: 'eq', value: '0' }));
    expect(await visibleTo('tech')).toEqual([]);
  });

  it('writes obey the scope too: an update or remove outside it is not found and changes nothing', async () => {
    await setScope(2);
    const update = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-desk/notice/submit',
      headers: auth(tokens.ops),
      payload: { id: rows.tech, title: 'hijacked' },
    });
    expect(update.statusCode).toBe(404);
    const remove = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-desk/notice/remove?ids=${rows.tech},${rows.ops}`,
      headers: auth(tokens.ops),
    });
    expect(remove.statusCode).toBe(404);
    await setScope(null);
    expect(await visibleTo('ops')).toEqual(['ops', 'tech', 'village']); // nothing changed, nothing removed
  });

  it('the administrator sees all of its tenant whatever the scopes', async () => {
    await setScope(2);
    const { signIn } = await import('./harness');
    const admin = (await signIn(s)).access_token;
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-desk/notice/list?size=200',
      headers: auth(admin),
    });
    expect(res.json().data.total).toBe(3);
  });
});
