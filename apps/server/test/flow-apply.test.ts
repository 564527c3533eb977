import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/platform/db';
import { grantCodes, makeRole, makeTenant, signedInUser, WORK_CODES } from './fixtures';
import { deployBpmn } from './flow-kit';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * The generic application (申请) of process families without a form of their own: a process deployed
 * under 报销流程 (category 2) is started with a title, a content and an approver, handled by that approver
 * and then by a candidate role, and read back through apply/detail — within the caller's tenant only.
 */

type Person = { id: string; token: string };
let s: TestServer;
let admin: string;
let applicant: Person;
let approver: Person;
let clerk: Person;
let viewer: Person;
let pdid: string;
let groupOnly: string;

/** first the approver the applicant picks, then anyone of the role `cashier` */
const EXPENSE_BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
  <process id="expense_apply" name="费用报销" isExecutable="true">
    <startEvent id="s" name="开始" />
    <userTask id="check" name="部门审批" camunda:assignee="\${taskUser}" />
    <userTask id="pay" name="出纳付款" camunda:candidateGroups="cashier" />
    <endEvent id="e" name="结束" />
    <sequenceFlow id="a" sourceRef="s" targetRef="check" />
    <sequenceFlow id="b" sourceRef="check" targetRef="pay" />
    <sequenceFlow id="c" sourceRef="pay" targetRef="e" />
  </process>
