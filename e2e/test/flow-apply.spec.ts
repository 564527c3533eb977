// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import type { Locator } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { deployModel, ensureUser, rowActions, searchList, signInAs } from './flow-helpers';

/**
 * A process of a family without pages of its own (报销流程, remark `expense`) through the generic
 * application pages: 发起事务 opens 发起申请, which says what is missing; the approver handles it under
 * 待办事务 on 审批申请; the applicant reads it on 申请详情 with the diagram marked, then handles the
 * second step it was given.
 */
test.use({ storageState: authFile() });

/** departments approve (the approver the applicant picks), then the applicant confirms */
const processXml = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://bpmn.io/schema/bpmn">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" name="开始" />
    <userTask id="check" name="部门审批" camunda:assignee="\${taskUser}" />
    <userTask id="confirm" name="申请人确认" camunda:assignee="\${applyUser}" />
    <endEvent id="end" name="结束" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="check" />
    <sequenceFlow id="f2" sourceRef="check" targetRef="confirm" />
    <sequenceFlow id="f3" sourceRef="confirm" targetRef="end" />
  </process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="${key}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="check_di" bpmnElement="check"><dc:Bounds x="190" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="confirm_di" bpmnElement="confirm"><dc:Bounds x="350" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="510" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1"><di:waypoint x="136" y="140" /><di:waypoint x="190" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2"><di:waypoint x="290" y="140" /><di:waypoint x="350" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f3_di" bpmnElement="f3"><di:waypoint x="450" y="140" /><di:waypoint x="510" y="140" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;

/** The shape of the diagram element labelled `name`. */
function shape(scope: Locator, name: string) {
  return scope.locator('.djs-element.djs-shape').filter({ hasText: name }).first();
}

test('a process without a form of its own is started, approved and read on the generic pages', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const key = `e2e_expense_${suffix}`;
  const name = `报销申请${suffix}`;
  const account = `apply_b_${suffix}`;
  const approver = await ensureUser(baseURL!, account, '报销审批人');

  // set-up: the process, deployed for every tenant under 报销流程 (category 2)
  await deployModel(baseURL!, key, name, processXml(key, name));

  // 发起事务 → its row → the generic form, with its own tab title
  await page.goto('/work/start/index');
  await searchList(page, '可发起的流程', { 流程名称: name });
  const row = page.getByRole('region', { name: '可发起的流程' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('报销流程');
  await rowActions(page, name).getByRole('button', { name: '发起' }).click();
  await expect(page).toHaveURL(/\/work\/process\/expense\/form\/e2e_expense_/);
  await expect(page.getByRole('tab', { name: '发起申请' })).toBeVisible();
  const form = page.getByRole('form', { name: '发起申请' });
  await expect(page.getByText(`流程: ${name} v1`)).toBeVisible();

  // nothing filled in: the title is required, and so is the approver (a task waits for `${taskUser}`)
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(form.getByText('请输入标题')).toBeVisible();
  await expect(form.getByText('请选择审批人')).toBeVisible();

  await form.getByLabel('标题').fill('差旅报销');
  await form.getByLabel('内容').fill('北京出差 3 天\n共 1200 元');
  // the tenant's users are searched by name or account as they are typed (a long account is shown masked)
  await form.getByLabel('审批人').click();
  await form.getByLabel('审批人').fill(account);
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/^报销审批人 \(/)
    .click();
  await expect(form.getByText('请输入标题')).toBeHidden();
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('申请已提交')).toBeVisible();
  await expect(page).toHaveURL(/\/work\/send\/index$/);

  // the approver: 待办事务 → 办理 → 审批申请 → a comment → 同意
  const other = await signInAs(browser, baseURL!, approver);
  await other.goto('/work/todo/index');
  await rowActions(other, `${name} 部门审批`).getByRole('button', { name: '办理' }).click();
  await expect(other).toHaveURL(/\/work\/process\/expense\/handle\//);
  await expect(other.getByRole('tab', { name: '审批申请' })).toBeVisible();
  await expect(other.getByText('差旅报销')).toBeVisible();
  await expect(other.getByText('共 1200 元')).toBeVisible();
  await other.getByRole('button', { name: /同\s*意/ }).click();
  await expect(other.getByText('请输入审批意见')).toBeVisible();
  await other.getByLabel('审批意见').fill('票据齐全');
  await other.getByRole('button', { name: /同\s*意/ }).click();
  await expect(other.getByText('办理成功')).toBeVisible();
  await expect(other).toHaveURL(/\/work\/todo\/index$/);
  await other.context().close();

  // the applicant: 已发事务 → 详情 → 申请详情, the diagram marked where it stands
  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: name });
  const sent = page.getByRole('region', { name: '已发事务' }).getByRole('row', { name: new RegExp(name) });
  await expect(sent).toContainText('申请人确认');
  await rowActions(page, new RegExp(`^${name} .* 的操作$`))
    .getByRole('button', { name: '详情' })
    .click();
  await expect(page).toHaveURL(/\/work\/process\/expense\/detail\//);
  await expect(page.getByRole('tab', { name: '申请详情' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '申请详情' })).toBeVisible();
  await expect(page.getByText('差旅报销')).toBeVisible();
  await expect(page.getByText('报销审批人').first()).toBeVisible();
  await expect(page.getByText('票据齐全')).toBeVisible();
  const diagram = page.getByRole('img', { name: '流程图' });
  await expect(shape(diagram, '部门审批')).toHaveClass(/flow-finished/);
  await expect(shape(diagram, '申请人确认')).toHaveClass(/flow-active/);
  await expect(diagram.locator('.djs-connection.flow-sequence')).toHaveCount(2);

  // its second step is the applicant's: handled on the same generic page, it finishes
  await page.goto('/work/todo/index');
  await rowActions(page, `${name} 申请人确认`).getByRole('button', { name: '办理' }).click();
  await expect(page).toHaveURL(/\/work\/process\/expense\/handle\//);
  await page.getByLabel('审批意见').fill('已收到');
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('办理成功')).toBeVisible();
  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: name });
  await expect(sent).toContainText('已完成');
});
