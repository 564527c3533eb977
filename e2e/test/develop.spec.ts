import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/**
 * 研发工具 in the browser (issue 36, first slice): the product's own database is a data source whose
 * 测试连接 answers its version; a model of one of its tables is added through the form, and 读取字段 lists
 * the table's columns as added before anything is written, then applies them: the model's form then holds a
 * prototype per column.
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 60_000 });

test('test the own database, model one of its tables and read its columns into the model', async ({
  page,
}) => {
  await page.goto('/tool/datasource/index');
  const main = page.getByRole('main');
  const own = main.locator('tr').filter({ hasText: '本系统数据库' });
  await own.getByRole('button', { name: '测试连接 本系统数据库' }).click();
  await expect(page.getByText(/连接成功.*PostgreSQL/)).toBeVisible();

  await page.goto('/tool/model/index');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 模型管理/ });
  await pick(page, dialog.getByRole('combobox', { name: '数据源' }), '本系统数据库', '本系统');
  await dialog.getByRole('textbox', { name: '模型名称' }).fill('岗位');
  await dialog.getByRole('textbox', { name: '模型编号' }).fill('post');
  await dialog.getByRole('textbox', { name: '物理表名' }).fill('blade_post');
  await dialog.getByRole('textbox', { name: '类名' }).fill('Post');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = main.locator('tr').filter({ hasText: '岗位' });
  await row.getByRole('button', { name: '读取字段 岗位' }).click();
  const sync = page.getByRole('dialog', { name: '读取字段:岗位' });
  const diff = sync.getByTestId('model-sync-diff');
  await expect(diff).toContainText('post_name');
  await sync.getByRole('button', { name: '应用到模型' }).click();
  await expect(sync.getByText('已应用到模型')).toBeVisible();
  await sync.getByRole('button', { name: '关 闭' }).click();

  await row.getByRole('button', { name: /编辑/ }).first().click();
  const edit = page.getByRole('dialog', { name: /编辑 · 模型管理/ });
  await expect(edit.locator('input[value="postName"]')).toHaveCount(1);
});
