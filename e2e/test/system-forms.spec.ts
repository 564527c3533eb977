import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/** Spec §2, §5, §8: the forms of the system screens say exactly the spec's words, in both languages. */
test.use({ storageState: authFile() });

async function useEnglish(page: Page) {
  await page.addInitScript(() =>
    localStorage.setItem('saber-language', JSON.stringify({ state: { language: 'en' }, version: 0 })),
  );
}

/** The validation message under a form field (not a placeholder that happens to say the same). */
const fieldError = (scope: Locator, text: string) =>
  scope.locator('.ant-form-item-explain-error').filter({ hasText: new RegExp(`^${text}$`) });

test('parameters: name, key and value are required on blur', async ({ page }) => {
  await page.goto('/system/param/index');
  await page.getByRole('main').getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 参数管理/ });
  // leaving each empty field says so, before anything is saved
  await dialog.getByPlaceholder('请输入参数名称').focus();
  await dialog.getByPlaceholder('请输入参数键名').focus();
  await expect(fieldError(dialog, '请输入参数名称')).toBeVisible();
  await expect(fieldError(dialog, '请输入参数键名')).toHaveCount(0);
  await dialog.getByPlaceholder('请输入参数键值').focus();
  await expect(fieldError(dialog, '请输入参数键名')).toBeVisible();
  await dialog.getByPlaceholder('请输入备注').focus();
  await expect(fieldError(dialog, '请输入参数键值')).toBeVisible();
  // typing clears the message
  await dialog.getByPlaceholder('请输入参数名称').fill('x');
  await expect(fieldError(dialog, '请输入参数名称')).toHaveCount(0);
});

test('tenant packages: 10 rows, no view, 600 wide, required name and menus in English and Chinese, saved with the spec’s toast', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await useEnglish(page);
  const listed = page.waitForRequest((r) => r.url().includes('/api/dfem-system/tenant-package/list'));
  await page.goto('/system/tenantpackage/index');
  expect(new URL((await listed).url()).searchParams.get('size')).toBe('10');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Add', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: /Add · Tenant packages/ });
  await expect(dialog).toBeVisible();
  await expect(page.locator('.ant-modal')).toHaveCSS('width', '600px');
  await save(dialog).click();
  await expect(fieldError(dialog, 'please enter package name')).toBeVisible();
  await expect(fieldError(dialog, 'please select menu')).toBeVisible();

  // a failed save leaves the form enabled and says why once, as a toast (no field of the form is named),
  // with nothing written to the console by the page (the browser's own line about the status aside)
  const logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 500/.test(m.text())) logged.push(m.text());
  });
  const name = `Package ${Date.now().toString(36)}`;
  await dialog.getByPlaceholder('Please enter the package name').fill(name);
  // in English the menu tree names menus in English
  await pick(
    page,
    dialog.getByRole('combobox', { name: 'Please select the menus' }),
    'Parameters',
    'Parameters',
  );
  await dialog.locator('.ant-modal-title').click(); // closes the dropdown
  await expect(fieldError(dialog, 'please select menu')).toHaveCount(0);
  await page.route('**/api/dfem-system/tenant-package/submit', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":500,"msg":"boom"}' }),
  );
  await save(dialog).click();
  await expect(page.locator('.ant-message-notice').getByText('boom')).toHaveCount(1);
  await expect(dialog.getByPlaceholder('Please enter the package name')).toBeEnabled();
  expect(logged).toEqual([]);
  await page.unroute('**/api/dfem-system/tenant-package/submit');

  const submitted = page.waitForRequest((r) => r.url().endsWith('/tenant-package/submit'));
  await save(dialog).click();
  const body = (await submitted).postDataJSON() as { menuId: string };
  // the menu, its buttons and its (half-checked) parent, comma-joined
  expect(body.menuId.split(',').length).toBeGreaterThan(2);
  await expect(page.getByText('operation successful!')).toBeVisible();
  const row = main.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'View', exact: true })).toHaveCount(0);

  // the Chinese twins
  await page.getByRole('button', { name: /Switch language/ }).click();
  await page.getByRole('menuitem', { name: '中文' }).click();
  await main.getByRole('button', { name: '新增', exact: true }).click();
  dialog = page.getByRole('dialog', { name: /新增 · 租户产品包/ });
  await save(dialog).click();
  await expect(fieldError(dialog, '请输入产品包名称')).toBeVisible();
  await expect(fieldError(dialog, '请选择菜单')).toBeVisible();
  await dialog.getByPlaceholder('请输入产品包名称').fill(`${name} 2`);
  await pick(page, dialog.getByRole('combobox', { name: '请选择菜单权限' }), '岗位管理', '岗位管理');
  await dialog.locator('.ant-modal-title').click();
  await save(dialog).click();
  await expect(page.getByText('操作成功!')).toBeVisible();
});

