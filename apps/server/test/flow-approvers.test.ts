import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCodes, makeRole, makeTenant, signedInUser, WORK_CODES } from './fixtures';
import { deployBpmn } from './flow-kit';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * A countersign the process begins with: the start form (the generic application and the leave form) sends
 * its approvers as the countersign's collection variable; each approver gets a task of their own. Only a
 * countersign's collection is accepted, and only live users of the caller's tenant, each once.
 */

type Person = { id: string; token: string };
let s: TestServer;
let admin: string;
let applicant: Person;
let a: Person;
let b: Person;
let c: Person;
let pdid: string;
let leavePdid: string;

/** 会签: every one of `${approvers}` approves, then it ends */
const COUNTERSIGN_BPMN = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
  <process id="${key}" name="会签${key}" isExecutable="true">
    <startEvent id="s" name="开始" />
    <userTask id="sign" name="会签审批" camunda:assignee="\${approver}">
      <multiInstanceLoopCharacteristics isSequential="false" camunda:collection="\${approvers}" camunda:elementVariable="approver" />
    </userTask>
    <endEvent id="e" name="结束" />
    <sequenceFlow id="f1" sourceRef="s" targetRef="sign" />
    <sequenceFlow id="f2" sourceRef="sign" targetRef="e" />
  </process>
</definitions>`;

/** 初审 by the applicant, who picks the approvers of the 会签 after it (Flowable's `#{assigneeList}`) */
const PICKED_BPMN = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" id="d" targetNamespace="t">
  <process id="${key}" name="选人会签${key}" isExecutable="true">
    <startEvent id="s" />
    <userTask id="first" name="初审" flowable:assignee="\${applyUser}" />
    <userTask id="sign" name="会签审批" flowable:assignee="#{assignee}">
      <multiInstanceLoopCharacteristics isSequential="true" flowable:collection="#{assigneeList}" flowable:elementVariable="assignee" />
    </userTask>
    <endEvent id="e" />
    <sequenceFlow id="f1" sourceRef="s" targetRef="first" />
    <sequenceFlow id="f2" sourceRef="first" targetRef="sign" />
    <sequenceFlow id="f3" sourceRef="sign" targetRef="e" />
  </process>
