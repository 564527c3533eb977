import { and, eq, isNull, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowHistory, flowWait } from '../src/modules/flow/tables';
import { grantCodes, makeRole, signedInUser, WORK_CODES } from './fixtures';
import { bpmn, flow, kit, type Person, task, timer, until, uploadBpmn } from './flow-kit';
import { startTestServer, type TestServer } from './harness';

/**
 * Event sub-processes (triggeredByEvent): started by an error, an escalation, a message, a signal or a
 * timer; an interrupting one withdraws everything else the process waits on (tasks leave the work lists,
 * timers and subscriptions leave flow_wait) and only it goes on, to the process's end; a non-interrupting one
 * runs beside the main path. Each process is written for the test and run to its end through the work
 * lists; one is continued by a second server over the same database, as after a restart.
 */

/** the server the tests talk to (its own poller is slow: timers are fired by the one started for them) */
let s: TestServer;
let current: TestServer;
const k = kit(() => current);
const extra: TestServer[] = [];
let applicant: Person;
let approver: Person;
/** holds the work codes and the 流程跟踪 message and signal buttons */
let operator: Person;
let admin: () => string;

beforeAll(async () => {
  s = await startTestServer({ FLOW_TIMER_INTERVAL_MS: '3600000' });
  current = s;
  const { people, admin: adminToken } = await k.setup(['applicant', 'approver']);
  ({ applicant, approver } = people);
  admin = adminToken;
  const ops = await makeRole(s.database.db, '000000', 'ops', '运维');
  await grantCodes(s.database.db, ops, [
    ...WORK_CODES,
    'flow',
    'flow_follow',
    'flow_follow_message',
    'flow_follow_signal',
  ]);
  operator = await signedInUser(s, 'operator', [ops]);
});
afterAll(async () => {
  for (const p of extra) await p.close();
  await s?.close();
});

/** another server over the same database: what a restart (or a second instance) sees */
async function another(env: Record<string, string> = {}) {
  const p = await startTestServer({ FLOW_TIMER_INTERVAL_MS: '3600000', ...env }, { alongside: s });
  extra.push(p);
  return p;
}

/** an event sub-process whose start event (`trigger`) leads to one user task of the applicant's */
const eventSub = (id: string, name: string, trigger: string, taskName: string, interrupting = true) =>
  `<bpmn:subProcess id="${id}" name="${name}" triggeredByEvent="true">
    <bpmn:startEvent id="${id}Start" isInterrupting="${interrupting}">${trigger}</bpmn:startEvent>
    ${flow(`${id}A`, `${id}Start`, `${id}Task`)}${task(`${id}Task`, taskName, '${applyUser}')}
    ${flow(`${id}B`, `${id}Task`, `${id}End`)}<bpmn:endEvent id="${id}End"/>
  </bpmn:subProcess>`;
const message = (p: Person, name: string, businessKey: string) =>
  current.app.inject({
    method: 'POST',
    url: `/api/dfem-flow/process/message?name=${encodeURIComponent(name)}&businessKey=${encodeURIComponent(businessKey)}`,
    headers: { 'blade-auth': `bearer ${p.token}`, 'accept-language': 'en' },
    payload: {},
  });
const signal = (p: Person, name: string) =>
  current.app.inject({
    method: 'POST',
    url: `/api/dfem-flow/process/signal?name=${encodeURIComponent(name)}`,
    headers: { 'blade-auth': `bearer ${p.token}`, 'accept-language': 'en' },
    payload: {},
  });
/** what the instance still waits on in flow_wait (timers, message and signal catches), by kind */
const openWaits = async (piid: string) =>
  (
    await s.database.db
      .select({ kind: flowWait.kind })
      .from(flowWait)
      .where(and(eq(flowWait.processInstanceId, piid), isNull(flowWait.firedAt)))
  )
    .map((w) => w.kind)
    .sort();

