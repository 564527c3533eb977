/**
 * What the workflow tests share: a second user (made through the API, since the user screen is not what
 * they test) and signing that user in through the login page in a browser context of its own.
 */
import { createHash } from 'node:crypto';
import type { Browser, Locator, Page } from '@playwright/test';
import { ADMIN, expect, submitLogin } from './fixtures';

const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export interface TestUser {
  id: string;
  account: string;
  realName: string;
  password: string;
}

async function token(baseURL: string, username: string, password: string) {
  const q = new URLSearchParams({
    tenantId: '000000',
    username,
    password: md5(password),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${baseURL}/api/dfem-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { Authorization: BASIC, 'Tenant-Id': '000000' },
  });
  const body = (await res.json()) as { access_token?: string; dept_id?: string; role_id?: string };
  if (!body.access_token) throw new Error(`cannot sign in as ${username}: ${JSON.stringify(body)}`);
  return body as { access_token: string; dept_id: string; role_id: string };
}

/** The administrator's calls, for test set-up only (what a test checks goes through the screens). */
export async function adminApi(baseURL: string) {
  const admin = await token(baseURL, ADMIN.username, ADMIN.password);
  const headers = {
    Authorization: BASIC,
    'Blade-Auth': `bearer ${admin.access_token}`,
    'Content-Type': 'application/json',
  };
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseURL}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    if (json.code !== 200) throw new Error(`${method} ${path}: ${json.msg}`);
    return json.data;
  };
  return { deptId: admin.dept_id, roleId: admin.role_id, call };
}

/** A model saved and deployed for every tenant under 报销流程 (category 2): a test's set-up, through the API. */
export async function deployModel(baseURL: string, key: string, name: string, xml: string) {
  const api = await adminApi(baseURL);
  const model = await api.call<{ id: string }>('POST', '/dfem-flow/model/submit', {
    modelKey: key,
    name,
    category: '2',
    xml,
  });
  await api.call('POST', '/dfem-flow/model/deploy', { modelId: model.id, category: '2', tenantIds: [] });
}

/** A user of tenant 000000 with the administrator's role and dept (so it sees 我的事务), made once. */
export async function ensureUser(baseURL: string, account: string, realName: string): Promise<TestUser> {
  const initial = 'Flow-Initial-2026!';
  const password = 'Flow-E2e-2026!';
  const api = await adminApi(baseURL);
  const find = async () =>
    (
      await api.call<{ records: { id: string; account: string }[] }>(
        'GET',
        `/dfem-user/page?current=1&size=200&account=${account}`,
      )
    ).records.find((u) => u.account === account);
  let user = await find();
  if (!user) {
    await api.call('POST', '/dfem-user/submit', {
      account,
      password: md5(initial),
      realName,
      name: realName,
      roleId: api.roleId,
      deptId: api.deptId,
    });
    user = await find();
    // a password the administrator typed is an initial one: the server serves nothing else until the
    // user changes it, as the person would at the first sign-in
    const first = await token(baseURL, account, initial);
    const q = new URLSearchParams({
      oldPassword: md5(initial),
      newPassword: md5(password),
      newPassword1: md5(password),
    });
    const res = await fetch(`${baseURL}/api/dfem-user/update-password?${q}`, {
      method: 'POST',
      headers: { Authorization: BASIC, 'Blade-Auth': `bearer ${first.access_token}` },
    });
    if (res.status !== 200) throw new Error(`cannot change the password of ${account}: ${await res.text()}`);
  }
  if (!user) throw new Error(`${account} was not created`);
  return { id: user.id, account, realName, password };
}

/** A page signed in as `user`, in a browser context of its own. */
export async function signInAs(browser: Browser, baseURL: string, user: TestUser): Promise<Page> {
  // signed out: a test's storageState would otherwise carry over into the new context
  const context = await browser.newContext({
    baseURL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    storageState: { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  await submitLogin(page, user.account, user.password);
  await expect(page).toHaveURL(/\/wel\/index$/);
  return page;
}

/** The group of action buttons of the table row named `name`. */
export function rowActions(page: Page, name: string | RegExp) {
  return page.getByRole('group', { name: typeof name === 'string' ? `${name} 的操作` : name });
}

/** Picks `option` in the antd select labelled `label` inside `scope`, then closes its list. */
export async function choose(scope: Page | Locator, label: string, option: string | RegExp) {
  const page = 'keyboard' in scope ? scope : scope.page();
  const select = scope.getByLabel(label, { exact: true });
  await select.click();
  await page.locator('.ant-select-dropdown:visible').getByText(option).first().click();
  // a multiple select keeps its list open: click beside it, in the corner of the scope, as a person would
  // (a key could toggle the option, Escape could close the dialog)
  const open = page.locator('.ant-select-dropdown:visible');
  if ((await open.count()) && 'boundingBox' in scope) {
    const box = (await scope.boundingBox())!;
    await page.mouse.click(box.x + 4, box.y + 4);
  }
  await expect(open).toHaveCount(0);
}

/** Types a date-time into the antd date picker labelled `label` and confirms it with the picker's OK button. */
export async function pickDateTime(page: Page, label: string, value: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(value);
  await page
    .locator('.ant-picker-dropdown:visible')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await expect(input).toHaveValue(value);
}

/**
 * Fills the search form of the list titled `title` and searches (only the visible page's form: pages kept
 * alive in other tabs have forms with the same labels).
 */
export async function searchList(page: Page, title: string, fields: Record<string, string>) {
  const form = page.getByRole('search', { name: `搜索${title}` });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: /搜\s*索/ }).click();
}

/** 部署管理 → the deployed definition of process `key` (named `name`) → its 流程图 dialog, drawn. */
export async function openDeployedDiagram(page: Page, key: string, name: string) {
  await page.goto('/flow/manager/index');
  await searchList(page, '部署列表', { 流程标识: key });
  await rowActions(page, new RegExp(`^${name} v\\d+ 的操作$`))
    .getByRole('button', { name: '流程图' })
    .click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`^${name} v\\d+$`) });
  const canvas = dialog.getByRole('img', { name: '流程图' });
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  return { dialog, canvas };
}

