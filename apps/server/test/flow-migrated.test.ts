import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowDefinition, flowInstance, flowTask, flowWait } from '../src/modules/flow/tables';
import { grantCodes, makeRole, signedInUser, WORK_CODES } from './fixtures';
import { bpmn, flow, kit, type Person, task, timer, until, uploadBpmn } from './flow-kit';
import { startTestServer, type TestServer } from './harness';

/**
 * What models migrated from Flowable trip on, each written for the test and run through the API: an
 * optional step skipped before a parallel split and join, a file without an id on its definitions (its
 * timer, a message, a restart), the constructs of the BPMN MIWG files that only describe or that Flowable
 * would not run either, and a model's own `flag`.
 */

let s: TestServer;
/** the server the requests go to (a restart replaces it) */
let current: TestServer;
const k = kit(() => current);
let applicant: Person;
let approver: Person;
/** holds the 流程跟踪 message button too */
let operator: Person;
const others: TestServer[] = [];
let adminToken: () => string;

beforeAll(async () => {
  s = await startTestServer({ FLOW_TIMER_INTERVAL_MS: '3600000' });
  current = s;
  const { people, admin } = await k.setup(['applicant', 'approver']);
  ({ applicant, approver } = people);
  adminToken = admin;
  const ops = await makeRole(s.database.db, '000000', 'ops', '运维');
  await grantCodes(s.database.db, ops, [...WORK_CODES, 'flow', 'flow_follow', 'flow_follow_message']);
  operator = await signedInUser(s, 'operator', [ops]);
});
afterAll(async () => {
  for (const o of others) await o.close();
  await s?.close();
});

/** completes `p`'s task `name` of the instance with this body (flag, variables) */
async function completeWith(p: Person, piid: string, name: string, body: object) {
  const mine = (await k.rows(p, 'todo-list', piid)).filter((t) => t.taskName === name);
  expect(mine, `${name} in the to-do list`).toHaveLength(1);
  const res = await k.call(p.token, 'POST', '/api/dfem-flow/work/complete-task', {
    taskId: mine[0].taskId,
    comment: name,
    ...body,
  });
  expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
  return mine[0].taskId;
}

