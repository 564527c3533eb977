import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowHistory, flowNotice, flowWait } from '../src/modules/flow/tables';
import { bpmn, flow, kit, type Person, sleep, task, timer, until } from './flow-kit';
import { signIn, startTestServer, type TestServer } from './harness';

/**
 * Durable timers: kept in flow_wait and fired by whichever server's poller is alive — after a restart too,
 * exactly once with two servers on one database. Each process is written for the test, run to its end
 * through the work lists.
 */

/** the server the tests talk to; its own poller is slow, so the timers are fired by the ones started here */
let s: TestServer;
let current: TestServer;
const k = kit(() => current);
let applicant: Person;
let approver: Person;
const pollers: TestServer[] = [];
/** a server beside `s` whose poller looks every 50 ms */
async function poller() {
  const p = await startTestServer({ FLOW_TIMER_INTERVAL_MS: '50' }, { alongside: s });
  pollers.push(p);
  return p;
}

beforeAll(async () => {
  s = await startTestServer({ FLOW_TIMER_INTERVAL_MS: '3600000' });
  current = s;
  const { people } = await k.setup(['applicant', 'approver']);
  ({ applicant, approver } = people);
});
afterAll(async () => {
  for (const p of pollers) await p.close();
  await s?.close();
});

describe('timers', () => {
  it('refuses a time that is not ISO 8601, naming the element', async () => {
    const res = await k.upload(
      'badTimer',
      bpmn(
        'badTimer',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}<bpmn:intermediateCatchEvent id="w" name="等一会">${timer('timeDuration', 'five minutes')}</bpmn:intermediateCatchEvent>${flow('b', 'w', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(
      'IntermediateCatchEvent "等一会": "five minutes" is not an ISO 8601 duration',
    );
  });

  it('refuses a cycle that never moves on (R/PT0S, a second-long cycle from 1970) instead of hanging', async () => {
    const res = await k.upload(
      'zeroCycle',
      bpmn(
        'zeroCycle',
        `<bpmn:startEvent id="s">${timer('timeCycle', 'R/PT0S')}</bpmn:startEvent>${flow('a', 's', 'w')}<bpmn:intermediateCatchEvent id="w" name="每秒">${timer('timeCycle', 'R/1970-01-01T00:00:00Z/PT0.001S')}</bpmn:intermediateCatchEvent>${flow('b', 'w', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('"R/PT0S" repeats with an interval of no length');
    expect(res.json().msg).toContain(
      '"R/1970-01-01T00:00:00Z/PT0.001S" repeats with an interval of no length',
    );
  });

  it('a cycle an expression gives at run time that never moves on fails the step instead of hanging', async () => {
    const pdid = await k.deploy(
      'cycleFromInput',
      bpmn(
        'cycleFromInput',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '填写周期')}${flow('b', 't', 'w')}<bpmn:intermediateCatchEvent id="w">${timer('timeCycle', '${cycle}')}</bpmn:intermediateCatchEvent>${flow('c', 'w', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    const [t] = await k.rows(approver, 'todo-list', piid);
    const res = await k.call(approver.token, 'POST', '/api/dfem-flow/work/complete-task', {
      taskId: t.taskId,
      flag: 'ok',
      comment: '每时每刻',
      variables: { cycle: 'R/PT0S' },
    });
    expect(res.statusCode, res.body).toBe(409);
    // nothing moved: the task still waits, and the server answers
    expect(await k.todoNames(approver, piid)).toEqual(['填写周期']);
  });

  it('an intermediate timer catch event waits, then the process goes on', async () => {
    const pdid = await k.deploy(
      'waitABit',
      bpmn(
        'waitABit',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 'w')}<bpmn:intermediateCatchEvent id="w">${timer('timeDuration', 'PT1S')}</bpmn:intermediateCatchEvent>${flow('b', 'w', 't')}${task('t', '之后')}${flow('c', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    const [row] = await s.database.db.select().from(flowWait).where(eq(flowWait.processInstanceId, piid));
    expect(row).toMatchObject({ kind: 'timer', activityId: 'w', firedAt: null });
    await poller();
    const fired = await until(async () => (await k.todoNames(approver, piid)).length === 1);
    if (!fired) console.log(pollers.flatMap((p) => p.logs.filter((l) => /timer|error/i.test(l))).join('\n'));
    expect(fired).toBe(true);
    await k.complete(approver, piid, '之后');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('an interrupting boundary timer withdraws the task and takes its path; a date in the past is due', async () => {
    const pdid = await k.deploy(
      'deadline',
      bpmn(
        'deadline',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '限时审批')}
        <bpmn:boundaryEvent id="late" attachedToRef="t">${timer('timeDate', '2020-01-01T00:00:00Z')}</bpmn:boundaryEvent>
        ${flow('b', 't', 'e')}${flow('c', 'late', 'boss')}${task('boss', '超时处理', '${applyUser}')}${flow('d', 'boss', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    expect(await until(async () => (await k.todoNames(applicant, piid)).length === 1)).toBe(true);
    expect(await k.todoNames(applicant, piid)).toEqual(['超时处理']);
    expect(await k.todoNames(approver, piid)).toEqual([]);
    await k.complete(applicant, piid, '超时处理');
    expect(await k.state(applicant, piid)).toBe('finished');
  });

  it('a task completed before its timer: the timer never fires', async () => {
    const pdid = await k.deploy(
      'inTime',
      bpmn(
        'inTime',
        `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '按时审批')}
        <bpmn:boundaryEvent id="late" attachedToRef="t">${timer('timeDuration', 'PT1S')}</bpmn:boundaryEvent>
        ${flow('b', 't', 'e')}${flow('c', 'late', 'boss')}${task('boss', '超时处理', '${applyUser}')}${flow('d', 'boss', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const piid = await k.start(applicant, pdid, approver.id);
    await k.complete(approver, piid, '按时审批');
    expect(await k.state(applicant, piid)).toBe('finished');
    await sleep(1500);
    expect(await k.todoNames(applicant, piid)).toEqual([]);
    const open = await s.database.db
      .select()
      .from(flowWait)
      .where(and(eq(flowWait.processInstanceId, piid)));
    expect(open.every((w) => w.firedAt)).toBe(true);
  });
});

describe('escalation after a time: a reminder to the assignee', () => {
  // 审批 reminds its assignee after 2 s (non-interrupting), and the reminder's path asks the applicant too
  const xml = bpmn(
    'remindProcess',
    `<bpmn:startEvent id="s"/>${flow('a', 's', 't')}${task('t', '审批')}
    <bpmn:boundaryEvent id="remind" name="催办" attachedToRef="t" cancelActivity="false">${timer('timeDuration', 'PT2S')}</bpmn:boundaryEvent>
    ${flow('b', 't', 'e')}${flow('c', 'remind', 'follow')}${task('follow', '跟进', '${applyUser}')}${flow('d', 'follow', 'e2')}
    <bpmn:endEvent id="e"/><bpmn:endEvent id="e2"/>`,
  );

  it('fires after a restart exactly once with two servers running', async () => {
    const pdid = await k.deploy('remind', xml);
    // no poller of the tests before runs any more
    for (const p of pollers.splice(0)) await p.close();
    // started while a server with a quick poller runs, which then stops before the timer is due
    const first = await poller();
    current = first;
    const piid = await k.start(applicant, pdid, approver.id);
    await first.close();
    pollers.splice(0);
    current = s;
    // the timer comes due while no poller runs
    await sleep(2500);
    expect(await k.todoNames(applicant, piid)).toEqual([]);
    // two servers start on the same database: the due timer fires at their start, once
    const [a, b] = await Promise.all([poller(), poller()]);
    expect(await until(async () => (await k.todoNames(applicant, piid)).length > 0)).toBe(true);
    await sleep(500);
    const notices = await s.database.db
      .select()
      .from(flowNotice)
      .where(eq(flowNotice.processInstanceId, piid));
    expect(notices).toHaveLength(1);
    expect(notices[0].userId).toBe(approver.id);
    const fired = await s.database.db
      .select()
      .from(flowWait)
      .where(and(eq(flowWait.processInstanceId, piid), eq(flowWait.kind, 'timer')));
    expect(fired).toHaveLength(1);
    expect([a, b].map((p) => p.logs.join('')).join('')).not.toContain('workflow timer failed');
    expect(fired[0].claimedBy).toBeTruthy();
    const boundary = await s.database.db
      .select()
      .from(flowHistory)
      .where(and(eq(flowHistory.processInstanceId, piid), eq(flowHistory.activityId, 'remind')));
    expect(boundary).toHaveLength(1);
    // the assignee reads it in their notices, in their language; the task stays theirs (non-interrupting)
    const list = await k.call(approver.token, 'GET', '/api/dfem-flow/work/notice-list?current=1&size=10');
    expect(list.json().data.records[0].title).toContain('The task "审批" is due');
    expect(await k.todoNames(approver, piid)).toEqual(['审批']);
    expect(await k.todoNames(applicant, piid)).toEqual(['跟进']);
    await k.complete(applicant, piid, '跟进');
    await k.complete(approver, piid, '审批');
    expect(await k.state(applicant, piid)).toBe('finished');
  });
});

describe('timer start events', () => {
  it('a cycle R2/PT1S starts two instances for the deployer, then no more', async () => {
    await k.deploy(
      'cycle',
      bpmn(
        'cycleStart',
        `<bpmn:startEvent id="s">${timer('timeCycle', 'R2/PT1S')}</bpmn:startEvent>${flow('a', 's', 't')}${task('t', '定时任务', '${applyUser}')}${flow('b', 't', 'e')}<bpmn:endEvent id="e"/>`,
      ),
    );
    const adminToken = (await signIn(s)).access_token;
    // a quick poller of its own (the test does not lean on the pollers the tests before it left running)
    if (!pollers.length) await poller();
    const mine = async () =>
      (await k.call(adminToken, 'GET', '/api/dfem-flow/work/todo-list?current=1&size=100'))
        .json()
        .data.records.filter((r: { taskName: string }) => r.taskName === '定时任务');
    expect(await until(async () => (await mine()).length === 2)).toBe(true);
    await sleep(1500);
    expect(await mine()).toHaveLength(2);
    // an instance the start timer started went straight to its task: its start event waits on no timer
    const started = (await mine()).map((t: { processInstanceId: string }) => t.processInstanceId);
    const waits = await s.database.db
      .select()
      .from(flowWait)
      .where(inArray(flowWait.processInstanceId, started));
    expect(waits).toEqual([]);
  });
});
