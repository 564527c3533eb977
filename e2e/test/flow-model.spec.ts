// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import {
  choose,
  ensureUser,
  openNewModel,
  pickDateTime,
  rowActions,
  searchList,
  signInAs,
} from './flow-helpers';

/**
 * A process drawn in the browser, start to end: a user task dragged from the palette and connected to the
 * start event, a second one appended from the context pad, an end event; assignee and candidate group set
 * in the properties panel; saved, deployed, started by the administrator through the leave form, approved
 * by another user, claimed and approved by the administrator, and shown finished on the detail page.
 */
test.use({ storageState: authFile() });

/** The shape of the diagram element labelled `name`. */
function shape(scope: Locator | Page, name: string) {
  return scope.locator('.djs-element.djs-shape').filter({ hasText: name }).first();
}

/** The element labelled `name`, also when its label is drawn apart from it (events, gateways). */
async function element(scope: Locator, name: string) {
  const id = (await shape(scope, name).getAttribute('data-element-id'))!.replace(/_label$/, '');
  return scope.locator(`.djs-element[data-element-id="${id}"]`);
}

test('a two-step process is drawn, deployed, started, approved by two people and shown highlighted', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const account = `model_b_${suffix}`;
  const approver = await ensureUser(baseURL!, account, '部门经理乙');
  const key = `e2e_two_step_${suffix}`;
  const name = `两步审批${suffix}`;

  // ---- draw
  const { dialog, canvas, start, panel, pad } = await openNewModel(page, key, name);

  // a user task dragged from the palette, named while it is placed
  const startBox = (await start.boundingBox())!;
  await dialog.getByRole('button', { name: '创建用户任务' }).hover();
  await page.mouse.down();
  await page.mouse.move(startBox.x + 200, startBox.y + startBox.height / 2, { steps: 12 });
  await page.mouse.up();
  await page.keyboard.type('部门审批');
  await page.keyboard.press('Enter');
  const first = shape(canvas, '部门审批');
  await expect(first).toBeVisible();
  await expect(panel.getByRole('heading', { name: '用户任务' })).toBeVisible();
  await choose(panel, '办理人', '${taskUser} · 发起时选择的审批人');
  await expect(panel.getByText('${taskUser} · 发起时选择的审批人')).toBeVisible();

  // connected from the start event with the context pad's connect tool
  await start.click();
  await pad.getByTitle(/连接到其他元素|使用顺序流/).click();
  await first.click();
  await expect(canvas.locator('.djs-connection')).toHaveCount(1);

  // a second user task appended to the first, for whoever of the administrators claims it (the new
  // connection is selected and its context pad covers the task: click the empty canvas first; clicking a
  // selected element would deselect it)
  const area = (await canvas.boundingBox())!;
  await page.mouse.click(area.x + area.width - 60, area.y + area.height - 60);
  await first.click();
  await pad.getByTitle('追加用户任务').click();
  await page.keyboard.type('人事备案');
  await page.keyboard.press('Enter');
  await expect(shape(canvas, '人事备案')).toBeVisible();
  await choose(panel, '候选组', '超级管理员 (administrator)');
  await expect(panel.getByText('超级管理员 (administrator)')).toBeVisible();

  // and the end, from the context pad of the (still selected) second task
  await pad.getByTitle('追加结束事件').click();
  await page.keyboard.type('结束');
  await page.keyboard.press('Enter');
  await expect(canvas.locator('.djs-connection')).toHaveCount(3);

  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  // ---- deploy for every tenant, under 请假流程 (so it starts with the leave form)
  await rowActions(page, name)
    .getByRole('button', { name: /部\s*署/ })
    .click();
  const deploy = page.getByRole('dialog', { name: `部署模型「${name}」` });
  await expect(deploy.getByText('请假流程')).toBeVisible();
  await deploy.getByRole('button', { name: /部\s*署/ }).click();
  await expect(page.getByText('部署成功')).toBeVisible();

  await page.goto('/flow/manager/index');
  await searchList(page, '部署列表', { 流程标识: key });
  const deployed = page.getByRole('region', { name: '部署列表' }).getByRole('row', { name: new RegExp(key) });
  await expect(deployed).toContainText('v1');
  await expect(deployed).toContainText('激活');
  await expect(deployed).toContainText('通用');

  // ---- start it as the administrator, choosing the approver
  await page.goto('/work/start/index');
  await searchList(page, '可发起的流程', { 流程名称: name });
  await rowActions(page, name).getByRole('button', { name: '发起' }).click();
  const form = page.getByRole('form', { name: '请假申请' });
  // the tenant's users are searched on the server as they are typed (a long account is shown masked)
  await form.getByLabel('审批人').click();
  await form.getByLabel('审批人').fill(account);
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/^部门经理乙 \(/)
    .click();
  await pickDateTime(page, '开始时间', '2026-12-10 09:00:00');
  await pickDateTime(page, '结束时间', '2026-12-11 18:00:00');
  await form.getByLabel('请假理由').fill('两步审批测试');
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('请假申请已提交')).toBeVisible();

  // ---- the approver handles the first step
  const other = await signInAs(browser, baseURL!, approver);
  await other.goto('/work/todo/index');
  await rowActions(other, `${name} 部门审批`).getByRole('button', { name: '办理' }).click();
  await other.getByLabel('审批意见').fill('部门同意');
  await other.getByRole('button', { name: /同\s*意/ }).click();
  await expect(other.getByText('办理成功')).toBeVisible();
  await other.context().close();

  // ---- the second step waits to be claimed; its diagram shows where it stands
  await page.goto('/work/claim/index');
  const claimRow = rowActions(page, `${name} 人事备案`);
  await claimRow.getByRole('button', { name: '流程图' }).click();
  const viewer = page.getByRole('dialog', { name: name });
  await expect(shape(viewer, '部门审批')).toHaveClass(/flow-finished/);
  await expect(shape(viewer, '人事备案')).toHaveClass(/flow-active/);
  await viewer.getByRole('button', { name: /close|关闭/i }).click();

  await claimRow.getByRole('button', { name: '签收' }).click();
  await expect(page.getByText('签收成功')).toBeVisible();
  await page.goto('/work/todo/index');
  await rowActions(page, `${name} 人事备案`).getByRole('button', { name: '办理' }).click();
  await page.getByLabel('审批意见').fill('已备案');
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('办理成功')).toBeVisible();

  // ---- finished: the detail page draws it with every step done
  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: name });
  const sent = page.getByRole('region', { name: '已发事务' }).getByRole('row', { name: new RegExp(name) });
  await expect(sent).toContainText('已完成');
  await rowActions(page, new RegExp(`^${name} .* 的操作$`))
    .getByRole('button', { name: '详情' })
    .click();
  await expect(page).toHaveURL(/\/work\/process\/leave\/detail\//);
  const diagram = page.getByRole('img', { name: '流程图' });
  await expect(shape(diagram, '部门审批')).toBeVisible();
  for (const step of ['开始', '部门审批', '人事备案', '结束'])
    await expect(await element(diagram, step)).toHaveClass(/flow-finished/);
  await expect(diagram.locator('.djs-connection.flow-sequence')).toHaveCount(3);
  // finished steps are drawn in the success colour
  const stroke = await shape(diagram, '人事备案')
    .locator('.djs-visual > :first-child')
    .evaluate((el) => getComputedStyle(el).stroke);
  expect(stroke).toBe('rgb(82, 196, 26)');
  await expect(page.getByText('部门同意')).toBeVisible();
  await expect(page.getByText('已备案')).toBeVisible();
});
