import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_MODEL_SCOPE } from '../src/modules/flow/models';
import { flowDefinition, flowModel } from '../src/modules/flow/tables';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import { clearCaches, grantCodes, makeRole, makeTenant, signedInUser } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Flow models (模型管理) under the same access rule as every resource: the caller's tenant and data scope
 * on the list, the detail, edits, removal and deployment. Two modellers of the platform tenant share a role;
 * a third tenant's administrator models too.
 */
const MODEL_CODES = [
  'flow',
  'flow_model',
  'flow_model_add',
  'flow_model_edit',
  'flow_model_delete',
  'flow_model_deploy',
];
let s: TestServer;
let admin: string;
let role: string;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
let stranger: { id: string; token: string };
const model: Record<'alice' | 'bob' | 'stranger', string> = { alice: '', bob: '', stranger: '' };

const bpmn = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
  <process id="${key}" name="${key}" isExecutable="true">
    <startEvent id="s" />
    <userTask id="review" name="审核" camunda:assignee="\${applyUser}" />
    <endEvent id="e" />
    <sequenceFlow id="a" sourceRef="s" targetRef="review" />
    <sequenceFlow id="b" sourceRef="review" targetRef="e" />
  </process>
</definitions>`;

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url: `/api/dfem-flow${url}`, headers: auth(token), payload });

async function createModel(token: string, modelKey: string) {
  const res = await call(token, 'POST', '/model/submit', { modelKey, name: modelKey, xml: bpmn(modelKey) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

/** The model keys a caller's list shows. */
async function listed(token: string) {
  const res = await call(token, 'GET', '/model/list?current=1&size=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.records as { modelKey: string }[]).map((r) => r.modelKey).sort();
}

/** The stored row, read past the API. */
async function stored(id: string) {
  const [row] = await s.database.db.select().from(flowModel).where(eq(flowModel.id, id));
  return row;
}

/** The deployed definitions of a process key. */
const definitionsOf = (processKey: string) =>
  s.database.db
    .select({ id: flowDefinition.id })
    .from(flowDefinition)
    .where(eq(flowDefinition.processKey, processKey));

/** Replaces the data scopes the modellers' role holds over flow models (null: none, they see everything). */
async function setScope(scopeType: number | null, scopeValue?: string) {
  const db = s.database.db;
  await db.delete(schema.roleScope).where(eq(schema.roleScope.roleId, role));
  await db.delete(schema.scopeData).where(eq(schema.scopeData.resourceCode, FLOW_MODEL_SCOPE));
  if (scopeType !== null) {
    const [scope] = await db
      .insert(schema.scopeData)
      .values({
        menuId: menuId('flow_model'),
        resourceCode: FLOW_MODEL_SCOPE,
        scopeName: `models ${scopeType}`,
        scopeType,
        scopeValue,
      })
      .returning({ id: schema.scopeData.id });
    await db.insert(schema.roleScope).values({ scopeCategory: 1, scopeId: scope.id, roleId: role });
  }
  clearCaches();
}

beforeAll(async () => {
  s = await startTestServer();
  const db = s.database.db;
  admin = (await signIn(s)).access_token;
  role = await makeRole(db, '000000', 'modeller', '建模员');
  await grantCodes(db, role, MODEL_CODES);
  alice = await signedInUser(s, 'alice', [role]);
  bob = await signedInUser(s, 'bob', [role]);
  await makeTenant(db, '300003', '邻村');
  const theirAdmin = await makeRole(db, '300003', 'administrator', '管理员');
  await grantCodes(db, theirAdmin, 'all');
  stranger = await signedInUser(s, 'stranger', [theirAdmin], '300003');
  model.alice = await createModel(alice.token, 'alice_model');
  model.bob = await createModel(bob.token, 'bob_model');
  model.stranger = await createModel(stranger.token, 'stranger_model');
});
afterAll(() => s?.close());

describe('flow models: the data scope', () => {
  it('without a scope the modellers see every model of their tenant, and only of their tenant', async () => {
    await setScope(null);
    expect(await listed(alice.token)).toEqual(['alice_model', 'bob_model']);
    expect(await listed(bob.token)).toEqual(['alice_model', 'bob_model']);
    expect((await call(alice.token, 'GET', `/model/detail?id=${model.bob}`)).statusCode).toBe(200);
  });

  it('"own rows": the list and the detail show only the caller’s models', async () => {
    await setScope(2);
    expect(await listed(alice.token)).toEqual(['alice_model']);
    expect(await listed(bob.token)).toEqual(['bob_model']);
    const total = (await call(alice.token, 'GET', '/model/list?current=1&size=1')).json().data.total;
    expect(total).toBe(1);
    expect((await call(alice.token, 'GET', `/model/detail?id=${model.bob}`)).statusCode).toBe(404);
    const own = await call(alice.token, 'GET', `/model/detail?id=${model.alice}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ id: model.alice, modelKey: 'alice_model' });
  });

  it('"own rows": another’s model cannot be edited, removed or deployed; nothing changes', async () => {
    await setScope(2);
    const before = await stored(model.bob);
    const edit = await call(alice.token, 'POST', '/model/submit', {
      id: model.bob,
      modelKey: 'hijacked',
      name: 'hijacked',
      xml: bpmn('hijacked'),
    });
    expect(edit.statusCode).toBe(404);
    expect((await call(alice.token, 'POST', `/model/remove?ids=${model.bob}`)).statusCode).toBe(404);
    // all or nothing: a list naming one model out of reach removes none of them
    expect(
      (await call(alice.token, 'POST', `/model/remove?ids=${model.alice},${model.bob}`)).statusCode,
    ).toBe(404);
    const deploy = await call(alice.token, 'POST', '/model/deploy', { modelId: model.bob, category: '1' });
    expect(deploy.statusCode).toBe(404);
    expect(await stored(model.bob)).toEqual(before);
    expect((await stored(model.alice)).isDeleted).toBe(0);
    expect(await definitionsOf('bob_model')).toHaveLength(0);
  });

  it('"own rows": the caller’s own model is edited and deployed as before', async () => {
    await setScope(2);
    const edit = await call(alice.token, 'POST', '/model/submit', {
      id: model.alice,
      modelKey: 'alice_model',
      name: '爱丽丝的模型',
      xml: bpmn('alice_model'),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await stored(model.alice)).toMatchObject({ name: '爱丽丝的模型', version: 2 });
    const deploy = await call(alice.token, 'POST', '/model/deploy', { modelId: model.alice, category: '1' });
    expect(deploy.statusCode, deploy.body).toBe(200);
    expect(deploy.json().data.processDefinitionId).toMatch(/^alice_model:1:/);
  });

  it('a scope made on the data-scope screen (资源编号 flowModel) applies as soon as it is granted', async () => {
    await setScope(null);
    const made = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-system/data-scope/submit',
      headers: auth(admin),
      payload: {
        menuId: menuId('flow_model'),
        scopeName: '本人模型',
        resourceCode: FLOW_MODEL_SCOPE,
        scopeType: 2,
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    await s.database.db
      .insert(schema.roleScope)
      .values({ scopeCategory: 1, scopeId: made.json().data.id, roleId: role });
    clearCaches();
    expect(await listed(bob.token)).toEqual(['bob_model']);
  });

  it('a custom scope over a model field narrows the same way', async () => {
    await setScope(5, JSON.stringify({ field: 'modelKey', op: 'eq', value: 'bob_model' }));
    expect(await listed(alice.token)).toEqual(['bob_model']);
    expect((await call(alice.token, 'GET', `/model/detail?id=${model.alice}`)).statusCode).toBe(404);
  });

  it('the administrator sees, reads and edits every model of its tenant whatever the scopes', async () => {
    await setScope(2);
    expect(await listed(admin)).toEqual(['alice_model', 'bob_model']);
    expect((await call(admin, 'GET', `/model/detail?id=${model.bob}`)).statusCode).toBe(200);
    const edit = await call(admin, 'POST', '/model/submit', {
      id: model.bob,
      modelKey: 'bob_model',
      name: '由管理员修改',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await stored(model.bob)).name).toBe('由管理员修改');
  });

  it('"own rows": the caller may remove its own model', async () => {
    await setScope(2);
    const extra = await createModel(alice.token, 'alice_extra');
    expect(await listed(alice.token)).toEqual(['alice_extra', 'alice_model']);
    expect((await call(alice.token, 'POST', `/model/remove?ids=${extra}`)).statusCode).toBe(200);
    expect(await listed(alice.token)).toEqual(['alice_model']);
  });
});