</definitions>`;

/** a candidate task only: no approver to choose */
const GROUP_BPMN = EXPENSE_BPMN.replaceAll('expense_apply', 'expense_group')
  .replace('<userTask id="check" name="部门审批" camunda:assignee="${taskUser}" />', '')
  .replace('<sequenceFlow id="a" sourceRef="s" targetRef="check" />', '')
  .replace('sourceRef="check" targetRef="pay"', 'sourceRef="s" targetRef="pay"');

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });
const list = async (token: string, which: string) =>
  (await call(token, 'GET', `/api/dfem-flow/work/${which}?current=1&size=50`)).json().data;
const rowOf = async (token: string, which: string, processInstanceId: string) =>
  (await list(token, which)).records.find(
    (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
  );
const start = (token: string, body: object) =>
  call(token, 'POST', '/api/dfem-flow/process/apply/start-process', body);
const detail = (token: string, processInstanceId: string) =>
  call(token, 'GET', `/api/dfem-flow/process/apply/detail?processInstanceId=${processInstanceId}`);
const complete = (token: string, taskId: string, comment: string) =>
  call(token, 'POST', '/api/dfem-flow/work/complete-task', { taskId, flag: 'ok', comment });

const upload = (xml: string, name: string) => deployBpmn(s, admin, xml, { file: name });

beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
  const staff = await makeRole(s.database.db, '000000', 'staff', '职员');
  await grantCodes(s.database.db, staff, WORK_CODES);
  const cashier = await makeRole(s.database.db, '000000', 'cashier', '出纳');
  await grantCodes(s.database.db, cashier, WORK_CODES);
  const reader = await makeRole(s.database.db, '000000', 'reader', '只读');
  await grantCodes(s.database.db, reader, ['work', 'work_todo', 'work_send', 'work_done']);
  applicant = await signedInUser(s, 'applicant', [staff]);
  approver = await signedInUser(s, 'approver', [staff]);
  clerk = await signedInUser(s, 'clerk', [cashier]);
  viewer = await signedInUser(s, 'viewer', [reader]);
  pdid = await upload(EXPENSE_BPMN, 'expense.bpmn');
  groupOnly = await upload(GROUP_BPMN, 'group.bpmn');
});
afterAll(() => s?.close());

describe('the generic application', () => {
  it('is offered under 报销流程 and runs: approver → candidate role → finished, readable by its detail', async () => {
    const offered = (await list(applicant.token, 'start-list')).records.find(
      (r: { processDefinitionId: string }) => r.processDefinitionId === pdid,
    );
    expect(offered).toMatchObject({ category: '2', categoryName: '报销流程' });

    const res = await start(applicant.token, {
      processDefinitionId: pdid,
      title: '  差旅报销  ',
      content: '北京出差 3 天,共 1200 元',
      taskUser: approver.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json().data;
    expect(started).toMatchObject({ processDefinitionId: pdid, finished: false });
    expect(started.businessId).toBe(started.processInstanceId);
    const piid = started.processInstanceId as string;

    // the approver's to-do carries the business id its pages need
    const task = await rowOf(approver.token, 'todo-list', piid);
    expect(task).toMatchObject({
      taskName: '部门审批',
      businessId: piid,
      category: '2',
      categoryName: '报销流程',
      processDefinitionName: '费用报销',
      startUserName: 'applicant',
    });
    expect(await rowOf(clerk.token, 'todo-list', piid)).toBeUndefined();

    const running = (await detail(approver.token, piid)).json().data;
    expect(running).toMatchObject({
      processInstanceId: piid,
      processDefinitionId: pdid,
      processDefinitionName: '费用报销',
      category: '2',
      categoryName: '报销流程',
      title: '差旅报销',
      content: '北京出差 3 天,共 1200 元',
      taskUser: approver.id,
      taskUserName: 'approver',
      applyUser: applicant.id,
      applyUserName: 'applicant',
      processIsFinished: 'unfinished',
    });
    expect(running.applyTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    expect((await complete(approver.token, task.taskId, '情况属实')).statusCode).toBe(200);

    // the cashier role: claim, then approve
    const claimable = await rowOf(clerk.token, 'claim-list', piid);
    expect(claimable).toMatchObject({ taskName: '出纳付款', businessId: piid });
    expect(await rowOf(approver.token, 'claim-list', piid)).toBeUndefined();
    const claimed = await call(
      clerk.token,
      'POST',
      `/api/dfem-flow/work/claim-task?taskId=${claimable.taskId}`,
    );
    expect(claimed.statusCode).toBe(200);
    expect((await complete(clerk.token, claimable.taskId, '已付款')).statusCode).toBe(200);

    const sent = await rowOf(applicant.token, 'send-list', piid);
    expect(sent).toMatchObject({ businessId: piid, processIsFinished: 'finished', state: 'finished' });
    expect(await rowOf(approver.token, 'done-list', piid)).toMatchObject({
      taskName: '部门审批',
      comment: '情况属实',
      flag: 'ok',
      businessId: piid,
    });
    expect(await rowOf(clerk.token, 'done-list', piid)).toMatchObject({ taskName: '出纳付款' });

    const finished = await detail(applicant.token, piid);
    expect(finished.statusCode).toBe(200);
    expect(finished.json().data).toMatchObject({
      title: '差旅报销',
      content: '北京出差 3 天,共 1200 元',
      taskUserName: 'approver',
      applyUserName: 'applicant',
      processIsFinished: 'finished',
    });
    const timeline = (
      await call(applicant.token, 'GET', `/api/dfem-flow/process/history-flow-list?processInstanceId=${piid}`)
    ).json().data;
    expect(timeline.map((h: { historyActivityName: string }) => h.historyActivityName)).toEqual([
      '开始',
      '部门审批',
      '出纳付款',
      '结束',
    ]);
  });

  it('without an approver when the process names none; the content is optional', async () => {
    const res = await start(applicant.token, { processDefinitionId: groupOnly, title: '办公用品' });
    expect(res.statusCode, res.body).toBe(200);
    const piid = res.json().data.processInstanceId;
    expect(await rowOf(clerk.token, 'claim-list', piid)).toMatchObject({ businessId: piid });
    expect((await detail(applicant.token, piid)).json().data).toMatchObject({
      title: '办公用品',
      content: '',
      taskUser: '',
      taskUserName: '',
    });
  });

  it('says which field is wrong, in the caller’s language', async () => {
    const cases: [object, string, string][] = [
      [{ taskUser: approver.id }, 'title', '请输入标题'],
      [{ title: '   ', taskUser: approver.id }, 'title', '请输入标题'],
      [{ title: 'x'.repeat(101), taskUser: approver.id }, 'title', '标题不能超过 100 个字符'],
      [
        { title: 't', content: 'x'.repeat(2001), taskUser: approver.id },
        'content',
        '内容不能超过 2000 个字符',
      ],
      [{ title: 't', taskUser: '999999999' }, 'taskUser', '审批人不存在'],
      [{ title: 't', taskUser: 'abc' }, 'taskUser', '审批人不存在'],
      // its first task is `${taskUser}`'s: without one it would wait for nobody
      [{ title: 't' }, 'taskUser', '该流程需要选择审批人'],
    ];
    for (const [body, field, msg] of cases) {
      const res = await start(applicant.token, { processDefinitionId: pdid, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ data: { field }, msg });
    }
    const en = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-flow/process/apply/start-process',
      headers: { ...auth(applicant.token), 'accept-language': 'en' },
      payload: { processDefinitionId: pdid, taskUser: approver.id },
    });
    expect(en.json()).toMatchObject({ data: { field: 'title' }, msg: 'Please enter a title' });

    // a disabled user is no approver
    const idle = await signedInUser(s, 'idle', []);
    await s.database.db.update(schema.user).set({ status: 0 }).where(eq(schema.user.id, idle.id));
    const disabled = await start(applicant.token, {
      processDefinitionId: pdid,
      title: 't',
      taskUser: idle.id,
    });
    expect(disabled.json()).toMatchObject({ data: { field: 'taskUser' } });

    expect(
      (await start(applicant.token, { processDefinitionId: 'nope:1:x', title: 't', taskUser: approver.id }))
        .statusCode,
    ).toBe(404);
    expect((await detail(applicant.token, 'no-such-instance')).statusCode).toBe(404);
  });

  it('needs work_start to start', async () => {
    const res = await start(viewer.token, { processDefinitionId: pdid, title: 't', taskUser: approver.id });
    expect(res.statusCode).toBe(403);
  });

  it('another tenant neither reads the application nor completes its task', async () => {
    const res = await start(applicant.token, {
      processDefinitionId: pdid,
      title: '本村的申请',
      taskUser: approver.id,
    });
    const piid = res.json().data.processInstanceId;
    const task = await rowOf(approver.token, 'todo-list', piid);
    await makeTenant(s.database.db, '200003', '外村');
    const role = await makeRole(s.database.db, '200003', 'administrator', '管理员');
    await grantCodes(s.database.db, role, 'all');
    const stranger = await signedInUser(s, 'stranger', [role], '200003');
    expect((await detail(stranger.token, piid)).statusCode).toBe(404);
    expect((await complete(stranger.token, task.taskId, '越权')).statusCode).toBe(400);
    // nor names another tenant's user as its approver
    const foreign = await start(stranger.token, {
      processDefinitionId: pdid,
      title: 't',
      taskUser: approver.id,
    });
    expect(foreign.json()).toMatchObject({ data: { field: 'taskUser' } });
    // the approver still has it
    expect((await complete(approver.token, task.taskId, '同意')).statusCode).toBe(200);
  });
});

describe('names in the work lists', () => {
  it('a person renamed is named anew in the next to-do list (the names are kept while no user changes)', async () => {
    const res = await start(applicant.token, {
      processDefinitionId: pdid,
      title: '改名',
      content: '改名之后',
      taskUser: approver.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const piid = res.json().data.processInstanceId as string;
    const named = async () => (await rowOf(approver.token, 'todo-list', piid))?.startUserName;
    const before = await named();
    expect(before).toBeTruthy();
    expect(await named()).toBe(before);
    const users = schema.user;
    await s.database.db.update(users).set({ realName: '改过的名字' }).where(eq(users.id, applicant.id));
    expect(await named()).toBe('改过的名字');
  });
});
