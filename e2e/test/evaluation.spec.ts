import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';

/**
 * Evaluation (评比) in the browser: two subjects of the demo project in progress scored on screen, the
 * weighted total previewed as the scores are typed (the contracts' evaluationTotal) and saved, the
 * ranking's places (two equal totals share place 1, marked 并列, the next is 3), and the overview's chart of the
 * latest project's totals. Serial: the overview shows what the scoring saved.
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 60_000 });

/** the demo rules of the 2026 project, with their maxima (seed/evaluation.ts) */
const FULL_MARKS: [rule: string, max: number][] = [
  ['庭院整洁', 10],
  ['垃圾分类', 10],
  ['婚事新办、丧事简办', 20],
  ['邻里和睦', 10],
  ['产业增收', 5],
];

const rowOf = (page: Page, subject: string) =>
  page.getByRole('main').getByRole('row').filter({ hasText: subject });

async function scoreFull(page: Page, subject: string, previewFirst?: string) {
  await rowOf(page, subject).getByRole('button', { name: '打分' }).click();
  const dialog = page.getByRole('dialog', { name: `为「${subject}」打分` });
  await expect(dialog.getByRole('spinbutton', { name: '庭院整洁' })).toBeVisible();
  for (const [i, [rule, max]] of FULL_MARKS.entries()) {
    const box = dialog.getByRole('spinbutton', { name: rule, exact: true });
    await box.fill(String(max));
    // the preview follows the first change at once, before anything is saved
    if (i === 0 && previewFirst) await expect(dialog.getByText(previewFirst, { exact: true })).toBeVisible();
  }
  await expect(dialog.getByText('100.00', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  // the newest message (the one of an earlier save may still be showing; the ranking below proves both)
  await expect(page.getByText('已保存,加权总分 100.00').last()).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('subjects are scored with a live preview, saved, and ranked: ties share a place, marked 并列, the next place skips', async ({
  page,
}) => {
  await page.goto('/evaluation/list/index');
  await expect(page.getByRole('combobox', { name: '评比项目' })).toBeVisible();
  await expect(page.getByText('2026年度“美丽庭院”评比').first()).toBeVisible();
  await expect(rowOf(page, '第一村民小组')).toBeVisible();

  // 第一村民小组 holds 9, 8, 18, 9, 4 (87.00); full marks on the first rule preview 90.00
  await scoreFull(page, '第一村民小组', '90.00');
  await scoreFull(page, '第二村民小组');

  // 100, 100, then 第六村民小组's 90.25 and 第四村民小组's 84: places 1, 1, 3, 4 (standard competition
  // ranking), the shared first place marked 并列
  await expect(rowOf(page, '第一村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '1');
  await expect(rowOf(page, '第二村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '1');
  await expect(rowOf(page, '第一村民小组').locator('[data-rank]')).toContainText('并列');
  await expect(rowOf(page, '第二村民小组').locator('[data-rank]')).toContainText('并列');
  await expect(rowOf(page, '第六村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '3');
  await expect(rowOf(page, '第四村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '4');
  await expect(rowOf(page, '第四村民小组').locator('[data-rank]')).not.toContainText('并列');
});

test('publishing freezes the scoring; a reopening asks for its reason and is recorded', async ({ page }) => {
  await page.goto('/evaluation/list/index');
  const main = page.getByRole('main');
  await expect(rowOf(page, '第一村民小组').getByRole('button', { name: '打分' })).toBeVisible();
  await main.getByRole('button', { name: '发布结果' }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await expect(main.getByText('项目已发布,打分与名单修改已冻结')).toBeVisible();
  await expect(rowOf(page, '第一村民小组').getByRole('button', { name: '打分' })).toHaveCount(0);
  await expect(main.getByRole('button', { name: '新增', exact: true })).toHaveCount(0);

  await main.getByRole('button', { name: '重新开放' }).click();
  const dialog = page.getByRole('dialog', { name: '重新开放评比项目' });
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog.getByText('请输入重新开放原因')).toBeVisible();
  await dialog.getByRole('textbox', { name: '重新开放原因' }).fill('第三组申请复核');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog).toBeHidden();
  await expect(main.getByText(/admin:第三组申请复核/)).toBeVisible();
  await expect(main.getByRole('button', { name: '新增', exact: true })).toBeVisible();
  await expect(rowOf(page, '第一村民小组').getByRole('button', { name: '打分' })).toBeVisible();
});

test('a project’s rules and weights are picked row by row; a sum other than 100 is refused', async ({
  page,
}) => {
  // a past spring: the overview's latest project stays this year's
  await page.goto('/evaluation/project/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 评比项目/ });
  await dialog.getByPlaceholder('请输入项目名称').fill(`春季评比${Date.now().toString(36).slice(-4)}`);
  for (const [placeholder, day] of [
    ['请选择开始日期', '2025-03-01'],
    ['请选择结束日期', '2025-05-31'],
  ]) {
    await dialog.getByPlaceholder(placeholder).click();
    await dialog.getByPlaceholder(placeholder).fill(day);
    await dialog.getByPlaceholder(placeholder).press('Enter');
  }
  await dialog.getByRole('button', { name: '添加规则' }).click();
  await dialog.getByRole('button', { name: '添加规则' }).click();
  const rules = dialog.getByRole('combobox', { name: '评比规则' });
  const weights = dialog.getByRole('spinbutton', { name: '权重' });
  for (const [i, name] of ['庭院整洁', '垃圾分类'].entries()) {
    await rules.nth(i).click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
  }
  await weights.nth(0).fill('60');
  await weights.nth(1).fill('30');
  await expect(dialog.getByText('权重合计 90(须为 100)')).toBeVisible();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog.getByText(/权重之和须恰好为 100\(现为 90\)/)).toBeVisible();
  await weights.nth(1).fill('40');
  await expect(dialog.getByText('权重合计 100(须为 100)')).toBeVisible();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();
});

test('the overview draws the latest project’s totals', async ({ page }) => {
  await page.goto('/evaluation/overview/index');
  const chart = page.getByRole('img', { name: /^各参评对象加权总分: / });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute('aria-label', /第一村民小组 100\.00/);
  await expect(chart).toHaveAttribute('aria-label', /第六村民小组 90\.25/);
  // echarts drew on its canvas
  await expect(chart.locator('canvas')).toHaveCount(1);
  const box = await chart.locator('canvas').boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(100);
});