describe('deployment', () => {
  it('refuses an event sub-process that is not one, naming every problem at once (en and zh)', async () => {
    const xml = bpmn(
      'badEventSubs',
      `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '办理')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>
      <bpmn:subProcess id="linked" name="被连接" triggeredByEvent="true">
        <bpmn:startEvent id="ls"><bpmn:signalEventDefinition signalRef="sig"/></bpmn:startEvent>${flow('la', 'ls', 'le')}<bpmn:endEvent id="le"/>
      </bpmn:subProcess>${flow('c', 't', 'linked')}
      <bpmn:subProcess id="plain" name="无触发" triggeredByEvent="true">
        <bpmn:startEvent id="ps"/>${flow('pa', 'ps', 'pe')}<bpmn:endEvent id="pe"/>
      </bpmn:subProcess>
      <bpmn:subProcess id="soft" name="不中断的错误" triggeredByEvent="true">
        <bpmn:startEvent id="ss" name="出错" isInterrupting="false"><bpmn:errorEventDefinition/></bpmn:startEvent>${flow('sa', 'ss', 'se')}<bpmn:endEvent id="se"/>
      </bpmn:subProcess>
      <bpmn:subProcess id="deaf" name="无消息" triggeredByEvent="true">
        <bpmn:startEvent id="ds" name="收到"><bpmn:messageEventDefinition/></bpmn:startEvent>${flow('da', 'ds', 'de')}<bpmn:endEvent id="de"/>
      </bpmn:subProcess>`,
      '<bpmn:signal id="sig" name="信号"/>',
    );
    const en = await k.upload('badEventSubs', xml);
    expect(en.statusCode).toBe(400);
    const msg = en.json().msg as string;
    expect(msg).toContain(
      'SubProcess "被连接" is an event sub-process: no sequence flow may enter or leave it',
    );
    expect(msg).toContain(
      'SubProcess "无触发" is an event sub-process: it needs exactly one start event naming one trigger',
    );
    expect(msg).toContain(
      'StartEvent "出错" of SubProcess "不中断的错误" catches an error, which always interrupts',
    );
    expect(msg).toContain(
      'StartEvent "收到" of SubProcess "无消息" names no message to wait for (messageRef)',
    );
    const zh = (await uploadBpmn(current, admin(), xml, { lang: 'zh' })).json().msg as string;
    expect(zh).toContain('SubProcess "被连接" 是事件子流程: 不能有顺序流进入或离开它');
    expect(zh).toContain('SubProcess "无触发" 是事件子流程: 需要恰好一个开始事件');
    expect(zh).toContain('SubProcess "不中断的错误" 的 StartEvent "出错" 捕获错误');
    expect(zh).toContain('SubProcess "无消息" 的 StartEvent "收到" 没有指定要等待的消息 (messageRef)');
  });
});

