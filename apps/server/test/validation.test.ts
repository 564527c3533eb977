import { pagingKeys, RESOURCES, type ResourceDef } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRecord, listedRows, sampleRecord } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/** Bad input through every resource's routes, and the spec's own messages. */
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const base = (d: ResourceDef) => (d.path ? `/api/${d.service}/${d.path}` : `/api/${d.service}`);
const list = (d: ResourceDef, q = '') =>
  s.app.inject({
    method: 'GET',
    url: `${base(d)}/${d.listPath ?? 'list'}?${pagingKeys(d)[1]}=200${q}`,
    headers: auth(token),
  });
const submit = (d: ResourceDef, payload: object) =>
  s.app.inject({ method: 'POST', url: `${base(d)}/submit`, headers: auth(token), payload });

/**
 * Per resource, only what its routes decide: the whitelists and the columns no body may set. What each field
 * kind and each field rule refuses is proved once per kind, not per resource × field (kinds.test.ts).
 */
describe.each(RESOURCES.map((d) => [d.key, d] as const))('%s', (_k, def) => {
  const required = def.fields.find((f) => f.required && !f.secret && !f.readOnly && f.form !== false);
  it.runIf(required && !def.readOnly)(
    'its submit runs the definition’s rules: a missing required value is a 400 naming it',
    async () => {
      const name = required!.name;
      const before = listedRows((await list(def)).json().data).length;
      const res = await submit(def, { ...sampleRecord(def, 1), [name]: '' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data.field).toBe(name);
      expect(listedRows((await list(def)).json().data).length).toBe(before);
    },
  );

  it('an unknown filter or sort column is a 400', async () => {
    expect((await list(def, '&password_equal=x')).statusCode).toBe(400);
    expect((await list(def, '&ascs=password')).statusCode).toBe(400);
    expect((await list(def, '&descs=id;drop table blade_user')).statusCode).toBe(400);
  });

  it('a client cannot set the tenant, the creator or the deleted flag through a body', async () => {
    const res = await submit(def, {
      ...(await freshRecord(s, def, 7)),
      tenantId: '999999',
      createUser: '1',
      isDeleted: 1,
    });
    // a log the server writes takes no body at all
    if (def.readOnly) return void expect(res.statusCode).toBe(403);
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data;
    const again = await s.app.inject({
      method: 'GET',
      url: `${base(def)}/detail?id=${row.id}`,
      headers: auth(token),
    });
    expect(again.statusCode).toBe(200);
    // the stored row is the caller's tenant's (a submit may answer the id alone: workflow models)
    if (def.tenant) expect(again.json().data.tenantId).toBe('000000');
  });
});

describe('spec messages', () => {
  it('the parameter form answers 请输入参数名称 / 请输入参数键名 / 请输入参数键值', async () => {
    const param = RESOURCES.find((r) => r.key === 'param')!;
    const expectations: [string, string][] = [
      ['paramName', '请输入参数名称'],
      ['paramKey', '请输入参数键名'],
      ['paramValue', '请输入参数键值'],
    ];
    for (const [field, msg] of expectations) {
      const res = await submit(param, { paramName: 'n', paramKey: 'k', paramValue: 'v', [field]: '' });
      expect(res.json().msg).toBe(msg);
    }
  });

  it('the tenant package answers please enter package name / please select menu in English', async () => {
    const pkg = RESOURCES.find((r) => r.key === 'tenantPackage')!;
    const en = { ...auth(token), 'accept-language': 'en' };
    const noName = await s.app.inject({
      method: 'POST',
      url: `${base(pkg)}/submit`,
      headers: en,
      payload: { menuId: '1' },
    });
    expect(noName.json().msg).toBe('please enter package name');
    const noMenu = await s.app.inject({
      method: 'POST',
      url: `${base(pkg)}/submit`,
      headers: en,
      payload: { packageName: 'p' },
    });
    expect(noMenu.json().msg).toBe('please select menu');
  });

  it('a duplicate unique value is refused with the field named', async () => {
    const param = RESOURCES.find((r) => r.key === 'param')!;
    const res = await submit(param, { paramName: 'dup', paramKey: 'account.failCount', paramValue: '3' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'paramKey' }, msg: '参数键名已存在' });
  });

  it('removing with no ids warns 请选择至少一条数据', async () => {
    const param = RESOURCES.find((r) => r.key === 'param')!;
    const res = await s.app.inject({ method: 'POST', url: `${base(param)}/remove`, headers: auth(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('请选择至少一条数据');
  });
});
