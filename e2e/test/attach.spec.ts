import { readFileSync } from 'node:fs';
import { authFile, expect, test } from './fixtures';

/**
 * 附件管理 in the browser (issue 35): a PDF uploaded with the toolbar's 上传 is listed with its size, opens
 * in a new tab as a PDF, and downloads under its own name with the same bytes; an image previews as its
 * thumbnail in a dialog; the same file uploaded again is said to be stored already.
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 60_000 });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const tag = `${Date.now() % 1_000_000}`;
const PDF = Buffer.from(`%PDF-1.4\n% e2e ${tag}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
const pdfName = `年度报告-${tag}.pdf`;

async function uploadOnPage(
  page: import('@playwright/test').Page,
  name: string,
  buffer: Buffer,
  mimeType: string,
) {
  const answer = page.waitForResponse((r) => r.url().includes('/api/dfem-resource/attach/upload'));
  await page.getByRole('main').locator('input[type=file]').setInputFiles({ name, mimeType, buffer });
  const res = await answer;
  expect(res.status()).toBe(200);
  return (await res.json()).data as { id: string; link: string; reused: boolean };
}

test('a PDF is uploaded, listed with its size, previewed in a new tab and downloaded byte for byte', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/resource/attach/index');
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: /上\s*传/ })).toBeVisible();

  const saved = await uploadOnPage(page, pdfName, PDF, 'application/pdf');
  expect(saved.reused).toBe(false);
  await expect(page.getByText(`已上传:${pdfName}`)).toBeVisible();
  const row = main.locator('tr').filter({ hasText: pdfName });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('attach-size')).toHaveText(`${PDF.length} B`);
  await expect(row).toContainText('PDF');

  // 预览: a new tab showing the PDF (read with the user's token, handed to the tab as the file itself)
  const popup = page.waitForEvent('popup');
  await row.getByRole('button', { name: `预览 ${pdfName}` }).click();
  const tab = await popup;
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  // what the tab shows is the PDF itself (the console's policy lets no script fetch a blob: ask the tab)
  await expect.poll(() => tab.evaluate(() => document.contentType)).toBe('application/pdf');
  await tab.close();

  // 下载: the original name and the very bytes
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: `下载 ${pdfName}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(pdfName);
  const path = await file.path();
  expect(Buffer.compare(readFileSync(path), PDF)).toBe(0);

  // the same file again: a row of its own, stored once
  const again = await uploadOnPage(page, `副本-${pdfName}`, PDF, 'application/pdf');
  expect(again.reused).toBe(true);
  expect(again.link).toBe(saved.link);
  await expect(page.getByText(`相同文件已存在,未重复存储:副本-${pdfName}`)).toBeVisible();
  await expect(main.locator('tr').filter({ hasText: `副本-${pdfName}` })).toBeVisible();
  expect(errors).toEqual([]);
});

test('an image previews as its thumbnail in a dialog', async ({ page }) => {
  await page.goto('/resource/attach/index');
  const name = `照片-${tag}.png`;
  await uploadOnPage(page, name, PNG, 'image/png');
  const row = page.getByRole('main').locator('tr').filter({ hasText: name });
  await expect(row.getByTestId('attach-size')).toHaveText(`${PNG.length} B`);
  await row.getByRole('button', { name: `预览 ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `预览:${name}` });
  const img = dialog.getByTestId('attach-thumb');
  await expect(img).toBeVisible();
  await expect(img).toHaveAttribute('src', /\/api\/dfem-resource\/attach\/thumb\/[0-9a-f-]{36}\.png$/);
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
});
