import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bpmn, kit, type Person } from './flow-kit';
import { startTestServer, type TestServer } from './harness';

/**
 * Workflow constructs beyond user tasks and exclusive/parallel gateways, each a small process written for
 * the test and run to its end through the work lists: the inclusive gateway's split and join, call
 * activities.
 */

let s: TestServer;
const k = kit(() => s);
let applicant: Person;
let approver: Person;
let clerk: Person;

beforeAll(async () => {
  s = await startTestServer();
  const { people } = await k.setup(['applicant', 'approver', 'clerk']);
  ({ applicant, approver, clerk } = people);
});
afterAll(() => s?.close());

const task = (id: string, name: string, assignee = '${taskUser}') =>
  `<bpmn:userTask id="${id}" name="${name}" flowable:assignee="${assignee}"/>`;
const flow = (id: string, from: string, to: string, condition?: string) =>
  condition
    ? `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression></bpmn:sequenceFlow>`
    : `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`;

describe('the inclusive gateway', () => {
  // 填报 sets amount; the split sends it to 财务 when > 1000, to 法务 when > 5000, else (default) to 部门
  const xml = bpmn(
    'inclusive',
    `<bpmn:startEvent id="start"/>
    ${flow('f0', 'start', 'fill')}
    ${task('fill', '填报')}
    ${flow('f1', 'fill', 'split')}
    <bpmn:inclusiveGateway id="split" name="分派" default="toDept"/>
    ${flow('toFinance', 'split', 'finance', '${amount > 1000}')}
    ${flow('toLegal', 'split', 'legal', '${amount > 5000}')}
    ${flow('toDept', 'split', 'dept')}
    ${task('finance', '财务审核')}
    ${task('legal', '法务审核')}
    ${task('dept', '部门审核')}
    ${flow('j1', 'finance', 'join')}
    ${flow('j2', 'legal', 'join')}
    ${flow('j3', 'dept', 'join')}
    <bpmn:inclusiveGateway id="join" name="汇合"/>
    ${flow('f2', 'join', 'archive')}
    ${task('archive', '归档')}
    ${flow('f3', 'archive', 'end')}
    <bpmn:endEvent id="end"/>`,
  );
  let pdid: string;

  it('deploys (a join of three flows)', async () => {
    pdid = await k.deploy('inclusive', xml);
  });

  it('takes every path whose condition holds, and the join waits only for those', async () => {
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '填报', { amount: 2000 });
    // 2000: finance only (legal's condition fails, the default is not taken when another is)
    expect(await k.todoNames(approver, piid)).toEqual(['财务审核']);
    await k.complete(approver, piid, '财务审核');
    expect(await k.todoNames(approver, piid)).toEqual(['归档']);
    await k.complete(approver, piid, '归档');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('two paths: the join passes once, after both', async () => {
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '填报', { amount: 9000 });
    expect(await k.todoNames(approver, piid)).toEqual(['法务审核', '财务审核']);
    await k.complete(approver, piid, '法务审核');
    // the join still waits for finance
    expect(await k.todoNames(approver, piid)).toEqual(['财务审核']);
    await k.complete(approver, piid, '财务审核');
    expect(await k.todoNames(approver, piid)).toEqual(['归档']);
    await k.complete(approver, piid, '归档');
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('no condition holds: the default flow', async () => {
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '填报', { amount: 10 });
    expect(await k.todoNames(approver, piid)).toEqual(['部门审核']);
    await k.complete(approver, piid, '部门审核');
    await k.complete(approver, piid, '归档');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('call activities', () => {
  const child = bpmn(
    'childReview',
    `<bpmn:startEvent id="cs"/>
    ${flow('c0', 'cs', 'review')}
    ${task('review', '子流程审核', '${reviewer}')}
    ${flow('c1', 'review', 'ce')}
    <bpmn:endEvent id="ce"/>`,
  );
  const parent = bpmn(
    'parentCall',
    `<bpmn:startEvent id="ps"/>
    ${flow('p0', 'ps', 'call')}
    <bpmn:callActivity id="call" name="调用审核" calledElement="childReview">
      <bpmn:extensionElements>
        <flowable:in source="taskUser" target="reviewer"/>
        <flowable:in sourceExpression="\${title}" target="subject"/>
        <flowable:out source="verdict" target="childVerdict"/>
      </bpmn:extensionElements>
    </bpmn:callActivity>
    ${flow('p1', 'call', 'check')}
    <bpmn:exclusiveGateway id="check" default="p3"/>
    ${flow('p2', 'check', 'after', "${childVerdict == 'yes'}")}
    ${flow('p3', 'check', 'pe')}
    ${task('after', '调用之后', '${applyUser}')}
    ${flow('p4', 'after', 'pe')}
    <bpmn:endEvent id="pe"/>`,
  );

  it('refuses at deploy a call activity that names no process', async () => {
    const res = await k.upload(
      'nocall',
      bpmn(
        'noCalled',
        `<bpmn:startEvent id="s"/>${flow('f', 's', 'c')}<bpmn:callActivity id="c" name="调用"/>${flow('g', 'c', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('CallActivity "调用" names no process to call (calledElement)');
  });

  it('refuses to start when the called process is not deployed (nothing is left behind)', async () => {
    const pdid = await k.deploy('parentCall', parent);
    const res = await k.call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: 't',
      taskUser: clerk.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('childReview');
    const sent = (await k.rows(applicant, 'send-list')) as unknown as { processDefinitionKey: string }[];
    expect(sent.filter((r) => r.processDefinitionKey === 'parentCall')).toEqual([]);
  });

  it('runs the latest version of the called process; the caller waits, variables go in and out', async () => {
    await k.deploy('childReview', child.replace('子流程审核', '旧版审核'));
    await k.deploy('childReview', child);
    const pdid = await k.deploy('parentCall', parent);
    const piid = await k.start(applicant, pdid, clerk.id);
    // the child's task is in the reviewer's (taskUser → reviewer) list; the caller waits
    const [childTask] = await k.rows(clerk, 'todo-list');
    expect(childTask.taskName).toBe('子流程审核');
    expect(childTask.processInstanceId).not.toBe(piid);
    expect(await k.state(applicant, piid)).toBe('unfinished');
    await k.complete(clerk, childTask.processInstanceId, '子流程审核', { verdict: 'yes' });
    // the child ended; verdict came back as childVerdict and the caller went on
    expect(await k.state(applicant, childTask.processInstanceId)).toBe('finished');
    expect(await k.todoNames(applicant, piid)).toEqual(['调用之后']);
    await k.complete(applicant, piid, '调用之后');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a child that ends at once continues its caller in the same start', async () => {
    await k.deploy(
      'instant',
      bpmn('instantChild', `<bpmn:startEvent id="a"/>${flow('b', 'a', 'c')}<bpmn:endEvent id="c"/>`),
    );
    const pdid = await k.deploy(
      'callsInstant',
      bpmn(
        'callsInstant',
        `<bpmn:startEvent id="s"/>${flow('f', 's', 'c')}<bpmn:callActivity id="c" calledElement="instantChild"/>${flow('g', 'c', 't')}${task('t', '之后', '${applyUser}')}${flow('h', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const piid = await k.start(applicant, pdid);
    expect(await k.todoNames(applicant, piid)).toEqual(['之后']);
    await k.complete(applicant, piid, '之后');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});
