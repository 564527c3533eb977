// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import type { Browser, Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import {
  choose,
  deployModel,
  ensureUser,
  openNewModel,
  rowActions,
  searchList,
  signInAs,
  type TestUser,
} from './flow-helpers';

/**
 * A countersign run to its end through the screens: drawn in the designer with the properties panel
 * (会签, all must approve), deployed from 模型管理, started on 发起申请 with three approvers picked for
 * it, and approved by each of them on 审批申请 — the process runs until the third approval. And 或签 (any
 * one): its approvers picked on the handle page of the step before it, done at the first approval.
 */
test.use({ storageState: authFile() });

/** Three users of the tenant, made for this test. */
async function threeUsers(baseURL: string, prefix: string, suffix: string) {
  const names = ['甲', '乙', '丙'];
  const users: TestUser[] = [];
  for (const [i, n] of names.entries())
    users.push(
      await ensureUser(baseURL, `${prefix}${i}_${suffix}`, `${prefix === 'cs' ? '会签' : '或签'}${n}`),
    );
  return users;
}

/** Picks `users` in the multiple select labelled `label` of `form` (typing each account to find it). */
async function pickUsers(page: Page, form: Locator, label: string, users: TestUser[]) {
  const select = form.getByLabel(label, { exact: true });
  await select.click();
  for (const u of users) {
    await select.fill(u.account);
    await page.locator('.ant-select-dropdown:visible').getByText(`${u.realName} (${u.account})`).click();
  }
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  // chosen: a tag each in the select
  for (const u of users)
    await expect(form.getByText(`${u.realName} (${u.account})`, { exact: true })).toBeVisible();
}

/** `user` signs in, opens the task `step` of process `name` in 待办事务, and approves it with a comment. */
async function approveAs(browser: Browser, baseURL: string, user: TestUser, name: string, step: string) {
  const page = await signInAs(browser, baseURL, user);
  await page.goto('/work/todo/index');
  await rowActions(page, `${name} ${step}`).getByRole('button', { name: '办理' }).click();
  await expect(page).toHaveURL(/\/work\/process\/expense\/handle\//);
  await page.getByLabel('审批意见').fill(`${user.realName}同意`);
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('办理成功')).toBeVisible();
  return page;
}

/** The starter's 已发事务 row of process `name`. */
async function sentRow(page: Page, name: string) {
  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: name });
  return page.getByRole('region', { name: '已发事务' }).getByRole('row', { name: new RegExp(name) });
}