describe('flow models: tenants', () => {
  it('another tenant’s administrator neither sees, reads, edits, removes nor deploys the platform’s models', async () => {
    await setScope(null);
    expect(await listed(stranger.token)).toEqual(['stranger_model']);
    const before = await stored(model.bob);
    expect((await call(stranger.token, 'GET', `/model/detail?id=${model.bob}`)).statusCode).toBe(404);
    const edit = await call(stranger.token, 'POST', '/model/submit', {
      id: model.bob,
      modelKey: 'hijacked',
      name: 'hijacked',
    });
    expect(edit.statusCode).toBe(404);
    expect((await call(stranger.token, 'POST', `/model/remove?ids=${model.bob}`)).statusCode).toBe(404);
    // deploying is the platform tenant's business
    const deploy = await call(stranger.token, 'POST', '/model/deploy', { modelId: model.bob, category: '1' });
    expect(deploy.statusCode).toBe(403);
    expect(await stored(model.bob)).toEqual(before);
    expect(await definitionsOf('bob_model')).toHaveLength(0);
  });

  it('the platform’s administrator does not see another tenant’s models either', async () => {
    expect(await listed(admin)).not.toContain('stranger_model');
    expect((await call(admin, 'GET', `/model/detail?id=${model.stranger}`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/model/remove?ids=${model.stranger}`)).statusCode).toBe(404);
    const deploy = await call(admin, 'POST', '/model/deploy', { modelId: model.stranger, category: '1' });
    expect(deploy.statusCode).toBe(404);
    expect(await definitionsOf('stranger_model')).toHaveLength(0);
    expect((await stored(model.stranger)).isDeleted).toBe(0);
  });
});
