import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowNotice } from '../src/modules/flow/tables';
import { grantCodes, makeRole, makeTenant, signedInUser, WORK_CODES } from './fixtures';
import { bpmn, flow, kit, type Person, task } from './flow-kit';
import { startTestServer, type TestServer } from './harness';

/**
 * Messages and signals (catch and throw events, boundary events, receive tasks, the event-based gateway),
 * correlated and broadcast through the API with permission checks and tenant isolation; error and
 * escalation ends caught by boundary events (event sub-processes: flow-event-subprocess.test.ts); manual
 * tasks and service-type tasks running the registry's actions. Each process is written for the test and run to its end.
 */

let s: TestServer;
const k = kit(() => s);
let applicant: Person;
let approver: Person;
/** holds the work codes and the 流程跟踪 message and signal buttons */
let operator: Person;
/** the same codes, in another tenant */
let stranger: Person;

beforeAll(async () => {
  s = await startTestServer();
  const { people, staff } = await k.setup(['applicant', 'approver']);
  ({ applicant, approver } = people);
  const ops = await makeRole(s.database.db, '000000', 'ops', '运维');
  await grantCodes(s.database.db, ops, [
    ...WORK_CODES,
    'flow',
    'flow_follow',
    'flow_follow_message',
    'flow_follow_signal',
  ]);
  operator = await signedInUser(s, 'operator', [ops]);
  await makeTenant(s.database.db, '222222', '别处');
  const far = await makeRole(s.database.db, '222222', 'ops', '运维');
  await grantCodes(s.database.db, far, [
    ...WORK_CODES,
    'flow',
    'flow_follow',
    'flow_follow_message',
    'flow_follow_signal',
  ]);
  stranger = await signedInUser(s, 'stranger', [far], '222222');
  void staff;
});
afterAll(() => s?.close());

const message = (p: Person, name: string, businessKey: string, variables = {}) =>
  k.call(
    p.token,
    'POST',
    `/api/dfem-flow/process/message?name=${encodeURIComponent(name)}&businessKey=${encodeURIComponent(businessKey)}`,
    { variables },
  );
const signal = (p: Person, name: string) =>
  k.call(p.token, 'POST', `/api/dfem-flow/process/signal?name=${encodeURIComponent(name)}`, {});