test('a countersign drawn in the designer is deployed, started with three approvers and done after all three approve', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_cs_all_${suffix}`;
  const name = `会签报销${suffix}`;
  const users = await threeUsers(baseURL!, 'cs', suffix);

  // ---- 模型管理 → 新增: start → 会签审批 (会签, all must approve) → end, under 报销流程
  const { dialog, canvas, start, panel, pad } = await openNewModel(page, key, name, '报销流程');
  await start.click();
  await pad.getByTitle('追加用户任务').click();
  await page.keyboard.type('会签审批');
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('heading', { name: '用户任务' })).toBeVisible();
  await choose(panel, '多人审批', '会签(全部同意)');
  await expect(panel.getByText('每位审批人各得一份任务')).toBeVisible();
  await pad.getByTitle('追加结束事件').click();
  await page.keyboard.press('Enter');
  await expect(canvas.locator('.djs-connection')).toHaveCount(2);
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  // ---- deployed from its row, for every tenant
  await rowActions(page, name)
    .getByRole('button', { name: /部\s*署/ })
    .click();
  const deploy = page.getByRole('dialog', { name: `部署模型「${name}」` });
  await expect(deploy.getByText('报销流程')).toBeVisible();
  await deploy.getByRole('button', { name: /部\s*署/ }).click();
  await expect(page.getByText('部署成功')).toBeVisible();

  // ---- 发起事务 → 发起申请: the form asks for the countersign's approvers
  await page.goto('/work/start/index');
  await searchList(page, '可发起的流程', { 流程名称: name });
  await rowActions(page, name).getByRole('button', { name: '发起' }).click();
  const form = page.getByRole('form', { name: '发起申请' });
  await expect(
    form.getByText('会签:每位审批人各得一份任务,全部同意后流转(流程变量 approvers)'),
  ).toBeVisible();
  await form.getByLabel('标题').fill('三人会签的报销');
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(form.getByText('请选择「会签审批」的审批人')).toBeVisible();
  await pickUsers(page, form, '「会签审批」的审批人', users);
  await expect(form.getByText('请选择「会签审批」的审批人')).toBeHidden();
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('申请已提交')).toBeVisible();
  await expect(page).toHaveURL(/\/work\/send\/index$/);

  // ---- each approver approves their own task; after two the process still waits for the third
  for (const user of users.slice(0, 2))
    await (await approveAs(browser, baseURL!, user, name, '会签审批')).context().close();
  let sent = await sentRow(page, name);
  await expect(sent).toContainText('进行中');
  await expect(sent).toContainText('会签审批');

  const last = await approveAs(browser, baseURL!, users[2], name, '会签审批');
  await last.context().close();
  sent = await sentRow(page, name);
  await expect(sent).toContainText('已完成');

  // and its detail says so
  await rowActions(page, new RegExp(`^${name} .* 的操作$`))
    .getByRole('button', { name: '详情' })
    .click();
  await expect(page.getByRole('heading', { name: '申请详情' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '流程状态' })).toContainText('已完成');
});

/** the applicant picks the approvers on the first step; any one of them approving ends the process */
const anyOneXml = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://bpmn.io/schema/bpmn">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" name="开始" />
    <userTask id="pick" name="选择审批人" camunda:assignee="\${applyUser}" />
    <userTask id="sign" name="或签审批" camunda:assignee="\${approver}">
      <multiInstanceLoopCharacteristics isSequential="false" camunda:collection="\${approvers}" camunda:elementVariable="approver">
        <completionCondition>\${nrOfCompletedInstances &gt;= 1}</completionCondition>
      </multiInstanceLoopCharacteristics>
    </userTask>
    <endEvent id="end" name="结束" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="pick" />
    <sequenceFlow id="f2" sourceRef="pick" targetRef="sign" />
    <sequenceFlow id="f3" sourceRef="sign" targetRef="end" />
  </process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="${key}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="pick_di" bpmnElement="pick"><dc:Bounds x="190" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="sign_di" bpmnElement="sign"><dc:Bounds x="350" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="510" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="140" /><di:waypoint x="190" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="290" y="140" /><di:waypoint x="350" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f3_di" bpmnElement="f3"><di:waypoint x="450" y="140" /><di:waypoint x="510" y="140" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;

test('或签: the step before picks the approvers on its handle page, and the first approval ends it', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_cs_any_${suffix}`;
  const name = `或签报销${suffix}`;
  const users = await threeUsers(baseURL!, 'os', suffix);
  await deployModel(baseURL!, key, name, anyOneXml(key, name));

  // the start form has nothing to pick: the countersign comes after the first step
  await page.goto('/work/start/index');
  await searchList(page, '可发起的流程', { 流程名称: name });
  await rowActions(page, name).getByRole('button', { name: '发起' }).click();
  const form = page.getByRole('form', { name: '发起申请' });
  await form.getByLabel('标题').fill('一人同意即可');
  await expect(form.getByText('审批人', { exact: true })).toBeVisible();
  await expect(form.getByLabel(/」的审批人$/)).toHaveCount(0);
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('申请已提交')).toBeVisible();

  // the applicant's own first step: its handle page asks for the 或签's approvers
  await page.goto('/work/todo/index');
  await rowActions(page, `${name} 选择审批人`).getByRole('button', { name: '办理' }).click();
  await expect(
    page.getByText('或签:每位审批人各得一份任务,一人同意即流转(流程变量 approvers)'),
  ).toBeVisible();
  await page.getByLabel('审批意见').fill('请三位之一审批');
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('请选择「或签审批」的审批人')).toBeVisible();
  await pickUsers(page, page.getByRole('form', { name: '审批' }), '「或签审批」的审批人', users);
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('办理成功')).toBeVisible();

  // the second of them approves first: done, and the others' tasks are gone
  const second = await approveAs(browser, baseURL!, users[1], name, '或签审批');
  await second.context().close();
  await expect(await sentRow(page, name)).toContainText('已完成');
  const other = await signInAs(browser, baseURL!, users[0]);
  await other.goto('/work/todo/index');
  await searchList(other, '待办事务', { 流程名称: name });
  await expect(other.getByRole('region', { name: '待办事务' }).getByText(name)).toHaveCount(0);
  await other.context().close();
});