describe('interrupting event sub-processes', () => {
  it('an error end event of the main path: the parallel task is withdrawn, the handler reads the path’s variables', async () => {
    // 核验 and 旁审 run in parallel; 核验 with level "high" ends in the error 材料有误, which the event
    // sub-process catches; its gateway reads level (set by 核验) to choose 严重异常处理
    const pdid = await k.deploy(
      'errorSub',
      bpmn(
        'errorSub',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'fork')}<bpmn:parallelGateway id="fork"/>
        ${flow('f1', 'fork', 'check')}${flow('f2', 'fork', 'side')}
        ${task('check', '核验')}${task('side', '旁审')}
        ${flow('b', 'check', 'g')}<bpmn:exclusiveGateway id="g" default="fine"/>
        ${flow('bad', 'g', 'fail', "${level == 'high'}")}${flow('fine', 'g', 'join')}
        <bpmn:endEvent id="fail" name="材料有误"><bpmn:errorEventDefinition errorRef="material"/></bpmn:endEvent>
        ${flow('c', 'side', 'join')}<bpmn:parallelGateway id="join"/>${flow('d', 'join', 'e')}<bpmn:endEvent id="e"/>
        <bpmn:subProcess id="onError" name="异常处理" triggeredByEvent="true">
          <bpmn:startEvent id="caught" name="出错"><bpmn:errorEventDefinition errorRef="material"/></bpmn:startEvent>
          ${flow('h0', 'caught', 'hg')}<bpmn:exclusiveGateway id="hg" default="h2"/>
          ${flow('h1', 'hg', 'severe', "${level == 'high'}")}${flow('h2', 'hg', 'minor')}
          ${task('severe', '严重异常处理', '${applyUser}')}${task('minor', '一般异常处理', '${applyUser}')}
          ${flow('h3', 'severe', 'he')}${flow('h4', 'minor', 'he')}<bpmn:endEvent id="he"/>
        </bpmn:subProcess>`,
        '<bpmn:error id="material" errorCode="MATERIAL"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, piid)).toEqual(['旁审', '核验']);
    await k.complete(approver, piid, '核验', { level: 'high' });
    // the handler runs alone: 旁审 left the list
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect(await k.todoNames(applicant, piid)).toEqual(['严重异常处理']);
    expect(await k.state(applicant, piid)).toBe('unfinished');
    await k.complete(applicant, piid, '严重异常处理');
    expect(await k.state(applicant, piid)).toBe('finished');
    // the timeline names the diagram's elements only
    const steps = await s.database.db
      .select({ id: flowHistory.activityId })
      .from(flowHistory)
      .where(eq(flowHistory.processInstanceId, piid));
    expect(steps.map((r) => r.id)).toEqual(expect.arrayContaining(['fail', 'onError', 'caught', 'severe']));
    expect(steps.filter((r) => r.id.startsWith('__'))).toEqual([]);
    expect(await openWaits(piid)).toEqual([]);
  });

  it('the main path ending normally ends the instance; the error handler never ran', async () => {
    const pdid = await k.deploy(
      'errorSubQuiet',
      bpmn(
        'errorSubQuiet',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '核验')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>
        ${eventSub('onError', '异常处理', '<bpmn:errorEventDefinition/>', '异常处理任务')}`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '核验');
    expect(await k.state(applicant, piid)).toBe('finished');
    expect(await k.todoNames(applicant, piid)).toEqual([]);
  });

  it('a message withdraws the waiting task, its timer and subscriptions; the handler ends the instance (continued on another server)', async () => {
    const pdid = await k.deploy(
      'messageSub',
      bpmn(
        'messageSub',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '正常办理')}
        <bpmn:boundaryEvent id="late" attachedToRef="t" cancelActivity="false">${timer('timeDuration', 'P1D')}</bpmn:boundaryEvent>
        ${flow('b', 't', 'w')}<bpmn:intermediateCatchEvent id="w"><bpmn:signalEventDefinition signalRef="go"/></bpmn:intermediateCatchEvent>
        ${flow('c', 'w', 'e')}${flow('d', 'late', 'e2')}<bpmn:endEvent id="e"/><bpmn:endEvent id="e2"/>
        ${eventSub('cancel', '撤销', '<bpmn:messageEventDefinition messageRef="stop"/>', '撤销处理')}`,
        '<bpmn:message id="stop" name="撤销申请"/><bpmn:signal id="go" name="放行"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, piid)).toEqual(['正常办理']);
    // the boundary timer, and the event sub-process's message (twice: the engine's event and its definition)
    expect(await openWaits(piid)).toEqual(['message', 'message', 'timer']);
    // a second server over the same database takes it from here, as after a restart
    current = await another();
    const res = await message(operator, '撤销申请', piid);
    expect(res.statusCode, res.body).toBe(200);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect(await k.todoNames(applicant, piid)).toEqual(['撤销处理']);
    // the task's timer and the message catch are gone from flow_wait; nothing else listens
    expect(await openWaits(piid)).toEqual([]);
    expect((await message(operator, '撤销申请', piid)).statusCode).toBe(400);
    expect(await k.state(applicant, piid)).toBe('unfinished');
    await k.complete(applicant, piid, '撤销处理');
    expect(await k.state(applicant, piid)).toBe('finished');
    current = s;
  });

  it('a signal interrupts only the sub-process it belongs to; the path after that sub-process goes on', async () => {
    const pdid = await k.deploy(
      'innerSignal',
      bpmn(
        'innerSignal',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'sub')}
        <bpmn:subProcess id="sub" name="现场核查">
          <bpmn:startEvent id="ss"/>${flow('sa', 'ss', 'st')}${task('st', '现场核查任务')}${flow('sb', 'st', 'se')}<bpmn:endEvent id="se"/>
          ${eventSub('abort', '中止核查', '<bpmn:signalEventDefinition signalRef="halt"/>', '中止登记')}
        </bpmn:subProcess>
        ${flow('b', 'sub', 'after')}${task('after', '核查之后')}${flow('c', 'after', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:signal id="halt" name="暂停核查"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, piid)).toEqual(['现场核查任务']);
    expect((await signal(operator, '暂停核查')).json().data.heard).toBe(1);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    await k.complete(applicant, piid, '中止登记');
    // the sub-process ended by its handler; the process goes on after it
    expect(await k.todoNames(approver, piid)).toEqual(['核查之后']);
    await k.complete(approver, piid, '核查之后');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
  it('an interrupting one also withdraws the non-interrupting ones running beside the path', async () => {
    const pdid = await k.deploy(
      'mixedSubs',
      bpmn(
        'mixedSubs',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '正常办理')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>
        ${eventSub('notice', '通报', '<bpmn:signalEventDefinition signalRef="memo"/>', '阅知通报', false)}
        ${eventSub('cancel', '撤销', '<bpmn:messageEventDefinition messageRef="stop"/>', '撤销登记')}`,
        '<bpmn:signal id="memo" name="备忘"/><bpmn:message id="stop" name="撤销全部"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect((await signal(operator, '备忘')).json().data.heard).toBe(1);
    expect(await k.todoNames(applicant, piid)).toEqual(['阅知通报']);
    expect((await message(operator, '撤销全部', piid)).statusCode).toBe(200);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect(await k.todoNames(applicant, piid)).toEqual(['撤销登记']);
    expect(await openWaits(piid)).toEqual([]);
    await k.complete(applicant, piid, '撤销登记');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('non-interrupting event sub-processes', () => {
  it('a timer: its task joins the main path’s in the lists; the instance ends when both are done', async () => {
    const pdid = await k.deploy(
      'timerSub',
      bpmn(
        'timerSub',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '正常办理')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>
        ${eventSub('remind', '催办', timer('timeDuration', 'PT1S'), '催办跟进', false)}`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await openWaits(piid)).toEqual(['timer']);
    // a server whose poller looks every 50 ms fires it
    await another({ FLOW_TIMER_INTERVAL_MS: '50' });
    expect(await until(async () => (await k.todoNames(applicant, piid)).length > 0)).toBe(true);
    expect(await k.todoNames(applicant, piid)).toEqual(['催办跟进']);
    expect(await k.todoNames(approver, piid)).toEqual(['正常办理']);
    await k.complete(applicant, piid, '催办跟进');
    expect(await k.state(applicant, piid)).toBe('unfinished');
    await k.complete(approver, piid, '正常办理');
    expect(await k.state(applicant, piid)).toBe('finished');
    expect(await openWaits(piid)).toEqual([]);
  });

  it('a signal, heard twice: each is handled (one after the other), beside the main path', async () => {
    const pdid = await k.deploy(
      'signalSub',
      bpmn(
        'signalSub',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '正常办理')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>
        ${eventSub('notice', '通报', '<bpmn:signalEventDefinition signalRef="bulletin"/>', '知悉通报', false)}`,
        '<bpmn:signal id="bulletin" name="通报"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect((await signal(operator, '通报')).json().data.heard).toBe(1);
    expect(await k.todoNames(applicant, piid)).toEqual(['知悉通报']);
    expect(await k.todoNames(approver, piid)).toEqual(['正常办理']);
    // still listening: a second signal is heard too
    expect((await signal(operator, '通报')).json().data.heard).toBe(1);
    await k.complete(approver, piid, '正常办理');
    expect(await k.state(applicant, piid)).toBe('unfinished');
    await k.complete(applicant, piid, '知悉通报');
    // the second signal's handling
    expect(await k.todoNames(applicant, piid)).toEqual(['知悉通报']);
    await k.complete(applicant, piid, '知悉通报');
    expect(await k.state(applicant, piid)).toBe('finished');
    // the main path ended: nobody listens any more
    expect((await signal(operator, '通报')).json().data.heard).toBe(0);
  });

  it('a terminate end event of the main path ends the event sub-processes running beside it', async () => {
    const pdid = await k.deploy(
      'terminateSub',
      bpmn(
        'terminateSub',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '正常办理')}${flow('b', 't', 'x')}
        <bpmn:endEvent id="x"><bpmn:terminateEventDefinition/></bpmn:endEvent>
        ${eventSub('side', '旁路', '<bpmn:messageEventDefinition messageRef="poke"/>', '旁路处理', false)}`,
        '<bpmn:message id="poke" name="提醒"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect((await message(operator, '提醒', piid)).statusCode).toBe(200);
    expect(await k.todoNames(applicant, piid)).toEqual(['旁路处理']);
    await k.complete(approver, piid, '正常办理');
    expect(await k.state(applicant, piid)).toBe('finished');
    expect(await k.todoNames(applicant, piid)).toEqual([]);
    expect(await openWaits(piid)).toEqual([]);
  });
});

it('the timeline of every instance above names only the diagrams’ elements', async () => {
  const steps = await s.database.db
    .select()
    .from(flowHistory)
    .where(like(flowHistory.activityId, '\\_\\_es%'));
  expect(steps).toEqual([]);
  expect(await s.database.db.select().from(flowHistory)).not.toEqual([]);
});
