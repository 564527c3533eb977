import { authFile, expect, test } from './fixtures';
import { rowActions } from './flow-helpers';
import { pick } from './form-helpers';

/**
 * Poverty relief in the browser: the overview draws the demo village's relief (the kinds add up to the
 * households counted); on the monitored households' screen the application past the township's fifteen
 * days is flagged, and starting its identification with a reviewer and a township officer takes the
 * button away and puts the village review in the reviewer's to-do list.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 60_000 });

test('the overview draws the relief figures', async ({ page }) => {
  await page.goto('/relief/overview/index');
  const figures = page.getByRole('list', { name: '防返贫概览' });
  const households = figures.getByRole('listitem').filter({ hasText: '监测户总数' });
  await expect(households).toBeVisible();
  const total = Number(
    (await households.locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''),
  );
  expect(total).toBeGreaterThan(0);
  const kinds = page.getByRole('img', { name: /^监测对象类别: / });
  await expect(kinds.locator('canvas')).toBeVisible();
  const label = (await kinds.getAttribute('aria-label'))!;
  const sum = [...label.matchAll(/ (\d+)(?:,|$)/g)].reduce((a, m) => a + Number(m[1]), 0);
  expect(sum).toBe(total);
  await expect(page.getByRole('img', { name: /^识别状态: .*监测中 [1-9]/ }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('img', { name: /^风险类型: .*因病 [1-9]/ }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('img', { name: /^各类措施金额\(元\): / }).locator('canvas')).toBeVisible();
});

test('an overdue application is flagged; starting its identification hands the review to the reviewer', async ({
  page,
}) => {
  await page.goto('/relief/monitor/index');
  const main = page.getByRole('main');
  await expect(main.getByRole('table', { name: '未落实帮扶措施的监测户' })).toBeVisible();
  const waiting = main.locator('tr').filter({ hasText: '待村级评议' }).first();
  await expect(waiting.getByText(/超期 [1-9]\d* 天/)).toBeVisible();
  await expect(main.getByRole('button', { name: '公示导出' })).toBeVisible();

  await waiting.getByRole('button', { name: '发起识别' }).click();
  const dialog = page.getByRole('dialog', { name: '发起监测对象识别' });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('请选择办理人')).toHaveCount(2);
  // the administrator reviews for the village, and decides for the township too
  await pick(page, dialog.getByRole('combobox', { name: '村级评议人' }), /\(admin\)$/, 'admin');
  await pick(page, dialog.getByRole('combobox', { name: '乡镇认定人' }), /\(admin\)$/, 'admin');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('已发起识别流程')).toBeVisible();
  await expect(dialog).toBeHidden();
  const householdNo = await waiting.getByRole('cell', { name: /^QS\d{4}$/ }).innerText();
  const row = () => page.getByRole('main').locator('tr').filter({ hasText: householdNo });
  await expect(row().getByRole('button', { name: '发起识别' })).toHaveCount(0);

  // 待办事务: the review, beside the household it is about; 同意 starts the public notice
  await page.goto('/work/todo/index');
  await rowActions(page, '防返贫监测对象识别 村级评议').getByRole('button', { name: '办理' }).click();
  await expect(page).toHaveURL(/\/work\/process\/relief\/handle\//);
  await expect(page.getByText(householdNo)).toBeVisible();
  await page.getByLabel('审批意见').fill('经村民代表会议评议,同意纳入');
  await page.getByRole('button', { name: /同\s*意/ }).click();
  await expect(page.getByText('办理成功')).toBeVisible();
  await page.goto('/relief/monitor/index');
  await expect(row().getByText('公示中', { exact: true })).toBeVisible();
});
