import { pagingKeys, RESOURCES, type ResourceDef } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../src/platform/auth/context';
import { mountedByKey } from '../src/platform/crud/refs';
import { insertRows } from '../src/platform/crud/write';
import type { Db } from '../src/platform/db';
import { SEED } from '../src/seed/system';
import {
  freshRecord,
  grantCodes,
  listedRows,
  makeRole,
  makeTenant,
  makeUser,
  sampleRecord,
} from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Generated from the registry: every resource gets the same isolation and permission cases, so a new
 * resource is covered the day it is declared.
 */
let s: TestServer;
let adminA: string; // tenant 000000's administrator
let adminB: string; // another tenant's administrator, holding every code
let limited: string; // a tenant-000000 user whose role's codes each case sets
let limitedRole: string;
let n = 0;
const cases = { isolation: 0, permission: 0 };

beforeAll(async () => {
  s = await startTestServer();
  const db = s.database.db;
  adminA = (await signIn(s)).access_token;
  await makeTenant(db, '100001', '第二租户');
  const roleB = await makeRole(db, '100001', 'administrator', '超级管理员');
  await grantCodes(db, roleB, 'all');
  await makeUser(db, { tenantId: '100001', account: 'badmin', roleIds: [roleB] });
  adminB = (await tokenFor('badmin', '100001')).access_token;
  limitedRole = await makeRole(db, '000000', 'limited', '受限角色');
  await makeUser(db, { account: 'limited', roleIds: [limitedRole], deptId: SEED.rootDeptId });
  limited = (await tokenFor('limited')).access_token;
});
afterAll(async () => {
  console.log(
    `resource cases: ${cases.isolation} isolation, ${cases.permission} permission, over ${RESOURCES.length} resources`,
  );
  await s?.close();
});

