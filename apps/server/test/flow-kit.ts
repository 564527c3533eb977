import { expect } from 'vitest';
import { grantCodes, makeRole, signedInUser, WORK_CODES } from './fixtures';
import { auth, signIn, type TestServer } from './harness';

/**
 * What the workflow construct tests share: small processes written for a test (`bpmn`), deployed through
 * the upload, started by the generic application, run through the work lists.
 */

export type Person = { id: string; token: string };
export type TaskRow = {
  taskId: string;
  taskName: string;
  taskDefinitionKey: string;
  processInstanceId: string;
};

/** A definitions document around process elements (bpmn: default namespace prefix). */
export const bpmn = (id: string, body: string, head = '') => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:flowable="http://flowable.org/bpmn" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="defs_${id}" targetNamespace="http://example.com/test">
  ${head}
  <bpmn:process id="${id}" name="${id}" isExecutable="true">
    ${body}
  </bpmn:process>
</bpmn:definitions>`;

/** A sequence flow, with a condition when given. */
export const flow = (id: string, from: string, to: string, condition?: string) =>
  condition
    ? `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression></bpmn:sequenceFlow>`
    : `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`;
/** A user task for `assignee` (the start form's taskUser unless given). */
export const task = (id: string, name: string, assignee = '${taskUser}') =>
  `<bpmn:userTask id="${id}" name="${name}" flowable:assignee="${assignee}"/>`;
/** A timer event definition of `kind` (timeDuration, timeDate, timeCycle). */
export const timer = (kind: string, value: string) =>
  `<bpmn:timerEventDefinition><bpmn:${kind}>${value}</bpmn:${kind}></bpmn:timerEventDefinition>`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `probe` holds (or `ms` have passed): whether it held. */
export async function until(probe: () => Promise<boolean> | boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe()) return true;
    await sleep(50);
  }
  return false;
}

/** Uploads one BPMN file through 部署上传 as `token` (for every tenant), answering the response. */
export function uploadBpmn(
  server: TestServer,
  token: string,
  xml: string,
  opts: { category?: string; file?: string; lang?: 'zh' | 'en' } = {},
) {
  const form = new FormData();
  form.append('category', opts.category ?? '2');
  form.append('tenantIds', '');
  form.append('files', new Blob([xml]), opts.file ?? 'process.bpmn');
  return server.app.inject({
    method: 'POST',
    url: '/api/dfem-flow/manager/deploy-upload',
    headers: { ...auth(token), ...(opts.lang ? { 'accept-language': opts.lang } : {}) },
    payload: form,
  });
}

/** Deploys one BPMN file and answers its definition id. */
export async function deployBpmn(
  server: TestServer,
  token: string,
  xml: string,
  opts: { category?: string; file?: string } = {},
) {
  const res = await uploadBpmn(server, token, xml, opts);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.processDefinitionIds[0] as string;
}

export function kit(s: () => TestServer) {
  let admin = '';
  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    s().app.inject({ method, url, headers: { ...auth(token), 'accept-language': 'en' }, payload });

  async function setup(accounts: string[]) {
    admin = (await signIn(s())).access_token;
    const staff = await makeRole(s().database.db, '000000', `staff${accounts[0]}`, '职员');
    await grantCodes(s().database.db, staff, WORK_CODES);
    const people: Record<string, Person> = {};
    for (const a of accounts) people[a] = await signedInUser(s(), a, [staff]);
    return { people, staff, admin: () => admin };
  }

  const upload = (name: string, xml: string, token = admin) =>
    uploadBpmn(s(), token, xml, { file: `${name}.bpmn`, lang: 'en' });

  async function deploy(name: string, xml: string) {
    const res = await upload(name, xml);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.processDefinitionIds[0] as string;
  }

  async function start(p: Person, pdid: string, taskUser?: string, title = 'test') {
    const res = await call(p.token, 'POST', '/api/dfem-flow/process/apply/start-process', {
      processDefinitionId: pdid,
      title,
      ...(taskUser ? { taskUser } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.processInstanceId as string;
  }

  const rows = async (p: Person, list: string, piid?: string): Promise<TaskRow[]> =>
    (await call(p.token, 'GET', `/api/dfem-flow/work/${list}?current=1&size=100`))
      .json()
      .data.records.filter((r: TaskRow) => !piid || r.processInstanceId === piid);

  /** the names of `p`'s to-do tasks in the instance, sorted */
  const todoNames = async (p: Person, piid?: string) =>
    (await rows(p, 'todo-list', piid)).map((t) => t.taskName).sort();

  async function complete(
    p: Person,
    piid: string | undefined,
    name: string,
    variables: Record<string, unknown> = {},
  ) {
    const mine = (await rows(p, 'todo-list', piid)).filter((t) => t.taskName === name);
    expect(mine, `${name} in the to-do list`).toHaveLength(1);
    const res = await call(p.token, 'POST', '/api/dfem-flow/work/complete-task', {
      taskId: mine[0].taskId,
      flag: 'ok',
      comment: `${name} 完成`,
      variables,
    });
    expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    return mine[0];
  }

  /** 'finished' or 'unfinished', as the applicant's sent list says */
  const state = async (p: Person, piid: string) =>
    ((await rows(p, 'send-list', piid))[0] as unknown as { processIsFinished: string })?.processIsFinished;

  return { call, setup, upload, deploy, start, rows, todoNames, complete, state };
}
