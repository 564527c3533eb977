import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCodes, makeRole, makeTenant, signedInUser, WORK_CODES } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

let s: TestServer;
let admin: string;
let applicant: { id: string; token: string };
let approver: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
  const staff = await makeRole(s.database.db, '000000', 'staff', '职员');
  await grantCodes(s.database.db, staff, WORK_CODES);
  applicant = await signedInUser(s, 'applicant', [staff]);
  approver = await signedInUser(s, 'approver', [staff]);
  other = await signedInUser(s, 'other', [staff]);
});
afterAll(() => s?.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  s.app.inject({ method, url, headers: auth(token), payload });
const list = async (token: string, which: string) =>
  (await call(token, 'GET', `/api/dfem-flow/work/${which}?current=1&size=50`)).json().data;

async function startLeave(token = applicant.token, taskUser = approver.id) {
  const res = await call(token, 'POST', '/api/dfem-desk/process/leave/start-process', {
    processDefinitionId: 'leave:1:seed0001',
    taskUser,
    startTime: '2026-12-01 09:00:00',
    endTime: '2026-12-03 18:00:00',
    reason: '回老家',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { businessId: string; processInstanceId: string };
}

const todoOf = async (token: string, processInstanceId: string) =>
  (await list(token, 'todo-list')).records.find(
    (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
  );

/** the instance's timeline (history-flow-list) as `token` sees it */
const timelineOf = async (token: string, processInstanceId: string) =>
  (
    await call(
      token,
      'GET',
      `/api/dfem-flow/process/history-flow-list?processInstanceId=${processInstanceId}`,
    )
  ).json().data;

const complete = (token: string, taskId: string, flag: string | undefined, comment = '同意') =>
  call(token, 'POST', '/api/dfem-flow/work/complete-task', { taskId, flag, comment });

describe('the leave process', () => {
  it('start-list offers it through the flow dictionary’s category', async () => {
    const page = await list(applicant.token, 'start-list');
    expect(page.records).toContainEqual(
      expect.objectContaining({
        processDefinitionId: 'leave:1:seed0001',
        processDefinitionKey: 'leave',
        category: '1',
        categoryName: '请假流程',
      }),
    );
  });

  it('start → the approver’s to-do → approve → finished, in send-list and done-list', async () => {
    const { processInstanceId, businessId } = await startLeave();
    const task = await todoOf(approver.token, processInstanceId);
    expect(task).toMatchObject({
      taskName: '审批',
      taskDefinitionKey: 'approve',
      processDefinitionName: '请假流程',
      businessId,
      startUserName: 'applicant',
    });
    expect(await todoOf(other.token, processInstanceId)).toBeUndefined();
    // a colleague with no part in it reads nothing of it
    for (const url of [
      `/api/dfem-flow/process/history-flow-list?processInstanceId=${processInstanceId}`,
      `/api/dfem-flow/process/model-view?processInstanceId=${processInstanceId}`,
      `/api/dfem-desk/process/leave/detail?businessId=${businessId}`,
    ])
      expect((await call(other.token, 'GET', url)).statusCode, url).toBe(404);
    const waiting = await timelineOf(applicant.token, processInstanceId);
    // the waiting step names who has it, before anyone completed it
    expect(waiting.at(-1)).toMatchObject({
      historyActivityName: '审批',
      assigneeName: 'approver',
      endTime: '',
    });

    const noComment = await call(approver.token, 'POST', '/api/dfem-flow/work/complete-task', {
      taskId: task.taskId,
      flag: 'ok',
      comment: '  ',
    });
    expect(noComment.statusCode).toBe(400);
    expect((await complete(approver.token, task.taskId, 'ok', '准假')).statusCode).toBe(200);

    const sent = (await list(applicant.token, 'send-list')).records.find(
      (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
    );
    expect(sent.processIsFinished).toBe('finished');
    const done = (await list(approver.token, 'done-list')).records.find(
      (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
    );
    expect(done).toMatchObject({ taskName: '审批', comment: '准假', flag: 'ok' });
    const detail = (
      await call(applicant.token, 'GET', `/api/dfem-desk/process/leave/detail?businessId=${businessId}`)
    ).json().data;
    expect(detail).toMatchObject({
      reason: '回老家',
      taskUserName: 'approver',
      processIsFinished: 'finished',
    });

    const timeline = await timelineOf(applicant.token, processInstanceId);
    expect(timeline.map((t: { historyActivityName: string }) => t.historyActivityName)).toEqual([
      '开始',
      '审批',
      '通过',
    ]);
    expect(timeline[1]).toMatchObject({ assigneeName: 'approver', comment: '准假' });

    const view = (
      await call(
        applicant.token,
        'GET',
        `/api/dfem-flow/process/model-view?processInstanceId=${processInstanceId}`,
      )
    ).json().data;
    expect(view.xml).toContain('<process id="leave"');
    const ids = view.flow.map((f: { historyActivityId: string }) => f.historyActivityId);
    expect(ids).toEqual(expect.arrayContaining(['start', 'toApprove', 'approve', 'pass', 'approved']));
    expect(
      view.flow.find((f: { historyActivityId: string }) => f.historyActivityId === 'pass')
        .historyActivityType,
    ).toBe('sequenceFlow');
  });

  it('reject returns the leave to the applicant, who may withdraw it', async () => {
    const { processInstanceId } = await startLeave();
    const task = await todoOf(approver.token, processInstanceId);
    expect((await complete(approver.token, task.taskId, undefined, '日期冲突')).statusCode).toBe(200);
    const back = await todoOf(applicant.token, processInstanceId);
    expect(back).toMatchObject({ taskName: '调整申请' });
    const view = (
      await call(
        applicant.token,
        'GET',
        `/api/dfem-flow/process/model-view?processInstanceId=${processInstanceId}`,
      )
    ).json().data;
    const adjust = view.flow.find((f: { historyActivityId: string }) => f.historyActivityId === 'adjust');
    expect(adjust.endTime).toBe(''); // active: drawn in the primary colour
    expect((await complete(applicant.token, back.taskId, undefined, '不请了')).statusCode).toBe(200);
    const sent = (await list(applicant.token, 'send-list')).records.find(
      (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
    );
    expect(sent.processIsFinished).toBe('finished');
  });

  it('two concurrent completions of one task: one succeeds, the other gets a clear error', async () => {
    const { processInstanceId } = await startLeave();
    const task = await todoOf(approver.token, processInstanceId);
    const results = await Promise.all([
      complete(approver.token, task.taskId, 'ok'),
      complete(approver.token, task.taskId, 'ok'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.json().msg).toBe('任务不存在或已被处理');
  });

  it('a task holder cannot rewrite what the applicant filled in', async () => {
    const { processInstanceId, businessId } = await startLeave();
    const task = await todoOf(approver.token, processInstanceId);
    const forged = await call(approver.token, 'POST', '/api/dfem-flow/work/complete-task', {
      taskId: task.taskId,
      flag: 'ok',
      comment: '同意',
      variables: { taskUser: other.id, days: 0 },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().data).toEqual({ field: 'variables' });
    // nothing happened: the task still waits, the leave still names its approver
    expect(await todoOf(approver.token, processInstanceId)).toBeDefined();
    const detail = (
      await call(applicant.token, 'GET', `/api/dfem-desk/process/leave/detail?businessId=${businessId}`)
    ).json().data;
    expect(detail).toMatchObject({ taskUserName: 'approver', processIsFinished: 'unfinished' });
  });

  it('the form’s rules: end not before start, an approver of the tenant', async () => {
    const bad = await call(applicant.token, 'POST', '/api/dfem-desk/process/leave/start-process', {
      processDefinitionId: 'leave:1:seed0001',
      taskUser: approver.id,
      startTime: '2026-12-03 09:00:00',
      endTime: '2026-12-01 09:00:00',
      reason: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ data: { field: 'endTime' }, msg: '结束时间不能早于开始时间' });
  });
});

const CANDIDATE_BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
  <process id="purchase" name="采购审批" isExecutable="true">
    <startEvent id="s" />
    <userTask id="review" name="财务审核" camunda:candidateGroups="finance" />
    <endEvent id="e" />
    <sequenceFlow id="a" sourceRef="s" targetRef="review" />
    <sequenceFlow id="b" sourceRef="review" targetRef="e" />
  </process>
</definitions>`;

function uploadForm(files: [string, string][], category = '2', tenantIds = '') {
  const form = new FormData();
  form.append('category', category);
  form.append('tenantIds', tenantIds);
  for (const [name, xml] of files) form.append('files', new Blob([xml]), name);
  return form;
}

describe('deployments and candidates', () => {
  let financeA: { id: string; token: string };
  let financeB: { id: string; token: string };

  it('an uploaded diagram deploys; a candidate-role task is claimable by that role only, and leaves the others’ lists once claimed', async () => {
    const up = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-flow/manager/deploy-upload',
      headers: auth(admin),
      payload: uploadForm([['purchase.bpmn', CANDIDATE_BPMN]]),
    });
    expect(up.statusCode, up.body).toBe(200);
    const pdid = up.json().data.processDefinitionIds[0];
    expect(pdid).toMatch(/^purchase:1:/);

    const finance = await makeRole(s.database.db, '000000', 'finance', '财务');
    await grantCodes(s.database.db, finance, WORK_CODES);
    financeA = await signedInUser(s, 'fina', [finance]);
    financeB = await signedInUser(s, 'finb', [finance]);
    // started by the applicant with the generic application (发起流程)
    const started = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: '采购申请',
    });
    expect(started.statusCode, started.body).toBe(200);
    const { processInstanceId } = started.json().data;

    const inClaim = async (token: string) =>
      (await list(token, 'claim-list')).records.some(
        (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
      );
    expect(await inClaim(financeA.token)).toBe(true);
    expect(await inClaim(financeB.token)).toBe(true);
    expect(await inClaim(other.token)).toBe(false);
    const task = (await list(financeA.token, 'claim-list')).records.find(
      (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
    );

    const outsider = await call(other.token, 'POST', `/api/dfem-flow/work/claim-task?taskId=${task.taskId}`);
    expect(outsider.statusCode).toBe(400);
    const claims = await Promise.all([
      call(financeA.token, 'POST', `/api/dfem-flow/work/claim-task?taskId=${task.taskId}`),
      call(financeB.token, 'POST', `/api/dfem-flow/work/claim-task?taskId=${task.taskId}`),
    ]);
    expect(claims.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = claims[0].statusCode === 200 ? financeA : financeB;
    const loser = winner === financeA ? financeB : financeA;
    expect(await inClaim(loser.token)).toBe(false);
    expect(await todoOf(winner.token, processInstanceId)).toMatchObject({ taskName: '财务审核' });
    expect((await complete(winner.token, task.taskId, 'ok')).statusCode).toBe(200);
  });

  it('a suspended definition refuses to start, and starts again once active', async () => {
    const off = await call(
      admin,
      'POST',
      '/api/dfem-flow/manager/change-state?processId=leave:1:seed0001&state=suspend',
    );
    expect(off.statusCode).toBe(200);
    const refused = await call(applicant.token, 'POST', '/api/dfem-desk/process/leave/start-process', {
      processDefinitionId: 'leave:1:seed0001',
      taskUser: approver.id,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 09:00:00',
      reason: 'x',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe('流程已挂起,不能发起');
    expect(
      (
        await call(
          admin,
          'POST',
          '/api/dfem-flow/manager/change-state?processId=leave:1:seed0001&state=active',
        )
      ).statusCode,
    ).toBe(200);
    await startLeave();
  });

  it('an invalid upload deploys nothing and says why', async () => {
    const before = (await call(admin, 'GET', '/api/dfem-flow/manager/list?size=200')).json().data.total;
    const cases: [string, string, RegExp][] = [
      ['broken.bpmn', '<definitions><process', /invalid BPMN|not a BPMN/],
      [
        'none.bpmn',
        CANDIDATE_BPMN.replace('isExecutable="true"', 'isExecutable="false"'),
        /no executable process/,
      ],
      [
        'script.bpmn',
        CANDIDATE_BPMN.replace(
          '<userTask id="review" name="财务审核" camunda:candidateGroups="finance" />',
          '<scriptTask id="review" name="脚本" />',
        ),
        /ScriptTask "脚本" (holds a script|names no action)/,
      ],
      [
        'expr.bpmn',
        CANDIDATE_BPMN.replace('camunda:candidateGroups="finance"', 'camunda:assignee="${process.exit(1)}"'),
        /expression/,
      ],
    ];
    for (const [name, xml, reason] of cases) {
      // one good file beside the bad one: still nothing is deployed
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/dfem-flow/manager/deploy-upload',
        headers: { ...auth(admin), 'accept-language': 'en' },
        payload: uploadForm([
          ['good.bpmn', CANDIDATE_BPMN],
          [name, xml],
        ]),
      });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().msg).toMatch(reason);
    }
    expect((await call(admin, 'GET', '/api/dfem-flow/manager/list?size=200')).json().data.total).toBe(before);
  });

  it('a deployment with running instances is removed only with the cascade confirmed', async () => {
    const up = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-flow/manager/deploy-upload',
      headers: auth(admin),
      payload: uploadForm([['p.bpmn', CANDIDATE_BPMN.replaceAll('purchase', 'trip')]]),
    });
    const pdid = up.json().data.processDefinitionIds[0];
    const started = await call(applicant.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title: '出差申请',
    });
    expect(started.statusCode, started.body).toBe(200);
    const depId = up.json().data.deploymentId;
    const refused = await call(
      admin,
      'POST',
      `/api/dfem-flow/manager/delete-deployment?deploymentIds=${depId}`,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toContain('运行中的流程实例');
    expect(
      (
        await call(
          admin,
          'POST',
          `/api/dfem-flow/manager/delete-deployment?deploymentIds=${depId}&cascade=true`,
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('isolation and restarts', () => {
  it('another tenant cannot see or touch the task', async () => {
    const { processInstanceId } = await startLeave();
    const task = await todoOf(approver.token, processInstanceId);
    await makeTenant(s.database.db, '200002', '外村');
    const role = await makeRole(s.database.db, '200002', 'administrator', '管理员');
    await grantCodes(s.database.db, role, 'all');
    const stranger = await signedInUser(s, 'stranger', [role], '200002');
    expect((await list(stranger.token, 'todo-list')).records).toHaveLength(0);
    expect((await list(stranger.token, 'claim-list')).records).toHaveLength(0);
    expect((await complete(stranger.token, task.taskId, 'ok')).statusCode).toBe(400);
    expect(
      (await call(stranger.token, 'POST', `/api/dfem-flow/work/claim-task?taskId=${task.taskId}`)).statusCode,
    ).toBe(400);
    expect(
      (
        await call(
          stranger.token,
          'GET',
          `/api/dfem-flow/process/history-flow-list?processInstanceId=${processInstanceId}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(
          stranger.token,
          'GET',
          `/api/dfem-flow/process/model-view?processInstanceId=${processInstanceId}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(
          stranger.token,
          'POST',
          `/api/dfem-flow/follow/delete-process-instance?processInstanceId=${processInstanceId}&deleteReason=x`,
        )
      ).statusCode,
    ).toBe(404);
    // and the approver still completes it
    expect((await complete(approver.token, task.taskId, 'ok')).statusCode).toBe(200);
  });

  it('the server stops mid-process and a new server completes the instance', async () => {
    const { processInstanceId } = await startLeave();
    const task = await todoOf(approver.token, processInstanceId);
    // a second server on the same database, as after a restart (or another instance behind a balancer)
    const { createServer } = await import('../src/server');
    await s.app.close();
    const next = await createServer(s.config, { database: s.database, logger: false });
    await next.app.ready();
    try {
      const res = await next.app.inject({
        method: 'POST',
        url: '/api/dfem-flow/work/complete-task',
        headers: auth(approver.token),
        payload: { taskId: task.taskId, flag: 'ok', comment: '重启后审批' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const sent = await next.app.inject({
        method: 'GET',
        url: '/api/dfem-flow/work/send-list?size=50',
        headers: auth(applicant.token),
      });
      const row = sent
        .json()
        .data.records.find((r: { processInstanceId: string }) => r.processInstanceId === processInstanceId);
      expect(row.processIsFinished).toBe('finished');
    } finally {
      await next.close();
    }
  });
});