/** 模型管理 → 新增: the designer with its key, name and category filled; its canvas, panel and context pad. */
export async function openNewModel(page: Page, key: string, name: string, category = '请假流程') {
  await page.goto('/flow/model/index');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增模型' });
  await dialog.getByLabel('模型标识').fill(key);
  await dialog.getByLabel('模型名称').fill(name);
  await choose(dialog, '流程类型', category);
  const canvas = dialog.getByRole('region', { name: '流程图画布' });
  const start = canvas.locator('[data-element-id="StartEvent_1"]');
  await expect(start).toBeVisible();
  return {
    dialog,
    canvas,
    start,
    panel: dialog.getByRole('complementary', { name: '属性面板' }),
    pad: page.locator('.djs-context-pad'),
  };
}

const diShape = (id: string, x: number, y: number, w = 100, h = 80, extra = '') =>
  `<bpmndi:BPMNShape id="${id}_di" bpmnElement="${id}"${extra}><dc:Bounds x="${x}" y="${y}" width="${w}" height="${h}"/></bpmndi:BPMNShape>`;
const diEdge = (id: string, x1: number, x2: number, y: number) =>
  `<bpmndi:BPMNEdge id="${id}_di" bpmnElement="${id}"><di:waypoint x="${x1}" y="${y}"/><di:waypoint x="${x2}" y="${y}"/></bpmndi:BPMNEdge>`;

/**
 * A file of three processes as the BPMN MIWG's B.2.0 draws them: `key` (named `name`, executable, one
 * approval) on the first diagram, and on the second (调用方) a call activity marked isExpanded with the
 * shapes of the process it calls (被调用的审核) inside it.
 */
export function expandedCallXml(key: string, name: string, suffix: string): string {
  const shape = diShape;
  const edge = diEdge;
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="defs" targetNamespace="http://example.com">
  <bpmn:process id="${key}" name="${name}" isExecutable="true">
    <bpmn:startEvent id="start"/>
    <bpmn:sequenceFlow id="toApprove" sourceRef="start" targetRef="approve"/>
    <bpmn:userTask id="approve" name="审批" camunda:assignee="\${applyUser}"/>
    <bpmn:sequenceFlow id="toEnd" sourceRef="approve" targetRef="end"/>
    <bpmn:endEvent id="end"/>
  </bpmn:process>
  <bpmn:process id="caller_${suffix}" name="调用方" isExecutable="false">
    <bpmn:startEvent id="callerStart"/>
    <bpmn:sequenceFlow id="toCall" sourceRef="callerStart" targetRef="call"/>
    <bpmn:callActivity id="call" name="调用审核" calledElement="called_${suffix}"/>
    <bpmn:sequenceFlow id="fromCall" sourceRef="call" targetRef="callerEnd"/>
    <bpmn:endEvent id="callerEnd"/>
  </bpmn:process>
  <bpmn:process id="called_${suffix}" name="被调用的审核" isExecutable="false">
    <bpmn:startEvent id="calledStart"/>
    <bpmn:sequenceFlow id="toCheck" sourceRef="calledStart" targetRef="check"/>
    <bpmn:task id="check" name="审核材料"/>
    <bpmn:sequenceFlow id="toCalledEnd" sourceRef="check" targetRef="calledEnd"/>
    <bpmn:endEvent id="calledEnd"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="mainDiagram" name="主流程">
    <bpmndi:BPMNPlane id="mainPlane" bpmnElement="${key}">
      ${shape('start', 100, 102, 36, 36)}${edge('toApprove', 136, 200, 120)}${shape('approve', 200, 80)}
      ${edge('toEnd', 300, 360, 120)}${shape('end', 360, 102, 36, 36)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
  <bpmndi:BPMNDiagram id="callerDiagram" name="调用方">
    <bpmndi:BPMNPlane id="callerPlane" bpmnElement="caller_${suffix}">
      ${shape('callerStart', 100, 172, 36, 36)}${edge('toCall', 136, 200, 190)}
      ${shape('call', 200, 80, 360, 220, ' isExpanded="true"')}
      ${shape('calledStart', 230, 172, 36, 36)}${edge('toCheck', 266, 320, 190)}${shape('check', 320, 150)}
      ${edge('toCalledEnd', 420, 480, 190)}${shape('calledEnd', 480, 172, 36, 36)}
      ${edge('fromCall', 560, 620, 190)}${shape('callerEnd', 620, 172, 36, 36)}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;
}