describe('messages', () => {
  const xml = bpmn(
    'paymentWait',
    `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}
    <bpmn:intermediateCatchEvent id="w" name="等待付款"><bpmn:messageEventDefinition messageRef="paid"/></bpmn:intermediateCatchEvent>
    ${flow('b', 'w', 't')}${task('t', '确认收款')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
    '<bpmn:message id="paid" name="付款完成"/>',
  );

  it('a message reaches the instance of its business key, with the caller’s permission, in its tenant only', async () => {
    const pdid = await k.deploy('paymentWait', xml);
    const piid = await k.start(applicant, pdid, approver.id);
    const other = await k.start(applicant, pdid, approver.id);
    // without the button's code: refused
    expect((await message(applicant, '付款完成', piid)).statusCode).toBe(403);
    // another tenant's caller finds nothing waiting (the instance is not theirs)
    const far = await message(stranger, '付款完成', piid);
    expect(far.statusCode).toBe(400);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    const res = await message(operator, '付款完成', piid, { amount: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.heard).toBe(1);
    expect(await k.todoNames(approver, piid)).toEqual(['确认收款']);
    // the other instance (another business key) still waits
    expect(await k.todoNames(approver, other)).toEqual([]);
    // a second delivery finds nobody waiting
    expect((await message(operator, '付款完成', piid)).statusCode).toBe(400);
    await k.complete(approver, piid, '确认收款');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a receive task waits for its message; a message boundary event interrupts a task', async () => {
    const pdid = await k.deploy(
      'receiveAndCancel',
      bpmn(
        'receiveAndCancel',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'r')}
        <bpmn:receiveTask id="r" name="等待回执" messageRef="receipt"/>${flow('b', 'r', 't')}${task('t', '处理回执')}
        <bpmn:boundaryEvent id="cancel" attachedToRef="t"><bpmn:messageEventDefinition messageRef="withdraw"/></bpmn:boundaryEvent>
        ${flow('c', 't', 'e')}${flow('d', 'cancel', 'e2')}<bpmn:endEvent id="e"/><bpmn:endEvent id="e2"/>`,
        '<bpmn:message id="receipt" name="回执"/><bpmn:message id="withdraw" name="撤回"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect((await message(operator, '回执', piid)).statusCode).toBe(200);
    expect(await k.todoNames(approver, piid)).toEqual(['处理回执']);
    expect((await message(operator, '撤回', piid)).statusCode).toBe(200);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('signals', () => {
  it('a broadcast reaches every waiting instance of the caller’s tenant, and a thrown signal too', async () => {
    const catcher = await k.deploy(
      'alarmWait',
      bpmn(
        'alarmWait',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}
        <bpmn:intermediateCatchEvent id="w"><bpmn:signalEventDefinition signalRef="alarm"/></bpmn:intermediateCatchEvent>
        ${flow('b', 'w', 't')}${task('t', '处置警报')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:signal id="alarm" name="警报"/>',
      ),
    );
    const one = await k.start(applicant, catcher, approver.id);
    const two = await k.start(applicant, catcher, approver.id);
    expect((await signal(applicant, '警报')).statusCode).toBe(403);
    expect((await signal(stranger, '警报')).json().data.heard).toBe(0);
    expect(await k.todoNames(approver, one)).toEqual([]);
    const res = await signal(operator, '警报');
    expect(res.json().data.heard).toBe(2);
    expect(await k.todoNames(approver, one)).toEqual(['处置警报']);
    expect(await k.todoNames(approver, two)).toEqual(['处置警报']);
    // a process that throws the signal wakes the others
    const three = await k.start(applicant, catcher, approver.id);
    const thrower = await k.deploy(
      'alarmThrow',
      bpmn(
        'alarmThrow',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'x')}
        <bpmn:intermediateThrowEvent id="x"><bpmn:signalEventDefinition signalRef="alarm2"/></bpmn:intermediateThrowEvent>
        ${flow('b', 'x', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:signal id="alarm2" name="警报"/>',
      ),
    );
    await k.start(applicant, thrower);
    expect(await k.todoNames(approver, three)).toEqual(['处置警报']);
  });
});

describe('the event-based gateway', () => {
  const xml = bpmn(
    'eventRace',
    `<bpmn:startEvent id="s"/>${flow('a', 's', 'g')}<bpmn:eventBasedGateway id="g"/>
    ${flow('b', 'g', 'm')}${flow('c', 'g', 'tm')}
    <bpmn:intermediateCatchEvent id="m"><bpmn:messageEventDefinition messageRef="answer"/></bpmn:intermediateCatchEvent>
    <bpmn:intermediateCatchEvent id="tm"><bpmn:timerEventDefinition><bpmn:timeDuration>P2D</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
    ${flow('d', 'm', 'answered')}${flow('f', 'tm', 'late')}
    ${task('answered', '已答复')}${task('late', '超时')}
    ${flow('h', 'answered', 'e')}${flow('i', 'late', 'e')}<bpmn:endEvent id="e"/>`,
    '<bpmn:message id="answer" name="答复"/>',
  );

  it('the first event wins: the message; the timer is cancelled', async () => {
    const pdid = await k.deploy('eventRace', xml);
    const piid = await k.start(applicant, pdid, approver.id);
    expect((await message(operator, '答复', piid)).statusCode).toBe(200);
    expect(await k.todoNames(approver, piid)).toEqual(['已答复']);
    const { flowWait } = await import('../src/modules/flow/tables');
    const waits = await s.database.db.select().from(flowWait).where(eq(flowWait.processInstanceId, piid));
    expect(waits.filter((w) => w.kind === 'timer')).toHaveLength(1);
    expect(waits.every((w) => w.firedAt)).toBe(true);
    await k.complete(approver, piid, '已答复');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('errors and escalations', () => {
  it('an error end event in a sub-process is caught by its boundary event', async () => {
    const pdid = await k.deploy(
      'errorCatch',
      bpmn(
        'errorCatch',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'sub')}
        <bpmn:subProcess id="sub" name="核验"><bpmn:startEvent id="ss"/>${flow('sa', 'ss', 'st')}${task('st', '核验材料')}${flow('sb', 'st', 'se')}
          <bpmn:endEvent id="se"><bpmn:errorEventDefinition errorRef="bad"/></bpmn:endEvent></bpmn:subProcess>
        <bpmn:boundaryEvent id="caught" attachedToRef="sub"><bpmn:errorEventDefinition errorRef="bad"/></bpmn:boundaryEvent>
        ${flow('b', 'sub', 'e')}${flow('c', 'caught', 'fix')}${task('fix', '补正材料', '${applyUser}')}${flow('d', 'fix', 'e')}<bpmn:endEvent id="e"/>`,
        '<bpmn:error id="bad" errorCode="MATERIAL"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '核验材料');
    expect(await k.todoNames(applicant, piid)).toEqual(['补正材料']);
    await k.complete(applicant, piid, '补正材料');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('an escalation thrown in a sub-process is caught by a non-interrupting boundary event', async () => {
    const pdid = await k.deploy(
      'escalate',
      bpmn(
        'escalate',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'sub')}
        <bpmn:subProcess id="sub"><bpmn:startEvent id="ss"/>${flow('sa', 'ss', 'x')}
          <bpmn:intermediateThrowEvent id="x"><bpmn:escalationEventDefinition escalationRef="up"/></bpmn:intermediateThrowEvent>
          ${flow('sb', 'x', 'st')}${task('st', '继续办理')}${flow('sc', 'st', 'se')}<bpmn:endEvent id="se"/></bpmn:subProcess>
        <bpmn:boundaryEvent id="up1" attachedToRef="sub" cancelActivity="false"><bpmn:escalationEventDefinition escalationRef="up"/></bpmn:boundaryEvent>
        ${flow('b', 'sub', 'e')}${flow('c', 'up1', 'boss')}${task('boss', '上级知悉', '${applyUser}')}${flow('d', 'boss', 'e2')}
        <bpmn:endEvent id="e"/><bpmn:endEvent id="e2"/>`,
        '<bpmn:escalation id="up" escalationCode="UP"/>',
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(applicant, piid)).toEqual(['上级知悉']);
    expect(await k.todoNames(approver, piid)).toEqual(['继续办理']);
    await k.complete(applicant, piid, '上级知悉');
    await k.complete(approver, piid, '继续办理');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('service-type and manual tasks', () => {
  it('named actions run (set variables, send a notice); a manual task passes', async () => {
    const pdid = await k.deploy(
      'actions',
      bpmn(
        'actions',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'm')}<bpmn:manualTask id="m" name="线下盖章"/>${flow('b', 'm', 'v')}
        <bpmn:serviceTask id="v" name="定级" flowable:type="variables"><bpmn:extensionElements>
          <flowable:field name="level" stringValue="high"/></bpmn:extensionElements></bpmn:serviceTask>
        ${flow('c', 'v', 'n')}
        <bpmn:sendTask id="n" name="通知审批人" camunda:type="notice"><bpmn:extensionElements>
          <flowable:field name="to" stringValue="\${taskUser}"/><flowable:field name="title" stringValue="有新的申请"/></bpmn:extensionElements></bpmn:sendTask>
        ${flow('d', 'n', 'g')}<bpmn:exclusiveGateway id="g" default="low"/>
        <bpmn:sequenceFlow id="high" sourceRef="g" targetRef="t"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${level == 'high'}</bpmn:conditionExpression></bpmn:sequenceFlow>
        ${flow('low', 'g', 'e')}${task('t', '高级别审批')}${flow('f', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, piid)).toEqual(['高级别审批']);
    const notices = await s.database.db
      .select()
      .from(flowNotice)
      .where(eq(flowNotice.processInstanceId, piid));
    expect(notices.map((n) => [n.userId, n.title])).toEqual([[approver.id, '有新的申请']]);
    await k.complete(approver, piid, '高级别审批');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('an http action calls only addresses on the allow-list (empty by default): the start is refused', async () => {
    const pdid = await k.deploy(
      'httpCall',
      bpmn(
        'httpCall',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'h')}
        <bpmn:serviceTask id="h" name="回调" flowable:type="http"><bpmn:extensionElements>
          <flowable:field name="url" stringValue="http://127.0.0.1:9/hook"/></bpmn:extensionElements></bpmn:serviceTask>
        ${flow('b', 'h', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const res = await k.call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: 't',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toContain('not on the allow-list');
  });

  it('a class, a delegate or a script is refused at deploy, every element named', async () => {
    const res = await k.upload(
      'classes',
      bpmn(
        'classes',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'x')}<bpmn:serviceTask id="x" name="Java 类" flowable:class="com.example.Foo"/>
        ${flow('b', 'x', 'y')}<bpmn:scriptTask id="y" name="脚本" scriptFormat="javascript"><bpmn:script>process.exit(1)</bpmn:script></bpmn:scriptTask>
        ${flow('c', 'y', 'z')}<bpmn:businessRuleTask id="z" name="规则" flowable:type="drools"/>${flow('d', 'z', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    const msg = res.json().msg;
    expect(msg).toContain('ServiceTask "Java 类" names no action');
    expect(msg).toContain('ScriptTask "脚本" holds a script: scripts never run here');
    expect(msg).toContain('BusinessRuleTask "规则" names no action');
  });
});
