// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowInstance } from '../src/modules/flow/tables';
import { grantCodes, makeRole, makeTenant, signedInUser, WORK_CODES } from './fixtures';
import { bpmn, flow, kit, type Person, task } from './flow-kit';
import { auth, startTestServer, type TestServer } from './harness';

/**
 * Message and signal start events: a message nobody waits for starts the latest version of the process whose
 * start event catches it (its business key kept), a signal starts every such process; in the caller's
 * tenant only, with the 流程跟踪 buttons' codes. Each process is written for the test and run to its end.
 */

let s: TestServer;
const k = kit(() => s);
let applicant: Person;
let approver: Person;
/** holds the work codes and the 流程跟踪 message and signal buttons */
let operator: Person;
/** the same codes, in another tenant */
let stranger: Person;
let admin: () => string;

beforeAll(async () => {
  s = await startTestServer();
  const setup = await k.setup(['applicant', 'approver']);
  ({ applicant, approver } = setup.people);
  admin = setup.admin;
  const codes = [...WORK_CODES, 'flow', 'flow_follow', 'flow_follow_message', 'flow_follow_signal'];
  const ops = await makeRole(s.database.db, '000000', 'ops', '运维');
  await grantCodes(s.database.db, ops, codes);
  operator = await signedInUser(s, 'operator', [ops]);
  await makeTenant(s.database.db, '222222', '别处');
  const far = await makeRole(s.database.db, '222222', 'ops', '运维');
  await grantCodes(s.database.db, far, codes);
  stranger = await signedInUser(s, 'stranger', [far], '222222');
});
afterAll(() => s?.close());

/** Deploys a file for the tenant 000000 only (the others never see it). */
async function deployForOwnTenant(name: string, xml: string) {
  const form = new FormData();
  form.append('category', '2');
  form.append('tenantIds', '000000');
  form.append('files', new Blob([xml]), `${name}.bpmn`);
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/dfem-flow/manager/deploy-upload',
    headers: { ...auth(admin()), 'accept-language': 'en' },
    payload: form,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.processDefinitionIds[0] as string;
}

const message = (p: Person, name: string, businessKey: string, variables = {}) =>
  k.call(
    p.token,
    'POST',
    `/api/dfem-flow/process/message?name=${encodeURIComponent(name)}&businessKey=${encodeURIComponent(businessKey)}`,
    { variables },
  );
const signal = (p: Person, name: string, variables = {}) =>
  k.call(p.token, 'POST', `/api/dfem-flow/process/signal?name=${encodeURIComponent(name)}`, { variables });

const instances = (ids: string[]) =>
  ids.length
    ? s.database.db
        .select({
          piid: flowInstance.processInstanceId,
          tenantId: flowInstance.tenantId,
          businessId: flowInstance.businessId,
          processDefinitionId: flowInstance.processDefinitionId,
          startUser: flowInstance.startUser,
          state: flowInstance.state,
        })
        .from(flowInstance)
        .where(inArray(flowInstance.processInstanceId, ids))
    : Promise.resolve([]);
const countOf = async (processKey: string, tenantId?: string) =>
  (
    await s.database.db
      .select({ id: flowInstance.id })
      .from(flowInstance)
      .where(
        and(
          eq(flowInstance.processKey, processKey),
          ...(tenantId ? [eq(flowInstance.tenantId, tenantId)] : []),
        ),
      )
  ).length;

/** An order process started by the message 新订单 (and, when `byHand`, by the start routes too). */
const orderXml = (version: string, opts: { byHand?: boolean; catches?: boolean } = {}) =>
  bpmn(
    'orderByMessage',
    `${opts.catches === false ? '<bpmn:startEvent id="ms"/>' : '<bpmn:startEvent id="ms" name="收到订单"><bpmn:messageEventDefinition messageRef="newOrder"/></bpmn:startEvent>'}
    ${flow('a', 'ms', 't')}${task('t', `处理订单${version}`, '${reviewer}')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>
    ${opts.byHand ? `<bpmn:startEvent id="hs"/>${flow('h', 'hs', 'ht')}${task('ht', '手工登记')}${flow('h2', 'ht', 'he')}<bpmn:endEvent id="he"/>` : ''}`,
    '<bpmn:message id="newOrder" name="新订单"/>',
  );