async function tokenFor(account: string, tenantId = '000000') {
  const { tokenRequest, md5Hex } = await import('./harness');
  const res = await tokenRequest(s, {
    grant_type: 'password',
    username: account,
    password: md5Hex('pass'),
    tenantId,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

/** the first page of 200 rows, in the definition's paging keys (`page`/`size` for seedlings) */
const firstPage = (d: ResourceDef) => {
  const [page, size] = pagingKeys(d);
  return `${page}=1&${size}=200`;
};
const base = (d: ResourceDef) => (d.path ? `/api/${d.service}/${d.path}` : `/api/${d.service}`);
/** the removal of one row: `remove?ids=`, or the binding's own route there (the spec's region: `remove?id=`) */
const removeUrl = (d: ResourceDef, id: string) => {
  const own = mountedByKey
    .get(d.key)
    ?.hooks.removeRoutes?.find((r) => r.method === 'POST' && r.path === 'remove');
  return `${base(d)}/remove?${own?.idsParam ?? 'ids'}=${id}`;
};
const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });

async function create(def: ResourceDef, token = adminA, given?: Record<string, unknown>) {
  const record = given ?? (await freshRecord(s, def, ++n, token === adminB ? '100001' : '000000'));
  if (def.readOnly) return written(def, token === adminB ? '100001' : '000000', record);
  const res = await call(token, 'POST', `${base(def)}/submit`, record);
  expect(res.statusCode, `${def.key} create: ${res.body}`).toBe(200);
  return res.json().data as { id: string } & Record<string, unknown>;
}

/**
 * A row of a resource only the server writes (a log, `readOnly`): through the engine's write path, as the
 * server's own endpoint writes it (the video wall's watch log: camera/watch).
 */
async function written(def: ResourceDef, tenantId: string, record: Record<string, unknown>) {
  const m = mountedByKey.get(def.key);
  if (!m) throw new Error(`${def.key} is not mounted`);
  const ctx = { tenantId, userId: SEED.adminUserId, deptId: SEED.rootDeptId } as RequestContext;
  const [w] = await s.database.db.transaction((tx) =>
    insertRows(m, ctx, tx as unknown as Db, [record], { answer: true }),
  );
  m.changed();
  return { ...w.row, id: String(w.row.id) } as { id: string } & Record<string, unknown>;
}

describe.each(RESOURCES.map((d) => [d.key, d] as const))('%s', (_key, def) => {
  it('the owner tenant can create, list, read, update and remove', async () => {
    const row = await create(def);
    const list = (
      await call(adminA, 'GET', `${base(def)}/${def.listPath ?? 'list'}?${firstPage(def)}`)
    ).json();
    expect(listedRows(list.data).map((r) => r.id)).toContain(row.id);
    const detail = await call(adminA, 'GET', `${base(def)}/detail?id=${row.id}`);
    expect(detail.statusCode).toBe(200);
    // a secret is never answered: at most its declared stand-in
    for (const f of def.fields.filter((x) => x.secret)) {
      if (f.secretShown === undefined) expect(detail.json().data).not.toHaveProperty(f.name);
      else expect(detail.json().data[f.name]).toBe(f.secretShown);
    }
    if (def.readOnly) {
      // written by the server only: neither changed nor removed through the API, whoever asks
      const edit = await call(adminA, 'POST', `${base(def)}/submit`, {
        ...sampleRecord(def, ++n),
        id: row.id,
      });
      expect(edit.statusCode).toBe(403);
      expect((await call(adminA, 'POST', `${base(def)}/submit`, sampleRecord(def, ++n))).statusCode).toBe(
        403,
      );
      expect((await call(adminA, 'POST', removeUrl(def, row.id))).statusCode).toBe(403);
      expect((await call(adminA, 'GET', `${base(def)}/detail?id=${row.id}`)).json().data).toEqual(
        detail.json().data,
      );
      return;
    }
    const update = await call(adminA, 'POST', `${base(def)}/submit`, {
      ...(await freshRecord(s, def, ++n)),
      id: row.id,
    });
    // a ledger's rows (appendOnly) and an exchange (editable: false) are never edited, whoever asks
    const fixed = def.appendOnly || def.editable === false;
    expect(update.statusCode, update.body).toBe(fixed ? 403 : 200);
    if (def.appendOnly) {
      expect((await call(adminA, 'POST', removeUrl(def, row.id))).statusCode).toBe(403);
      expect((await call(adminA, 'GET', `${base(def)}/detail?id=${row.id}`)).statusCode).toBe(200);
      return;
    }
    const removed = await call(adminA, 'POST', removeUrl(def, row.id));
    expect(removed.statusCode).toBe(200);
    expect((await call(adminA, 'GET', `${base(def)}/detail?id=${row.id}`)).statusCode).toBe(404);
  });

  // platform rows every tenant reads (platform dictionaries): another tenant reads them, and changes nothing
  const shared = def.readByEveryTenant === true;
  it(
    shared
      ? 'another tenant’s administrator reads it but can neither change nor remove it'
      : 'another tenant’s administrator gets nothing of it through list, detail, submit and remove',
    async () => {
      const row = await create(def);
      const before = (await call(adminA, 'GET', `${base(def)}/detail?id=${row.id}`)).json().data;

      const list = await call(adminB, 'GET', `${base(def)}/${def.listPath ?? 'list'}?${firstPage(def)}`);
      expect(list.statusCode).toBe(200);
      if (!shared) expect(list.body).not.toContain(row.id);
      cases.isolation++;

      const detail = await call(adminB, 'GET', `${base(def)}/detail?id=${row.id}`);
      expect(detail.statusCode).toBe(shared ? 200 : 404);
      if (shared) expect(detail.json().data).toEqual(before);
      cases.isolation++;

      const foreignUpdate = await call(adminB, 'POST', `${base(def)}/submit`, {
        ...sampleRecord(def, ++n),
        id: row.id,
      });
      // a log the server writes refuses every write before it looks for the row
      const refused = shared || def.readOnly ? 403 : 404;
      // rows never edited (or removed) through the API refuse that before they look for the row
      const unEditable = def.appendOnly || def.editable === false;
      expect(foreignUpdate.statusCode).toBe(unEditable ? 403 : refused);
      cases.isolation++;

      expect((await call(adminB, 'POST', removeUrl(def, row.id))).statusCode).toBe(
        def.appendOnly ? 403 : refused,
      );
      if (shared)
        expect((await call(adminB, 'POST', `${base(def)}/submit`, sampleRecord(def, ++n))).statusCode).toBe(
          403,
        );
      cases.isolation++;

      // and the row is exactly as it was
      const after = (await call(adminA, 'GET', `${base(def)}/detail?id=${row.id}`)).json().data;
      expect(after).toEqual(before);
    },
  );

  const buttons = def.readOnly
    ? ['view']
    : def.appendOnly
      ? ['add', 'view']
      : def.editable === false
        ? ['add', 'delete', 'view']
        : ['add', 'edit', 'delete', ...(def.view === false ? [] : ['view'])];
  /**
   * A sample the limited user may write: nobody hands out more than they hold, so its roles are the
   * limited role (not the administrator's), and an edit keeps a menu's code (a changed code must be one
   * the editor holds).
   */
  const withinLimited = async (editing?: Record<string, unknown>) => {
    const r = await freshRecord(s, def, ++n);
    for (const f of def.fields)
      if (f.tree === 'role' && (f.type === 'ids' || (f.type === 'ref' && f.name !== 'parentId')))
        r[f.name] = limitedRole;
    if (def.key === 'menu' && editing) r.code = editing.code;
    return r;
  };
  it.each(buttons)(
    `a user lacking ${def.permission}_%s is refused by the API and is not offered the button`,
    async (button) => {
      const all = [def.permission, ...buttons.map((b) => `${def.permission}_${b}`)];
      const row = await create(def, adminA, await withinLimited());
      const missing = `${def.permission}_${button}`;
      const attempt = async () => {
        switch (button) {
          case 'add':
            return call(limited, 'POST', `${base(def)}/submit`, await withinLimited());
          case 'edit':
            return call(limited, 'POST', `${base(def)}/submit`, {
              ...(await withinLimited(row)),
              id: row.id,
            });
          case 'delete':
            return call(limited, 'POST', removeUrl(def, row.id));
          default:
            return call(limited, 'GET', `${base(def)}/detail?id=${row.id}`);
        }
      };
      // without the code (and, for view, without edit, which also opens the detail): 403
      await grantCodes(
        s.database.db,
        limitedRole,
        all.filter((c) => c !== missing && !(button === 'view' && c.endsWith('_edit'))),
      );
      const refused = await attempt();
      expect(refused.statusCode, refused.body).toBe(403);
      const offered = JSON.stringify(
        (await call(limited, 'GET', '/api/dfem-system/menu/buttons')).json().data,
      );
      expect(offered).not.toContain(`"${missing}"`);
      // with it: allowed, and offered
      await grantCodes(s.database.db, limitedRole, all);
      const allowed = await attempt();
      expect(allowed.statusCode, allowed.body).toBe(def.tenant ? 200 : 200);
      expect(
        JSON.stringify((await call(limited, 'GET', '/api/dfem-system/menu/buttons')).json().data),
      ).toContain(`"${missing}"`);
      cases.permission++;
    },
  );

  it('without the menu code even the list is refused', async () => {
    await grantCodes(s.database.db, limitedRole, []);
    const res = await call(limited, 'GET', `${base(def)}/${def.listPath ?? 'list'}`);
    expect(res.statusCode).toBe(403);
    cases.permission++;
  });
});
