import { afterAll, beforeAll, expect } from 'vitest';
import { grantCodes, makeRole, makeTenant, makeUser } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * What the dictionary tests share (dict.test.ts, dict-access.test.ts): a server with the seeded
 * administrator, another tenant's administrator and two limited users; the calls under /api/dfem-system;
 * new dictionaries to work on.
 */

export const SYS = '/api/dfem-system';

export type Entry = {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  remark: string;
  isSealed: number;
};

/** The rows of a tree answer, parents before their children. */
export const flat = (nodes: (Entry & { children?: Entry[] })[]): Entry[] =>
  nodes.flatMap((n) => [n, ...flat((n.children ?? []) as (Entry & { children?: Entry[] })[])]);

/**
 * Starts a test file's server (its beforeAll and afterAll) and answers what its tests use: the server `s` and
 * the tokens (set once beforeAll has run), and the calls, which read them when called.
 */
export function dictServer() {
  const k = {
    s: undefined as unknown as TestServer,
    /** the seeded administrator of tenant 000000 */
    admin: '',
    /** the administrator of tenant 100001 (granted everything) */
    otherAdmin: '',
    /** a user holding the dict codes but dict_delete, and only the view of dict_biz */
    noDelete: '',
    /** a user holding no codes at all */
    plain: '',
  };

  const tokenFor = async (account: string, tenantId = '000000') =>
    (await signIn(k.s, account, 'pass', tenantId)).access_token;

  beforeAll(async () => {
    k.s = await startTestServer();
    const db = k.s.database.db;
    k.admin = (await signIn(k.s)).access_token;
    await makeTenant(db, '100001', '第二租户');
    const roleB = await makeRole(db, '100001', 'administrator', '超级管理员');
    await grantCodes(db, roleB, 'all');
    await makeUser(db, { tenantId: '100001', account: 'badmin', roleIds: [roleB] });
    k.otherAdmin = await tokenFor('badmin', '100001');
    const limited = await makeRole(db, '000000', 'dict_keeper', '字典维护');
    await grantCodes(db, limited, [
      'dict',
      'dict_add',
      'dict_edit',
      'dict_view',
      'dict_biz',
      'dict_biz_view',
    ]);
    await makeUser(db, { account: 'keeper', roleIds: [limited] });
    k.noDelete = await tokenFor('keeper');
    const none = await makeRole(db, '000000', 'nobody', '无权限');
    await grantCodes(db, none, []);
    await makeUser(db, { account: 'plainuser', roleIds: [none] });
    k.plain = await tokenFor('plainuser');
  });
  afterAll(() => k.s?.close());

  function get(url: string, token = k.admin, headers: Record<string, string> = {}) {
    return k.s.app.inject({ method: 'GET', url: `${SYS}${url}`, headers: { ...auth(token), ...headers } });
  }
  function post(url: string, payload?: object, token = k.admin, headers: Record<string, string> = {}) {
    return k.s.app.inject({
      method: 'POST',
      url: `${SYS}${url}`,
      headers: { ...auth(token), ...headers },
      payload,
    });
  }

  let seq = 0;
  /** a new dictionary (parent row) with entries; answers the parent and the entries */
  async function makeDict(
    path: 'dict' | 'dict-biz',
    entries: [key: string, value: string][],
    token = k.admin,
  ) {
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

  /** a seeded dictionary's parent row, found by its code */
  async function seededParent(code: string) {
    const page = (await get(`/dict/parent-list?code=${code}&size=50`)).json().data;
    return (page.records as Entry[]).find((r) => r.code === code)!;
  }

  return Object.assign(k, { tokenFor, get, post, makeDict, seededParent });
}