test('dictionaries: the required messages of spec §5, in Chinese and English; 880 wide', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/system/dict/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: /新增 · 字典管理/ });
  await expect(page.locator('.ant-modal')).toHaveCSS('width', '880px');
  // 封存 defaults to 否
  await expect(dialog.locator('.ant-select-content', { hasText: '否' })).toBeVisible();
  await save(dialog).click();
  for (const text of ['请输入字典编号', '请输入字典名称', '请输入字典排序'])
    await expect(fieldError(dialog, text)).toBeVisible();
  await expect(fieldError(dialog, '请选择封存')).toHaveCount(0);
  await dialog.getByRole('combobox', { name: '请选择封存' }).hover();
  await dialog.locator('.ant-select-clear').click();
  await expect(fieldError(dialog, '请选择封存')).toBeVisible();
  await dialog.getByRole('button', { name: /取\s*消/ }).click();

  // the entries of a dictionary: the key is required too; the parent is optional
  await main.getByRole('row', { name: /sex/ }).getByRole('button', { name: '字典配置', exact: true }).click();
  const entries = page.getByRole('dialog', { name: /字典配置 · 性别/ });
  await expect(entries.getByRole('row', { name: /男/ })).toBeVisible();
  await entries.getByRole('button', { name: '新增', exact: true }).click();
  dialog = page.getByRole('dialog', { name: /新增 · 字典配置/ });
  await expect(dialog.getByPlaceholder('请输入字典编号')).toHaveValue('sex');
  await expect(dialog.getByPlaceholder('请输入字典编号')).toBeDisabled();
  await save(dialog).click();
  for (const text of ['请输入字典键值', '请输入字典名称', '请输入字典排序'])
    await expect(fieldError(dialog, text)).toBeVisible();
  await expect(fieldError(dialog, '请选择上级字典')).toHaveCount(0);
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(dialog).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(entries).toBeHidden();

  // English
  await page.getByRole('button', { name: /切换语言/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await main.getByRole('button', { name: 'Add', exact: true }).click();
  dialog = page.getByRole('dialog', { name: /Add · Dictionaries/ });
  await dialog.getByRole('combobox', { name: 'Please select whether sealed' }).hover();
  await dialog.locator('.ant-select-clear').click();
  await save(dialog).click();
  for (const text of [
    'please enter dictionary number',
    'please enter dictionary name',
    'please enter dictionary sort',
    'please select sealed',
  ])
    await expect(fieldError(dialog, text)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await main.getByRole('row', { name: /sex/ }).getByRole('button', { name: 'Entries', exact: true }).click();
  await page
    .getByRole('dialog', { name: /Entries ·/ })
    .getByRole('button', { name: 'Add', exact: true })
    .click();
  dialog = page.getByRole('dialog', { name: /Add · Dictionary entries/ });
  await save(dialog).click();
  await expect(fieldError(dialog, 'please enter dictionary key')).toBeVisible();
});

test('personal info: phone messages, avatar refused by type and size before upload, password mismatch', async ({
  page,
}) => {
  await page.goto('/info/index');
  const form = page.getByRole('form', { name: '个人信息' });
  const phone = form.getByLabel('手机号码');
  await expect(phone).not.toHaveValue('');
  await phone.fill('');
  await expect(fieldError(form, '手机号码不能为空')).toBeVisible();
  await phone.fill('1380000');
  await expect(fieldError(form, '手机号码长度不为11位')).toBeVisible();
  await phone.fill('12345678901');
  await expect(fieldError(form, '手机号码格式不正确')).toBeVisible();
  await phone.fill('13900000000');
  await expect(fieldError(form, '手机号码格式不正确')).toHaveCount(0);

  // the avatar: jpg or png only, at most 500 KB, refused before anything is sent
  let uploads = 0;
  page.on('request', (r) => {
    if (r.url().includes('/file/avatar')) uploads += 1;
  });
  const input = form.locator('input[type=file]');
  await input.setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(form.getByRole('alert').filter({ hasText: '头像只能是 JPG 或 PNG 图片' })).toBeVisible();
  await input.setInputFiles({
    name: 'big.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(500 * 1024 + 1, 1),
  });
  await expect(form.getByRole('alert').filter({ hasText: '头像图片大小不能超过 500KB' })).toBeVisible();
  expect(uploads).toBe(0);
  // a real png goes up and shows
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(form.locator('img[src*="/api/dfem-resource/file/avatar/"]')).toBeVisible();
  await expect(form.getByRole('alert')).toHaveCount(0);

  // password tab
  await page.getByRole('main').getByRole('tab', { name: '修改密码' }).click();
  const pw = page.getByRole('form', { name: '修改密码' });
  await pw.getByLabel('原密码').fill('whatever');
  await pw.getByLabel('新密码').fill('New-Pass-1');
  await pw.getByLabel('确认密码').fill('New-Pass-2');
  await pw.getByRole('button', { name: '修改密码' }).click();
  await expect(fieldError(pw, '两次密码输入不一致')).toBeVisible();

  // English phone messages
  await page.getByRole('button', { name: /切换语言/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.getByRole('main').getByRole('tab', { name: 'Personal info' }).click();
  const en = page.getByRole('form', { name: 'Personal info' });
  const enPhone = en.getByLabel('Phone');
  await enPhone.fill('');
  await expect(fieldError(en, 'phone number cannot be empty')).toBeVisible();
  await enPhone.fill('139');
  await expect(fieldError(en, 'phone number length is not 11')).toBeVisible();
  await enPhone.fill('23900000000');
  await expect(fieldError(en, 'phone number format is incorrect')).toBeVisible();
});