describe('an optional step skipped, then a parallel split and join', () => {
  // 初审 → (pass: straight on | else 补充材料) → merge → 民政会审 ∥ 财政会审 → join → 终审 → end
  const xml = bpmn(
    'optionalThenParallel',
    `<bpmn:startEvent id="start"/>${flow('f1', 'start', 'first')}${task('first', '初审')}
    ${flow('f2', 'first', 'x1')}<bpmn:exclusiveGateway id="x1"/>
    ${flow('skip', 'x1', 'x2', '${pass == true}')}${flow('more', 'x1', 'extra', '${pass == false}')}
    ${task('extra', '补充材料')}${flow('f5', 'extra', 'x2')}<bpmn:exclusiveGateway id="x2"/>
    ${flow('f6', 'x2', 'p1')}<bpmn:parallelGateway id="p1"/>
    ${flow('f7', 'p1', 'civil')}${flow('f8', 'p1', 'finance')}${task('civil', '民政会审')}${task('finance', '财政会审')}
    ${flow('f9', 'civil', 'p2')}${flow('f10', 'finance', 'p2')}<bpmn:parallelGateway id="p2"/>
    ${flow('f11', 'p2', 'last')}${task('last', '终审')}${flow('f12', 'last', 'end')}<bpmn:endEvent id="end"/>`,
  );
  let pdid: string;
  it('deploys', async () => {
    pdid = await k.deploy('optionalThenParallel', xml);
  });

  it('skipped (pass=true): the instance ends after 终审', async () => {
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '初审', { pass: true });
    expect(await k.todoNames(approver, piid)).toEqual(['民政会审', '财政会审']);
    await k.complete(approver, piid, '民政会审');
    expect(await k.todoNames(approver, piid)).toEqual(['财政会审']);
    await k.complete(approver, piid, '财政会审');
    expect(await k.todoNames(approver, piid)).toEqual(['终审']);
    await k.complete(approver, piid, '终审');
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('taken (pass=false, sent as a variable over the approval): 补充材料, then the same to the end', async () => {
    const piid = await k.start(applicant, pdid, approver.id);
    // the form approves (flag ok), the model reads the variable it was sent
    await k.complete(approver, piid, '初审', { pass: false });
    expect(await k.todoNames(approver, piid)).toEqual(['补充材料']);
    await k.complete(approver, piid, '补充材料');
    await k.complete(approver, piid, '财政会审');
    await k.complete(approver, piid, '民政会审');
    await k.complete(approver, piid, '终审');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('a file without an id on its definitions (as Flowable’s modeler exports it)', () => {
  // Flowable's modeler: the BPMN namespace by default, no id on <definitions>
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="http://example.com/test">
  <message id="objection" name="公示异议"/>
  <process id="noDefinitionsId" name="救助申请" isExecutable="true">
    <startEvent id="start"/><sequenceFlow id="f1" sourceRef="start" targetRef="review"/>
    <userTask id="review" name="村委审核" flowable:assignee="\${taskUser}"/><sequenceFlow id="f2" sourceRef="review" targetRef="notice"/>
    <intermediateCatchEvent id="notice" name="公示期">${timer('timeDuration', 'PT1S').replace(/bpmn:/g, '')}</intermediateCatchEvent>
    <sequenceFlow id="f3" sourceRef="notice" targetRef="heard"/>
    <intermediateCatchEvent id="heard" name="等待异议"><messageEventDefinition messageRef="objection"/></intermediateCatchEvent>
    <sequenceFlow id="f4" sourceRef="heard" targetRef="confirm"/>
    <userTask id="confirm" name="公示结束确认" flowable:assignee="\${taskUser}"/><sequenceFlow id="f5" sourceRef="confirm" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;
  let pdid: string;

  it('is given an id at deploy, nothing else of the file changed', async () => {
    pdid = await k.deploy('noDefinitionsId', xml);
    const [row] = await s.database.db
      .select({ xml: flowDefinition.xml })
      .from(flowDefinition)
      .where(eq(flowDefinition.processDefinitionId, pdid));
    expect(row.xml).toBe(xml.replace('<definitions ', '<definitions id="Definitions_noDefinitionsId" '));
  });

  it('fires its timer, takes a message and continues after a restart, every step recovered from the saved state', async () => {
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '村委审核');
    // every step from here recovers the engine from the saved state (no engine kept in memory)
    const poller = await startTestServer(
      { FLOW_TIMER_INTERVAL_MS: '50', FLOW_LIVE_ENGINES: '0' },
      { alongside: s },
    );
    others.push(poller);
    const waitsFor = async (kind: string) =>
      (await s.database.db.select().from(flowWait).where(eq(flowWait.processInstanceId, piid))).some(
        (w) => w.kind === kind && !w.firedAt,
      );
    expect(await until(() => waitsFor('message'))).toBe(true);
    expect(poller.logs.join('')).not.toContain('workflow timer failed');
    const heard = await k.call(
      operator.token,
      'POST',
      `/api/dfem-flow/process/message?name=${encodeURIComponent('公示异议')}&businessKey=${piid}`,
      { variables: {} },
    );
    expect(heard.statusCode, heard.body).toBe(200);
    expect(await k.todoNames(approver, piid)).toEqual(['公示结束确认']);
    // a restart: another server, which never ran the instance, completes it
    await poller.close();
    others.splice(others.indexOf(poller), 1);
    const next = await startTestServer(
      { FLOW_TIMER_INTERVAL_MS: '3600000', FLOW_LIVE_ENGINES: '0' },
      { alongside: s },
    );
    others.push(next);
    current = next;
    try {
      await k.complete(approver, piid, '公示结束确认');
      expect(await k.state(applicant, piid)).toBe('finished');
    } finally {
      current = s;
    }
  });

  /** the instance's saved state as an instance started before deployments gave the file an id saved it */
  async function savedUnnamed(piid: string) {
    const [row] = await s.database.db
      .select({ state: flowInstance.engineState })
      .from(flowInstance)
      .where(eq(flowInstance.processInstanceId, piid));
    const state = JSON.parse(row.state ?? '{}');
    // the id bpmn-elements gives a diagram without one
    state.definitions[0].id = 'Def';
    await s.database.db
      .update(flowInstance)
      .set({ engineState: JSON.stringify(state) })
      .where(eq(flowInstance.processInstanceId, piid));
  }
  const timerWaits = async (piid: string) =>
    (await s.database.db.select().from(flowWait).where(eq(flowWait.processInstanceId, piid))).some(
      (w) => w.kind === 'timer' && !w.firedAt,
    );

  it('instances of such a file started before recover: their state names the diagram otherwise, or the stored file has no id', async () => {
    const named = await k.start(applicant, pdid, approver.id);
    await savedUnnamed(named);
    await k.complete(approver, named, '村委审核');
    expect(await timerWaits(named)).toBe(true);
    // the file as a deployment made before kept it: without the id
    const unnamed = await k.start(applicant, pdid, approver.id);
    await s.database.db
      .update(flowDefinition)
      .set({ xml })
      .where(eq(flowDefinition.processDefinitionId, pdid));
    await savedUnnamed(unnamed);
    await k.complete(approver, unnamed, '村委审核');
    expect(await timerWaits(unnamed)).toBe(true);
  });
});

/** the refusal of an upload, in Chinese */
const uploadZh = async (name: string, xml: string) =>
  (await uploadBpmn(current, adminToken(), xml, { file: `${name}.bpmn`, lang: 'zh' })).json().msg as string;

describe('constructs of the BPMN MIWG files', () => {
  const straight = (body: string) =>
    `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}${body}${flow('b', 'w', 't')}${task('t', '办理')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`;
  /** deploys, starts, completes `before` and 办理: the instance ends */
  async function runs(name: string, xml: string, before: string[] = []) {
    const pdid = await k.deploy(name, xml);
    const piid = await k.start(applicant, pdid, approver.id);
    for (const b of before) await k.complete(approver, piid, b);
    await k.complete(approver, piid, '办理');
    expect(await k.state(applicant, piid)).toBe('finished');
  }

  it('a call activity that calls a global task is refused at deploy, named (Flowable calls processes only)', async () => {
    const res = await k.upload(
      'callsGlobalTask',
      bpmn(
        'callsGlobalTask',
        straight('<bpmn:callActivity id="w" name="调用复核" calledElement="review"/>'),
        '<bpmn:globalUserTask id="review" name="复核"/>',
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(
      'CallActivity "调用复核" calls GlobalUserTask "复核", which is not a process',
    );
    const zh = await uploadZh(
      'callsGlobalTask',
      bpmn(
        'callsGlobalTask',
        straight('<bpmn:callActivity id="w" name="调用复核" calledElement="review"/>'),
        '<bpmn:globalTask id="review" name="复核"/>',
      ),
    );
    expect(zh).toContain('CallActivity "调用复核" 调用的 GlobalTask "复核" 不是流程');
  });

  it('global tasks and an interface with its operation, declared only, run as Flowable runs them: not at all', async () => {
    await runs(
      'declarations',
      bpmn(
        'declarations',
        straight('<bpmn:manualTask id="w" name="登记"/>'),
        `<bpmn:globalTask id="g1" name="全局任务"/><bpmn:globalScriptTask id="g2"/>
        <bpmn:message id="request" name="申请"/>
        <bpmn:interface id="svc" name="登记服务"><bpmn:operation id="submit" name="提交"><bpmn:inMessageRef>request</bpmn:inMessageRef></bpmn:operation></bpmn:interface>`,
      ),
    );
  });

  it('a prefix bound again inside the file: Flowable’s and Activiti’s attributes read by their namespace, another vendor’s left alone', async () => {
    // flowable: means Activiti's namespace inside the process; x: means Flowable's, then another vendor's
    await runs(
      'rebound',
      `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:x="http://flowable.org/bpmn" id="d_rebound" targetNamespace="http://example.com/test">
  <bpmn:process id="rebound" isExecutable="true" xmlns:flowable="http://activiti.org/bpmn">
    <bpmn:startEvent id="s"/><bpmn:sequenceFlow id="a" sourceRef="s" targetRef="w"/>
    <b:userTask xmlns:b="http://www.omg.org/spec/BPMN/20100524/MODEL" id="w" name="登记" flowable:assignee="\${taskUser}">
      <b:extensionElements xmlns:x="http://example.com/vendor"><x:note x:level="1">备注</x:note></b:extensionElements>
    </b:userTask>
    <bpmn:sequenceFlow id="b" sourceRef="w" targetRef="t"/>
    <bpmn:userTask id="t" name="办理" x:assignee="\${taskUser}"/>
    <bpmn:sequenceFlow id="c" sourceRef="t" targetRef="e"/><bpmn:endEvent id="e"/>
  </bpmn:process>
</bpmn:definitions>`,
      ['登记'],
    );
  });

  it('a potentialOwner naming only a resource: a user task’s candidates are the resource’s group; on any other task it is left alone', async () => {
    const pdid = await k.deploy(
      'resourceOnly',
      bpmn(
        'resourceOnly',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'm')}<bpmn:task id="m" name="准备"><bpmn:potentialOwner resourceRef="staff"/></bpmn:task>
        ${flow('b', 'm', 'w')}<bpmn:userTask id="w" name="认领办理"><bpmn:potentialOwner resourceRef="staff"/></bpmn:userTask>
        ${flow('c', 'w', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:resource id="staff" name="staffapplicant"/>',
      ),
    );
    const piid = await k.start(applicant, pdid);
    const [open] = await k.rows(approver, 'claim-list', piid);
    expect(open?.taskName).toBe('认领办理');
    const claimed = await k.call(
      approver.token,
      'POST',
      `/api/dfem-flow/work/claim-task?taskId=${open.taskId}`,
    );
    expect(claimed.statusCode, claimed.body).toBe(200);
    await k.complete(approver, piid, '认领办理');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a loop in which nothing waits is refused at deploy, its elements named; a loop through a user task runs', async () => {
    const res = await k.upload(
      'passThrough',
      bpmn(
        'passThrough',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}<bpmn:task id="w" name="核对"/>${flow('b', 'w', 'x')}
        <bpmn:exclusiveGateway id="x" name="齐全?"/>${flow('again', 'x', 'w', '${complete == false}')}${flow('on', 'x', 't', '${complete == true}')}
        ${task('t', '办理')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(
      'Task "核对", ExclusiveGateway "齐全?" make a loop in which nothing waits',
    );
  });
});

describe('complete-task and a model’s own flag', () => {
  // 审核 → flag 'no': back to 补正 → 审核 again; flag 'yes': 归档
  const xml = bpmn(
    'ownFlag',
    `<bpmn:startEvent id="s"/>${flow('a', 's', 'check')}${task('check', '审核')}${flow('b', 'check', 'x')}
    <bpmn:exclusiveGateway id="x"/>${flow('no', 'x', 'fix', "${flag == 'no'}")}${flow('yes', 'x', 'file', "${flag == 'yes'}")}
    ${task('fix', '补正')}${flow('c', 'fix', 'check')}${task('file', '归档')}${flow('d', 'file', 'e')}<bpmn:endEvent id="e"/>`,
  );

  it('routes by flag as the model wrote it; the task keeps the family’s decision', async () => {
    const pdid = await k.deploy('ownFlag', xml);
    const piid = await k.start(applicant, pdid, approver.id);
    const first = await completeWith(approver, piid, '审核', { flag: 'no' });
    expect(await k.todoNames(approver, piid)).toEqual(['补正']);
    const [row] = await s.database.db
      .select({ flag: flowTask.flag })
      .from(flowTask)
      .where(eq(flowTask.id, first));
    expect(row.flag).toBe('reject');
    await completeWith(approver, piid, '补正', { flag: 'ok' });
    await completeWith(approver, piid, '审核', { flag: 'yes' });
    expect(await k.todoNames(approver, piid)).toEqual(['归档']);
    await completeWith(approver, piid, '归档', {});
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a variable sent by name reaches the model over what complete-task derives (flag, pass)', async () => {
    const pdid = await k.deploy('ownFlag', xml);
    const piid = await k.start(applicant, pdid, approver.id);
    // the family's approval (flag ok) with the model's own flag among the variables
    await completeWith(approver, piid, '审核', { flag: 'ok', variables: { flag: 'yes' } });
    expect(await k.todoNames(approver, piid)).toEqual(['归档']);
  });
});