describe('message start events', () => {
  it('deploy refuses a message or signal start event that names none, naming each', async () => {
    const res = await k.upload(
      'startsOnNothing',
      bpmn(
        'startsOnNothing',
        `<bpmn:startEvent id="m" name="消息开始"><bpmn:messageEventDefinition/></bpmn:startEvent>
        <bpmn:startEvent id="g" name="信号开始"><bpmn:signalEventDefinition/></bpmn:startEvent>
        ${flow('a', 'm', 'e')}${flow('b', 'g', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('StartEvent \\"消息开始\\" names no message to start on (messageRef)');
    expect(res.body).toContain('StartEvent \\"信号开始\\" names no signal to start on (signalRef)');
  });

  it('a message nobody waits for starts the latest version in the caller’s tenant, with its business key; never another tenant’s', async () => {
    await deployForOwnTenant('orderByMessage', orderXml('v1'));
    const v2 = await deployForOwnTenant('orderByMessage', orderXml('v2'));
    // a process that only a message starts is not started by hand
    const byHand = await k.call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: v2,
      title: 'x',
    });
    expect(byHand.statusCode).toBe(400);
    expect(byHand.body).toContain('started only by a message or a signal');
    // without the button's code: refused; another tenant's caller starts nothing (the process is not theirs)
    expect((await message(applicant, '新订单', 'ORD-1', { reviewer: approver.id })).statusCode).toBe(403);
    const far = await message(stranger, '新订单', 'ORD-1', { reviewer: approver.id });
    expect(far.statusCode).toBe(400);
    expect(await countOf('orderByMessage')).toBe(0);

    const res = await message(operator, '新订单', 'ORD-1', { reviewer: approver.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ heard: 0, started: 1 });
    const [piid] = res.json().data.processInstanceIds as string[];
    const [row] = await instances([piid]);
    expect(row).toMatchObject({ tenantId: '000000', businessId: 'ORD-1', startUser: operator.id });
    expect(row.processDefinitionId).toBe(v2);
    // the message's variables are the instance's: its reviewer holds the task of version 2
    expect(await k.todoNames(approver, piid)).toEqual(['处理订单v2']);
    await k.complete(approver, piid, '处理订单v2');
    expect((await instances([piid]))[0].state).toBe('finished');

    // a version without the message start event: the message starts nothing any more
    await deployForOwnTenant('orderByMessage', orderXml('v3', { catches: false }));
    const none = await message(operator, '新订单', 'ORD-2', { reviewer: approver.id });
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toContain('none starts on it');
    expect(await countOf('orderByMessage')).toBe(1);
  });

  it('a process started by hand runs only its none start; started by the message, only the message’s', async () => {
    const pdid = await k.deploy(
      'orderTwoWays',
      orderXml('', { byHand: true })
        .replaceAll('orderByMessage', 'orderTwoWays')
        .replace('新订单', '补录订单'),
    );
    const manual = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, manual)).toEqual(['手工登记']);
    await k.complete(approver, manual, '手工登记');
    expect(await k.state(applicant, manual)).toBe('finished');

    const res = await message(operator, '补录订单', 'ORD-9', { reviewer: approver.id });
    expect(res.statusCode, res.body).toBe(200);
    const [piid] = res.json().data.processInstanceIds as string[];
    expect(await k.todoNames(approver, piid)).toEqual(['处理订单']);
    // an instance of that business key waiting for the message hears it instead of a new one starting
    await k.complete(approver, piid, '处理订单');
    expect((await instances([piid]))[0].state).toBe('finished');
  });

  it('a message waited for by a running instance of the business key reaches it; nothing new starts', async () => {
    const pdid = await k.deploy(
      'orderWaits',
      bpmn(
        'orderWaits',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}
        <bpmn:intermediateCatchEvent id="w"><bpmn:messageEventDefinition messageRef="m"/></bpmn:intermediateCatchEvent>
        ${flow('b', 'w', 't')}${task('t', '跟进订单')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:message id="m" name="订单变更"/>',
      ),
    );
    await k.deploy(
      'orderChangeStarts',
      bpmn(
        'orderChangeStarts',
        `<bpmn:startEvent id="ms"><bpmn:messageEventDefinition messageRef="m"/></bpmn:startEvent>
        ${flow('a', 'ms', 't')}${task('t', '新建变更单', '${reviewer}')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:message id="m" name="订单变更"/>',
      ),
    );
    const waiting = await k.start(applicant, pdid, approver.id);
    const heard = await message(operator, '订单变更', waiting, { reviewer: approver.id });
    expect(heard.json().data).toMatchObject({ heard: 1, started: 0 });
    expect(await countOf('orderChangeStarts')).toBe(0);
    await k.complete(approver, waiting, '跟进订单');
    // another business key: nobody waits, so the message starts the other process
    const started = await message(operator, '订单变更', 'CHG-1', { reviewer: approver.id });
    expect(started.json().data).toMatchObject({ heard: 0, started: 1 });
    const [piid] = started.json().data.processInstanceIds as string[];
    await k.complete(approver, piid, '新建变更单');
    expect((await instances([piid, waiting])).map((r) => r.state)).toEqual(['finished', 'finished']);
  });
});

describe('signal start events', () => {
  const starter = (key: string, taskName: string) =>
    bpmn(
      key,
      `<bpmn:startEvent id="gs"><bpmn:signalEventDefinition signalRef="go"/></bpmn:startEvent>
      ${flow('a', 'gs', 't')}${task('t', taskName, '${reviewer}')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>`,
      '<bpmn:signal id="go" name="开工"/>',
    );

  it('a signal starts every process of the caller’s tenant whose start event catches it, and a thrown one too', async () => {
    await deployForOwnTenant('shiftA', starter('shiftA', '甲班开工'));
    await deployForOwnTenant('shiftB', starter('shiftB', '乙班开工'));
    expect((await signal(applicant, '开工', { reviewer: approver.id })).statusCode).toBe(403);
    // another tenant: nothing of this tenant starts
    const far = await signal(stranger, '开工', { reviewer: approver.id });
    expect(far.json().data).toMatchObject({ heard: 0, started: 0 });
    expect((await countOf('shiftA')) + (await countOf('shiftB'))).toBe(0);

    const res = await signal(operator, '开工', { reviewer: approver.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.started).toBe(2);
    const ids = res.json().data.processInstanceIds as string[];
    expect((await instances(ids)).map((r) => r.tenantId)).toEqual(['000000', '000000']);
    expect((await k.todoNames(approver)).filter((n) => n.endsWith('开工'))).toEqual(['乙班开工', '甲班开工']);
    for (const piid of ids)
      for (const name of await k.todoNames(approver, piid)) await k.complete(approver, piid, name);
    expect((await instances(ids)).map((r) => r.state)).toEqual(['finished', 'finished']);

    // a process that throws the signal starts them too, for the one it runs for
    const thrower = await k.deploy(
      'shiftBell',
      bpmn(
        'shiftBell',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'x')}
        <bpmn:intermediateThrowEvent id="x"><bpmn:signalEventDefinition signalRef="bell"/></bpmn:intermediateThrowEvent>
        ${flow('b', 'x', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:signal id="bell" name="开工"/>',
      ),
    );
    const bell = await k.call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: thrower,
      title: '打铃',
    });
    expect(bell.statusCode, bell.body).toBe(200);
    expect(await countOf('shiftA', '000000')).toBe(2);
    expect(await countOf('shiftB', '000000')).toBe(2);
    // started for the applicant; without a reviewer their task is nobody's — ended here by 流程跟踪
    const started = await s.database.db
      .select({ piid: flowInstance.processInstanceId, startUser: flowInstance.startUser })
      .from(flowInstance)
      .where(and(inArray(flowInstance.processKey, ['shiftA', 'shiftB']), eq(flowInstance.state, 'running')));
    expect(started.map((r) => r.startUser)).toEqual([applicant.id, applicant.id]);
    for (const r of started) {
      const del = await k.call(
        admin(),
        'POST',
        `/api/dfem-flow/follow/delete-process-instance?processInstanceId=${r.piid}&deleteReason=test`,
      );
      expect(del.statusCode, del.body).toBe(200);
    }
  });

  it('a message that several processes start on starts none and names them', async () => {
    for (const key of ['twinA', 'twinB'])
      await k.deploy(
        key,
        bpmn(
          key,
          `<bpmn:startEvent id="ms"><bpmn:messageEventDefinition messageRef="m"/></bpmn:startEvent>${flow('a', 'ms', 'e')}<bpmn:endEvent id="e"/>`,
          '<bpmn:message id="m" name="双胞胎"/>',
        ),
      );
    const res = await message(operator, '双胞胎', 'T-1');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('starts more than one process (twinA, twinB)');
    expect((await countOf('twinA')) + (await countOf('twinB'))).toBe(0);
  });
});
