import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/**
 * 代码生成 in the browser (issue 36): a setting of the seeded demo model (参数, blade_param) is added with the
 * form, 预览代码 shows every generated file (the definition, its migration, the server's and web's entries,
 * its test) each in full, and 下载代码 downloads a zip whose entries are exactly those files, byte for byte.
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 60_000 });

const tag = `${Date.now() % 1_000_000}`;
const name = `参数生成${tag}`;

test('a model made into code: previewed file by file, downloaded as the same files', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/tool/code/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 代码生成/ });
  await dialog.getByPlaceholder('请输入模块名').fill(name);
  await dialog.getByPlaceholder('请输入英文模块名').fill('Parameters');
  await dialog.getByPlaceholder('请输入服务名').fill('dfem-farm');
  await dialog.getByPlaceholder('请输入路由前缀').fill('farm');
  await pick(page, dialog.getByRole('combobox', { name: '请选择模型', exact: true }), '参数');
  await pick(page, dialog.getByRole('combobox', { name: '请选择模板', exact: true }), '单表');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = main.locator('tr').filter({ hasText: name });
  await expect(row).toBeVisible();
  const previewed = page.waitForResponse((r) => r.url().includes('/code/preview'));
  await row.getByRole('button', { name: `预览代码 ${name}` }).click();
  const files = (await (await previewed).json()).data.files as { path: string; content: string }[];
  const modal = page.getByRole('dialog', { name: `预览代码:${name}` });
  await expect(modal).toBeVisible();
  expect(files.map((f) => f.path)).toEqual([
    'packages/contracts/src/resource/param.ts',
    'apps/server/drizzle/codegen/param.sql',
    'apps/server/src/modules/param/area.ts',
    'apps/web/src/features/param/pages.ts',
    'apps/server/test/param.generated.test.ts',
  ]);
  // each file in full, tab by tab
  for (const f of files) {
    await modal.getByRole('tab', { name: f.path.split('/').pop() }).click();
    const pre = modal.locator(`pre[data-path="${f.path}"]`);
    await expect(pre).toBeVisible();
    expect(await pre.textContent()).toBe(f.content);
  }
  await expect(modal.locator('pre[data-path$="param.ts"]').first()).toContainText(
    'export const paramResource = resource(',
  );
  await modal.getByRole('button', { name: /关\s+闭/ }).click();
  await expect(modal).toBeHidden();

  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: `下载代码 ${name}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('dfem-farm.zip');
  const entries = unzipSync(new Uint8Array(readFileSync(await file.path())));
  expect(Object.keys(entries)).toEqual(files.map((f) => f.path));
  for (const f of files) expect(strFromU8(entries[f.path])).toBe(f.content);
  expect(errors).toEqual([]);
});
