import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';

/**
 * Evaluation (评比) in the browser: two subjects of the demo project in progress scored on screen, the
 * weighted total previewed as the scores are typed (the contracts' evaluationTotal) and saved, the
 * ranking's dense places (two equal totals share place 1, the next is 2), and the overview's chart of the
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
  await expect(page.getByText('已保存,加权总分 100.00')).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('subjects are scored with a live preview, saved, and ranked with dense places', async ({ page }) => {
  await page.goto('/evaluation/list/index');
  await expect(page.getByRole('combobox', { name: '评比项目' })).toBeVisible();
  await expect(page.getByText('2026年度“美丽庭院”评比').first()).toBeVisible();
  await expect(rowOf(page, '第一村民小组')).toBeVisible();

  // 第一村民小组 holds 9, 8, 18, 9, 4 (87.00); full marks on the first rule preview 90.00
  await scoreFull(page, '第一村民小组', '90.00');
  await scoreFull(page, '第二村民小组');

  // 100, 100, then 第六村民小组's 90.25 and 第四村民小组's 84: places 1, 1, 2, 3
  await expect(rowOf(page, '第一村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '1');
  await expect(rowOf(page, '第二村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '1');
  await expect(rowOf(page, '第六村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '2');
  await expect(rowOf(page, '第四村民小组').locator('[data-rank]')).toHaveAttribute('data-rank', '3');
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
