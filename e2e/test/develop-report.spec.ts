import { readFileSync } from 'node:fs';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/**
 * 报表管理 in the browser (issue 36): a report over the demo villagers is defined with the designer (resource,
 * columns, rows per page, orientation), previewed — its pages as the server cut them, each under the same
 * header — and printed: window.print is intercepted and the DOM it would print is read (one sheet per page,
 * each with the report's name and the columns' labels, A4 landscape); then its PDF is downloaded and has
 * the same number of pages.
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 60_000 });

const tag = `${Date.now() % 1_000_000}`;
const name = `村民打印${tag}`;

interface Printed {
  style: string;
  pages: { title: string; header: string[]; rows: number; foot: string }[];
}

test('a report defined, previewed, printed as previewed and downloaded as a PDF', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    // what the browser would print, read at the moment of printing
    window.print = () => {
      const root = document.querySelector('.report-print');
      (window as unknown as { __printed: Printed }).__printed = {
        style: root?.querySelector('style')?.textContent ?? '',
        pages: [...(root?.querySelectorAll('.report-page') ?? [])].map((p) => ({
          title: p.querySelector('h2')?.textContent ?? '',
          header: [...p.querySelectorAll('thead th')].map((th) => th.textContent ?? ''),
          rows: p.querySelectorAll('tbody tr').length,
          foot: p.querySelector('.report-foot')?.textContent ?? '',
        })),
      };
    };
  });
  await page.goto('/tool/report/index');
  const main = page.getByRole('main');
  await expect(main.locator('tr').filter({ hasText: '村民花名册' })).toBeVisible();
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 报表管理/ });
  await dialog.getByPlaceholder('请输入报表名称').fill(name);
  await pick(page, dialog.getByRole('combobox', { name: /数据资源/ }), '村民信息', '村民信息');
  const columns = dialog.getByRole('combobox', { name: '显示的列' });
  await pick(page, columns, '姓名');
  await pick(page, columns, '性别');
  await columns.press('Escape');
  await dialog.getByPlaceholder('请输入每页行数').fill('50');
  await pick(page, dialog.getByRole('combobox', { name: /纸张方向/ }), 'A4 横向');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = main.locator('tr').filter({ hasText: name });
  await expect(row).toBeVisible();
  const previewed = page.waitForResponse((r) => r.url().includes('/report/rest/preview'));
  await row.getByRole('button', { name: `预览报表 ${name}` }).click();
  const report = (await (await previewed).json()).data as { pages: unknown[][]; count: number };
  const pages = report.pages.length;
  expect(pages).toBe(Math.max(1, Math.ceil(report.count / 50)));
  expect(pages).toBeGreaterThanOrEqual(2);
  const modal = page.getByRole('dialog', { name: `预览:${name}` });
  await expect(modal.locator('.report-page')).toHaveCount(pages);
  await expect(modal.locator('.report-page').first().locator('thead th')).toHaveText(['姓名', '性别']);

  await modal.getByRole('button', { name: /打\s*印/ }).click();
  const printed = (await page.evaluate(
    () => (window as unknown as { __printed?: Printed }).__printed,
  )) as Printed;
  expect(printed.pages).toHaveLength(pages);
  printed.pages.forEach((p, i) => {
    expect(p.title).toBe(name);
    expect(p.header).toEqual(['姓名', '性别']);
    expect(p.rows).toBe(i < pages - 1 ? 50 : report.pages[i].length);
    expect(p.foot).toBe(`第 ${i + 1} / ${pages} 页`);
  });
  expect(printed.style).toContain('size: A4 landscape');
  // what prints is only the sheets: everything else of the page is hidden in print
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.report-print')).toBeVisible();
  await expect(page.locator('.report-print .report-page')).toHaveCount(pages);
  await expect(modal).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.locator('.report-print')).toBeHidden();

  const download = page.waitForEvent('download');
  await modal.getByRole('button', { name: /导出 PDF/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${name}.pdf`);
  const pdf = readFileSync(await file.path()).toString('latin1');
  expect(pdf.startsWith('%PDF-')).toBe(true);
  expect(pdf.match(/\/Type\s*\/Page(?![a-zA-Z])/g)).toHaveLength(pages);
  expect(errors).toEqual([]);
});
