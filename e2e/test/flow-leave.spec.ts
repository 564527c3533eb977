import { authFile, expect, test } from './fixtures';
import { ensureUser, pickDateTime, rowActions, searchList, signInAs } from './flow-helpers';

/**
 * The seeded leave process through the screens: 发起事务 opens the leave form through the flow routes
 * (category 1 → leave), the form says what is missing or wrong, the approver handles it under 待办事务,
 * and the applicant sees it finished under 已发事务 with its timeline.
 */
test.use({ storageState: authFile() });

test('a leave request is validated, started, approved and shown as finished', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const account = `leave_b_${Date.now().toString(36)}`;
  const approver = await ensureUser(baseURL!, account, '请假审批人');

  // 发起事务 → the seeded 请假流程 → its form
  await page.goto('/work/start/index');
  // by name: other tests deploy processes too, and the newest come first
  await searchList(page, '可发起的流程', { 流程名称: '请假流程' });
  await rowActions(page, '请假流程').getByRole('button', { name: '发起' }).click();
  await expect(page).toHaveURL(/\/work\/process\/leave\/form\/leave/);
  const form = page.getByRole('form', { name: '请假申请' });

  // nothing filled in: every field says so
  await form.getByRole('button', { name: /提\s*交/ }).click();
  for (const text of ['请选择审批人', '请选择开始时间', '请选择结束时间', '请输入请假理由'])
    await expect(form.getByText(text)).toBeVisible();

  // an end before the start is refused
  // the tenant's users are searched by name or account as they are typed (a long account is shown masked)
  await form.getByLabel('审批人').click();
  await form.getByLabel('审批人').fill(account);
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/^请假审批人 \(/)
    .click();
  await pickDateTime(page, '开始时间', '2026-12-03 09:00:00');
  await pickDateTime(page, '结束时间', '2026-12-02 18:00:00');
  await form.getByLabel('请假理由').fill('回老家办事');
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(form.getByText('结束时间不能早于开始时间')).toBeVisible();

  await pickDateTime(page, '结束时间', '2026-12-04 18:00:00');
  await expect(form.getByText('结束时间不能早于开始时间')).toBeHidden();
  await form.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('请假申请已提交')).toBeVisible();

  // 已发事务: running, waiting at 审批 (other tests start processes of the same category: search by name)
  await expect(page).toHaveURL(/\/work\/send\/index$/);
  await searchList(page, '已发事务', { 流程名称: '请假流程' });
  // the newest first: this test's request (a rerun against the same server leaves older ones below)
  const sent = page
    .getByRole('region', { name: '已发事务' })
    .getByRole('row', { name: /请假流程 请假流程/ })
    .first();
  await expect(sent).toContainText('审批');
  await expect(sent).toContainText('进行中');

  // the approver: 待办事务 → 办理 → a comment is required → 同意
  const other = await signInAs(browser, baseURL!, approver);
  await other.goto('/work/todo/index');
  await rowActions(other, '请假流程 审批').getByRole('button', { name: '办理' }).click();
  await expect(other).toHaveURL(/\/work\/process\/leave\/handle\//);
  await expect(other.getByText('回老家办事')).toBeVisible();
  await expect(other.getByText('2026-12-03 09:00:00')).toBeVisible();
  await other.getByRole('button', { name: /同\s*意/ }).click();
  await expect(other.getByText('请输入审批意见')).toBeVisible();
  await other.getByLabel('审批意见').fill('同意,注意安全');
  await other.getByRole('button', { name: /同\s*意/ }).click();
  await expect(other.getByText('办理成功')).toBeVisible();
  await expect(other).toHaveURL(/\/work\/todo\/index$/);

  // 办结事务 of the approver
  await other.goto('/work/done/index');
  const done = other
    .getByRole('region', { name: '办结事务' })
    .getByRole('row', { name: /请假流程 请假流程/ });
  await expect(done).toContainText('同意');
  await expect(done).toContainText('已完成');
  await other.context().close();

  // the applicant: finished, with the approver's words in the timeline
  await page.goto('/work/send/index');
  await searchList(page, '已发事务', { 流程名称: '请假流程' });
  await expect(sent).toContainText('已完成');
  await rowActions(page, /^请假流程 .* 的操作$/)
    .first()
    .getByRole('button', { name: '详情' })
    .click();
  await expect(page).toHaveURL(/\/work\/process\/leave\/detail\//);
  await expect(page.getByText('同意,注意安全')).toBeVisible();
  await expect(page.getByText('请假审批人').first()).toBeVisible();
});
