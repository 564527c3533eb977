// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { deployModel, ensureUser, rowActions, searchList, signInAs, type TestUser } from './flow-helpers';

/**
 * The countersign picker on the start form, by keyboard alone: a Flowable-style countersign over
 * `${assigneeList}`, one after another (isSequential), gets its three approvers picked in the labelled
 * select of 发起申请; each of the three signs in and approves in the order picked (the second has
 * nothing to do until the first is done), and the instance ends after the third.
 */
test.use({ storageState: authFile() });

/** start → 会签审批 (in turn, over `${assigneeList}`, each `${assignee}`) → end */
const sequentialXml = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:flowable="http://flowable.org/bpmn" id="defs" targetNamespace="http://www.flowable.org/processdef">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" name="开始" />
    <userTask id="sign" name="会签审批" flowable:assignee="\${assignee}">
      <multiInstanceLoopCharacteristics isSequential="true" flowable:collection="\${assigneeList}" flowable:elementVariable="assignee" />
    </userTask>
    <endEvent id="end" name="结束" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="sign" />
    <sequenceFlow id="f2" sourceRef="sign" targetRef="end" />
  </process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="${key}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="sign_di" bpmnElement="sign"><dc:Bounds x="190" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="350" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="140" /><di:waypoint x="190" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="290" y="140" /><di:waypoint x="350" y="140" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;

const label = (u: TestUser) => `${u.realName} (${u.account})`;

/** Picks `users`, in this order, in the combobox `select` with the keyboard: focus, type, Enter. */
async function pickByKeyboard(page: Page, select: Locator, users: TestUser[]) {
  await select.focus();
  for (const u of users) {
    await page.keyboard.type(u.account);
    // the one user of that account is the active option
    await expect(page.locator('.ant-select-dropdown:visible').getByText(label(u))).toBeVisible();
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/** The 待办事务 list of `page`, searched for process `name`. */
async function todoOf(page: Page, name: string) {
  await page.goto('/work/todo/index');
  await searchList(page, '待办事务', { 流程名称: name });
  return page.getByRole('region', { name: '待办事务' });
}

/** Approves the 会签审批 of process `name` on the handle page, as whoever `page` is signed in as. */
async function approve(page: Page, name: string, comment: string) {
  await todoOf(page, name);
  await rowActions(page, `${name} 会签审批`).getByRole('button', { name: '办理' }).click();
  await expect(page).toHaveURL(/\/work\/process\/expense\/handle\//);
  await page.getByLabel('审批意见').fill(comment);
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('办理成功')).toBeVisible();
}

test('a sequential countersign: three approvers picked by keyboard on the start form approve in turn, and it ends after the third', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_cs_pick_${suffix}`;
  const name = `依次会签${suffix}`;
  const users: TestUser[] = [];
  for (const [i, n] of ['甲', '乙', '丙'].entries())
    users.push(await ensureUser(baseURL!, `pk${i}_${suffix}`, `选人${n}`));
  const [jia, yi, bing] = users;
  await deployModel(baseURL!, key, name, sequentialXml(key, name));

  // ---- 发起申请: a required picker labelled with its step, saying how the countersign runs
  await page.goto('/work/start/index');
  await searchList(page, '可发起的流程', { 流程名称: name });
  await rowActions(page, name).getByRole('button', { name: '发起' }).click();
  const form = page.getByRole('form', { name: '发起申请' });
  const picker = form.getByRole('combobox', { name: '「会签审批」的审批人' });
  await expect(picker).toBeVisible();
  await expect(form.getByText('流程变量 assigneeList')).toBeVisible();
  await expect(form.getByText('依次:按所选的顺序,前一位办完后下一位才收到任务')).toBeVisible();
  // and a screen reader hears the hint with the field
  await expect(picker).toHaveAccessibleDescription(/依次:按所选的顺序/);
  await form.getByLabel('标题').fill('三人依次会签');
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(form.getByText('请选择「会签审批」的审批人')).toBeVisible();
  await expect(picker).toHaveAttribute('aria-invalid', 'true');

  // 丙 first, then 甲, then 乙
  await pickByKeyboard(page, picker, [bing, jia, yi]);
  for (const u of [bing, jia, yi]) await expect(form.getByText(label(u), { exact: true })).toBeVisible();
  await expect(form.getByText('请选择「会签审批」的审批人')).toBeHidden();
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('申请已提交')).toBeVisible();

  // ---- 甲 was picked second: nothing to do yet
  const jiaPage = await signInAs(browser, baseURL!, jia);
  await expect((await todoOf(jiaPage, name)).getByText(name)).toHaveCount(0);

  // ---- 丙, then 甲, then 乙: the instance runs until the third approval
  const bingPage = await signInAs(browser, baseURL!, bing);
  await approve(bingPage, name, '丙同意');
  await bingPage.context().close();
  await approve(jiaPage, name, '甲同意');
  await jiaPage.context().close();

  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: name });
  const sent = page.getByRole('region', { name: '已发事务' }).getByRole('row', { name: new RegExp(name) });
  await expect(sent).toContainText('进行中');

  const yiPage = await signInAs(browser, baseURL!, yi);
  await approve(yiPage, name, '乙同意');
  await yiPage.context().close();

  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: name });
  await expect(sent).toContainText('已完成');
});