</definitions>`;

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });
const todo = async (p: Person, piid: string) =>
  (await call(p.token, 'GET', '/api/dfem-flow/work/todo-list?current=1&size=50'))
    .json()
    .data.records.filter((r: { processInstanceId: string }) => r.processInstanceId === piid);
const sent = async (p: Person, piid: string) =>
  (await call(p.token, 'GET', '/api/dfem-flow/work/send-list?current=1&size=50'))
    .json()
    .data.records.find((r: { processInstanceId: string }) => r.processInstanceId === piid);
const complete = (p: Person, taskId: string) =>
  call(p.token, 'POST', '/api/dfem-flow/work/complete-task', { taskId, flag: 'ok', comment: '同意' });

const upload = (xml: string, category: string) =>
  deployBpmn(s, admin, xml, { category, file: 'countersign.bpmn' });

beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
  const staff = await makeRole(s.database.db, '000000', 'staff', '职员');
  await grantCodes(s.database.db, staff, WORK_CODES);
  applicant = await signedInUser(s, 'applicant', [staff]);
  a = await signedInUser(s, 'signer_a', [staff]);
  b = await signedInUser(s, 'signer_b', [staff]);
  c = await signedInUser(s, 'signer_c', [staff]);
  pdid = await upload(COUNTERSIGN_BPMN('cs_apply'), '2');
  leavePdid = await upload(COUNTERSIGN_BPMN('cs_leave'), '1');
});
afterAll(() => s?.close());

describe('approvers chosen at start', () => {
  it('the application names three approvers: each holds a task, the process ends after the third', async () => {
    const res = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: '会签申请',
      variables: { approvers: [a.id, b.id, c.id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const piid = res.json().data.processInstanceId as string;
    const tasks = await Promise.all([a, b, c].map((p) => todo(p, piid)));
    expect(tasks.map((t) => t.map((r: { taskName: string }) => r.taskName))).toEqual([
      ['会签审批'],
      ['会签审批'],
      ['会签审批'],
    ]);
    expect((await complete(a, tasks[0][0].taskId)).statusCode).toBe(200);
    expect((await complete(b, tasks[1][0].taskId)).statusCode).toBe(200);
    expect((await sent(applicant, piid)).processIsFinished).toBe('unfinished');
    expect((await complete(c, tasks[2][0].taskId)).statusCode).toBe(200);
    expect((await sent(applicant, piid)).processIsFinished).toBe('finished');
  });

  it('the leave form names them too', async () => {
    const res = await call(applicant.token, 'POST', '/api/dfem-desk/process/leave/start-process', {
      processDefinitionId: leavePdid,
      taskUser: a.id,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 18:00:00',
      reason: '会签请假',
      variables: { approvers: [b.id, c.id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const piid = res.json().data.processInstanceId as string;
    expect(await todo(a, piid)).toEqual([]);
    expect(await todo(b, piid)).toHaveLength(1);
    expect(await todo(c, piid)).toHaveLength(1);
  });

  it('refuses a variable no countersign reads, an unknown or foreign user, and a repeated one', async () => {
    const start = (variables: object) =>
      call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
        processDefinitionId: pdid,
        title: 't',
        variables,
      });
    // a gateway's variable is not the applicant's to set through this
    const other = await start({ pass: [a.id] });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ data: { field: 'variables' } });
    expect((await start({ approvers: ['9999999999'] })).json()).toMatchObject({
      data: { field: 'variables' },
    });
    expect((await start({ approvers: [a.id, a.id] })).json()).toMatchObject({
      data: { field: 'variables' },
    });
    expect((await start({ approvers: [] })).statusCode).toBe(400);
    expect((await start({ approvers: ['x'] })).statusCode).toBe(400);
    await makeTenant(s.database.db, '200003', '外村');
    const role = await makeRole(s.database.db, '200003', 'administrator', '管理员');
    await grantCodes(s.database.db, role, 'all');
    const stranger = await signedInUser(s, 'stranger', [role], '200003');
    const foreign = await call(stranger.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: 't',
      variables: { approvers: [a.id] },
    });
    expect(foreign.json()).toMatchObject({ data: { field: 'variables' } });
  });
});

describe('which lists a form asks for (/work/countersigns, from the deployed model)', () => {
  const ask = (p: Person, query: string) => call(p.token, 'GET', `/api/dfem-flow/work/countersigns?${query}`);

  it('the start form: the countersign the process begins with, its variable and how it runs', async () => {
    const res = await ask(applicant, `processDefinitionId=${pdid}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { taskId: 'sign', name: '会签审批', variable: 'approvers', kind: 'all', sequential: false },
    ]);
    // a process that begins with an ordinary step asks for nothing at start
    const picked = await upload(PICKED_BPMN('cs_ask'), '2');
    expect((await ask(applicant, `processDefinitionId=${picked}`)).json().data).toEqual([]);
    expect((await ask(applicant, 'processDefinitionId=nope:1:x')).statusCode).toBe(404);
    expect((await ask(applicant, '')).statusCode).toBe(400);
    expect((await ask(applicant, 'taskId=x')).statusCode).toBe(400);
  });

  it('the handle form: the countersign right after the caller’s own open task, nobody else’s', async () => {
    const picked = await upload(PICKED_BPMN('cs_ask_task'), '2');
    const res = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: picked,
      title: '问会签',
    });
    const piid = res.json().data.processInstanceId as string;
    const [first] = await todo(applicant, piid);
    const answer = await ask(applicant, `taskId=${first.taskId}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toEqual([
      { taskId: 'sign', name: '会签审批', variable: 'assigneeList', kind: 'all', sequential: true },
    ]);
    expect((await ask(a, `taskId=${first.taskId}`)).statusCode).toBe(404);
  });

  it('whoever starts or handles work finds the tenant’s users to pick (the user picker), without managing users', async () => {
    // the users list itself is user management's
    expect((await call(applicant.token, 'GET', '/api/dfem-user/page?current=1&size=10')).statusCode).toBe(
      403,
    );
    const found = await call(applicant.token, 'GET', '/api/dfem-user/select?keyword=signer_&size=50');
    expect(found.statusCode, found.body).toBe(200);
    expect(
      found
        .json()
        .data.map((u: { id: string }) => u.id)
        .sort(),
    ).toEqual([a.id, b.id, c.id].sort());
    expect(found.json().data[0]).toMatchObject({ hint: expect.stringMatching(/^signer_/) });
    // nobody without a work or user permission
    const none = await makeRole(s.database.db, '000000', 'nobody', '无权限');
    const outsider = await signedInUser(s, 'outsider', [none]);
    expect((await call(outsider.token, 'GET', '/api/dfem-user/select?keyword=signer_')).statusCode).toBe(403);
  });

  it('a start without the list the countersign needs is a 400 naming it, never a 500', async () => {
    const res = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: '无人会签',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'variables' } });
    expect(res.json().msg).toContain('会签审批');
    expect(res.json().msg).toContain('approvers');
    // nothing was started
    expect(
      (await call(applicant.token, 'GET', '/api/dfem-flow/work/send-list?current=1&size=50'))
        .json()
        .data.records.filter(
          (r: { processDefinitionName: string }) => r.processDefinitionName === '会签cs_apply',
        ),
    ).toHaveLength(1);
  });
});

describe('approvers chosen on the handle page of the step before', () => {
  it('complete-task takes the list as the countersign reads it, and refuses a bad one with a 400', async () => {
    const picked = await upload(PICKED_BPMN('cs_picked'), '2');
    const res = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: picked,
      title: '初审后会签',
    });
    expect(res.statusCode, res.body).toBe(200);
    const piid = res.json().data.processInstanceId as string;
    const [first] = await todo(applicant, piid);
    expect(first.taskName).toBe('初审');
    const handle = (variables: object) =>
      call(applicant.token, 'POST', '/api/dfem-flow/work/complete-task', {
        taskId: first.taskId,
        flag: 'ok',
        comment: '请三位会签',
        variables,
      });
    await makeTenant(s.database.db, '200004', '邻村');
    const role = await makeRole(s.database.db, '200004', 'administrator', '管理员');
    const neighbour = await signedInUser(s, 'neighbour', [role], '200004');
    // approved without the list: a 400 saying whose approvers to pick (not the engine's 409 or a 500)
    const none = await handle({});
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json()).toMatchObject({ data: { field: 'variables' } });
    expect(none.json().msg).toContain('会签审批');
    // not an id, nobody, someone of another tenant, twice the same, none, not a list, too many
    for (const assigneeList of [
      ['x'],
      [a.id, 'x'],
      ['9999999999'],
      [a.id, neighbour.id],
      [a.id, a.id],
      [],
      a.id,
      Array.from({ length: 101 }, () => a.id),
    ]) {
      const bad = await handle({ assigneeList });
      expect(bad.statusCode, JSON.stringify(assigneeList)).toBe(400);
      // the list's field (the schema names where in it: variables.assigneeList)
      expect(bad.json().data.field, JSON.stringify(assigneeList)).toMatch(/^variables\b/);
    }
    // each refusal left the task as it was
    expect((await todo(applicant, piid)).map((t: { taskId: string }) => t.taskId)).toEqual([first.taskId]);
    // a variable no countersign reads as its approvers passes through unchecked
    const done = await handle({ assigneeList: [c.id, a.id, b.id], note: ['x'] });
    expect(done.statusCode, done.body).toBe(200);
    // in turn, in the order picked
    for (const p of [c, a, b]) {
      const others = [a, b, c].filter((o) => o !== p);
      expect((await Promise.all(others.map((o) => todo(o, piid)))).flat()).toEqual([]);
      const [task] = await todo(p, piid);
      expect(task.taskName).toBe('会签审批');
      expect((await complete(p, task.taskId)).statusCode).toBe(200);
    }
    expect((await sent(applicant, piid)).processIsFinished).toBe('finished');
  });
});
