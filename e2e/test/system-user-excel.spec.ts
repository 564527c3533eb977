import ExcelJS from 'exceljs';
import { authFile, expect, test } from './fixtures';
import { USER_IMPORT_HEADERS } from './shell-helpers';

/**
 * 用户管理's 导入 and 导出 are the engine's Excel buttons, as on every list: a file naming an account that
 * exists is refused as existing until 更新已存在的数据 is switched on, and then updates that account (its roles
 * and departments named as people read them) instead of adding a second one.
 */
test.use({ storageState: authFile() });

const account = `xls_${Date.now().toString(36)}`;

async function workbook(realName: string, dept: string) {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow(USER_IMPORT_HEADERS);
  sheet.addRow([account, realName, '', '', '', '女', '1991-02-03', '普通用户', dept]);
  return {
    name: 'users.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await wb.xlsx.writeBuffer()),
  };
}

test('an import adds an account; the same account again is refused until existing rows may be updated', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/system/user/index');
  const main = page.getByRole('main');
  const importButton = main.getByRole('button', { name: /导\s*入/ });
  await expect(main.getByRole('button', { name: /导\s*出/ })).toBeVisible();

  await importButton.click();
  let dialog = page.getByRole('dialog', { name: /导入 · 用户管理/ });
  await dialog.locator('input[type=file]').setInputFiles(await workbook('表格导入', '技术部'));
  await dialog.getByRole('button', { name: /开始导入/ }).click();
  await expect(page.getByText('导入完成:新增 1 条,更新 0 条')).toBeVisible();
  // new accounts have no password anyone knows: the screen says how they get one
  await expect(page.getByText(/新增的账号还没有密码/)).toBeVisible();
  await expect(dialog).toBeHidden();

  await importButton.click();
  dialog = page.getByRole('dialog', { name: /导入 · 用户管理/ });
  await dialog.locator('input[type=file]').setInputFiles(await workbook('表格改名', '财务部'));
  await dialog.getByRole('button', { name: /开始导入/ }).click();
  const errors = dialog.getByRole('table', { name: /处错误/ });
  await expect(errors.getByRole('row', { name: /2\s*登录账号\s*登录账号已存在/ })).toBeVisible();

  await dialog.getByRole('switch', { name: '更新已存在的数据(按登录账号识别)' }).click();
  await dialog.getByRole('button', { name: /开始导入/ }).click();
  await expect(page.getByText('导入完成:新增 0 条,更新 1 条')).toBeVisible();
  await expect(dialog).toBeHidden();

  const search = page.getByRole('form', { name: '用户管理 搜索' });
  await search.getByLabel('登录账号').fill(account);
  await search.getByRole('button', { name: /搜\s*索/ }).click();
  const row = main.getByRole('row', { name: new RegExp(account) });
  await expect(row).toContainText('表格改名');
  await expect(row).toContainText('财务部');
  await expect(main.getByRole('row')).toHaveCount(2); // the header and the one account
});
