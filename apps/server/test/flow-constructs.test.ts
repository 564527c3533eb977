import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowInstance, flowWait } from '../src/modules/flow/tables';
import { bpmn, flow, kit, type Person, task } from './flow-kit';
import { auth, startTestServer, type TestServer } from './harness';

/**
 * Workflow constructs beyond user tasks and exclusive/parallel gateways, each a small process written for
 * the test and run to its end through the work lists: the inclusive gateway's split and join, call
 * activities, and what ends with an instance that called others (its children, and theirs).
 */

let s: TestServer;
const k = kit(() => s);
let applicant: Person;
let approver: Person;
let clerk: Person;
let admin: () => string;

beforeAll(async () => {
  s = await startTestServer();
  const { people, admin: adminToken } = await k.setup(['applicant', 'approver', 'clerk']);
  ({ applicant, approver, clerk } = people);
  admin = adminToken;
});
afterAll(() => s?.close());

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

describe('ending an instance that called others ends them too', () => {
  // parent: its own task beside a call of the child; an interrupting message event sub-process (撤回).
  // child: its own task (with a boundary timer) beside a call of the grandchild. All tasks are the clerk's.
  const grand = (key: string) =>
    bpmn(
      key,
      `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '孙流程任务', '${reviewer}')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>`,
    );
  const child = (key: string, grandKey: string) =>
    bpmn(
      key,
      `<bpmn:startEvent id="s"/>${flow('a', 's', 'fork')}<bpmn:parallelGateway id="fork"/>
      ${flow('f1', 'fork', 't')}${flow('f2', 'fork', 'call')}
      ${task('t', '子流程任务', '${reviewer}')}
      <bpmn:boundaryEvent id="late" attachedToRef="t" cancelActivity="false"><bpmn:timerEventDefinition><bpmn:timeDuration>P1D</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
      ${flow('l', 'late', 'le')}<bpmn:endEvent id="le"/>
      <bpmn:callActivity id="call" calledElement="${grandKey}"><bpmn:extensionElements><flowable:in source="reviewer" target="reviewer"/></bpmn:extensionElements></bpmn:callActivity>
      ${flow('j1', 't', 'join')}${flow('j2', 'call', 'join')}<bpmn:parallelGateway id="join"/>${flow('z', 'join', 'e')}<bpmn:endEvent id="e"/>`,
    );
  const parent = (key: string, childKey: string) =>
    bpmn(
      key,
      `<bpmn:startEvent id="s"/>${flow('a', 's', 'fork')}<bpmn:parallelGateway id="fork"/>
      ${flow('f1', 'fork', 't')}${flow('f2', 'fork', 'call')}
      ${task('t', '父流程任务')}
      <bpmn:callActivity id="call" calledElement="${childKey}"><bpmn:extensionElements><flowable:in source="taskUser" target="reviewer"/></bpmn:extensionElements></bpmn:callActivity>
      ${flow('j1', 't', 'join')}${flow('j2', 'call', 'join')}<bpmn:parallelGateway id="join"/>${flow('z', 'join', 'e')}<bpmn:endEvent id="e"/>
      <bpmn:subProcess id="recall" name="撤回" triggeredByEvent="true">
        <bpmn:startEvent id="rs"><bpmn:messageEventDefinition messageRef="recallMsg"/></bpmn:startEvent>
        ${flow('r1', 'rs', 'rt')}${task('rt', '撤回登记', '${applyUser}')}${flow('r2', 'rt', 're')}<bpmn:endEvent id="re"/>
      </bpmn:subProcess>`,
      '<bpmn:message id="recallMsg" name="撤回申请"/>',
    );

  /** the instances of the tree started by `piid`: the parent, its child and grandchild (from the call waits) */
  async function tree(piid: string) {
    const ids = [piid];
    for (let i = 0; i < ids.length; i++) {
      const calls = await s.database.db
        .select({ child: flowWait.childInstanceId })
        .from(flowWait)
        .where(and(eq(flowWait.processInstanceId, ids[i]), eq(flowWait.kind, 'call')));
      for (const c of calls) if (c.child) ids.push(c.child);
    }
    const rows = await s.database.db
      .select({ piid: flowInstance.processInstanceId, state: flowInstance.state })
      .from(flowInstance)
      .where(inArray(flowInstance.processInstanceId, ids));
    const open = await s.database.db
      .select({ kind: flowWait.kind })
      .from(flowWait)
      .where(and(inArray(flowWait.processInstanceId, ids), isNull(flowWait.firedAt)));
    return {
      ids,
      states: ids.map((id) => rows.find((r) => r.piid === id)?.state),
      openWaits: open.map((w) => w.kind).sort(),
    };
  }
  const clerksTasks = async (ids: string[]) =>
    (await k.rows(clerk, 'todo-list'))
      .filter((t) => ids.includes(t.processInstanceId))
      .map((t) => t.taskName);

  async function startTree(suffix: string) {
    await k.deploy(`grand${suffix}`, grand(`grand${suffix}`));
    await k.deploy(`child${suffix}`, child(`child${suffix}`, `grand${suffix}`));
    const pdid = await k.deploy(`parent${suffix}`, parent(`parent${suffix}`, `child${suffix}`));
    const piid = await k.start(applicant, pdid, clerk.id);
    const t = await tree(piid);
    expect(t.states).toEqual(['running', 'running', 'running']);
    expect((await clerksTasks(t.ids)).sort()).toEqual(['子流程任务', '孙流程任务', '父流程任务']);
    // the parent's message catch, its call; the child's timer and call; the grandchild waits on its task
    expect(t.openWaits).toEqual(['call', 'call', 'message', 'message', 'timer']);
    return t;
  }

  it('the parent moving on leaves its child running; an interrupting event sub-process ends the child and grandchild', async () => {
    const { ids } = await startTree('A');
    const [piid] = ids;
    await k.complete(clerk, piid, '父流程任务');
    // the parent ran again (it now waits at its join): the children still run
    expect((await tree(piid)).states).toEqual(['running', 'running', 'running']);
    expect((await clerksTasks(ids)).sort()).toEqual(['子流程任务', '孙流程任务']);
    const res = await k.call(
      admin(),
      'POST',
      `/api/dfem-flow/process/message?name=${encodeURIComponent('撤回申请')}&businessKey=${piid}`,
      {},
    );
    expect(res.statusCode, res.body).toBe(200);
    // the call was withdrawn: the child and its own child ended, their tasks left the lists, their waits went
    const after = await tree(piid);
    expect(after.states).toEqual(['running', 'deleted', 'deleted']);
    expect(await clerksTasks(ids)).toEqual([]);
    expect(after.openWaits).toEqual([]);
    expect(await k.todoNames(applicant, piid)).toEqual(['撤回登记']);
    await k.complete(applicant, piid, '撤回登记');
    expect((await tree(piid)).states).toEqual(['finished', 'deleted', 'deleted']);
  });

  it('deleting the parent (流程跟踪) ends its child and grandchild', async () => {
    const { ids } = await startTree('B');
    // a called child is not deleted on its own: its caller would wait for it for ever
    const child = await k.call(
      admin(),
      'POST',
      `/api/dfem-flow/follow/delete-process-instance?processInstanceId=${ids[1]}&deleteReason=x`,
    );
    expect(child.statusCode).toBe(409);
    expect(child.json().msg).toContain(`a call activity of process ${ids[0]}`);
    expect((await tree(ids[0])).states).toEqual(['running', 'running', 'running']);
    const res = await k.call(
      admin(),
      'POST',
      `/api/dfem-flow/follow/delete-process-instance?processInstanceId=${ids[0]}&deleteReason=${encodeURIComponent('申请有误')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = await tree(ids[0]);
    expect(after.states).toEqual(['deleted', 'deleted', 'deleted']);
    expect(await clerksTasks(ids)).toEqual([]);
    expect(after.openWaits).toEqual([]);
    // each timeline records it: the task under way ended with the reason, and a last line says so
    for (const [i, piid] of ids.entries()) {
      const timeline = await k.call(
        applicant.token,
        'GET',
        `/api/dfem-flow/process/history-flow-list?processInstanceId=${piid}`,
      );
      const lines = timeline.json().data as {
        historyActivityName: string;
        historyActivityType: string;
        endTime: string;
        comment: string;
      }[];
      const name = ['父流程任务', '子流程任务', '孙流程任务'][i];
      const step = lines.find((l) => l.historyActivityName === name);
      expect(step?.endTime, name).not.toBe('');
      expect(step?.comment).toContain('申请有误');
      // read in the reader's language (the kit reads in English), what the user wrote as it was written
      expect(lines.at(-1)).toMatchObject({ historyActivityType: 'EndEvent', historyActivityName: 'ended' });
      expect(lines.at(-1)?.comment).toBe(i === 0 ? '申请有误' : 'the process that called it ended: 申请有误');
    }
    // the same timeline read in Chinese
    const zh = await s.app.inject({
      method: 'GET',
      url: `/api/dfem-flow/process/history-flow-list?processInstanceId=${ids[1]}`,
      headers: { ...auth(applicant.token), 'accept-language': 'zh-CN' },
    });
    const last = (zh.json().data as { historyActivityName: string; comment: string }[]).at(-1);
    expect(last).toMatchObject({ historyActivityName: '流程终止', comment: '调用它的流程已结束: 申请有误' });
    // a child cannot be deleted twice
    const again = await k.call(
      admin(),
      'POST',
      `/api/dfem-flow/follow/delete-process-instance?processInstanceId=${ids[1]}&deleteReason=x`,
    );
    expect(again.statusCode).toBe(404);
  });

  it('removing the deployments of the parent and grandchild (cascade) ends the child between them too', async () => {
    const upload = async (name: string, xml: string) => {
      const res = await k.upload(name, xml);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { deploymentId: string; processDefinitionIds: string[] };
    };
    const g = await upload('grandC', grand('grandC'));
    const c = await upload('childC', child('childC', 'grandC'));
    const p = await upload('parentC', parent('parentC', 'childC'));
    const piid = await k.start(applicant, p.processDefinitionIds[0], clerk.id);
    const { ids } = await tree(piid);
    expect(ids).toHaveLength(3);
    const res = await k.call(
      admin(),
      'POST',
      `/api/dfem-flow/manager/delete-deployment?deploymentIds=${[p, g].map((d) => d.deploymentId).join(',')}&cascade=true`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = await tree(piid);
    expect(after.states).toEqual(['deleted', 'deleted', 'deleted']);
    expect(await clerksTasks(ids)).toEqual([]);
    expect(after.openWaits).toEqual([]);
    // the child's definition is still deployed
    const list = await k.call(admin(), 'GET', '/api/dfem-flow/manager/list?size=200');
    const keys = list.json().data.records.map((r: { key: string }) => r.key);
    expect(keys).toContain('childC');
    expect(keys).not.toContain('parentC');
    expect(c.deploymentId).toBeTruthy();
  });
});
