import { authFile, expect, test } from './fixtures';
import { ensureUser, rowActions, signInAs } from './flow-helpers';

/**
 * 密码重置 on 用户管理: the server generates the password and the administrator sees it once; the person
 * signs in with it and gets nothing but the password dialog until they choose their own.
 */
test.use({ storageState: authFile() });

test('a reset shows the generated password once; its owner must change it before seeing any menu', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const account = `reset_${Date.now().toString(36)}`;
  const user = await ensureUser(baseURL!, account, '重置对象');

  await page.goto('/system/user/index');
  const search = page.getByRole('form', { name: '用户管理 搜索' });
  await search.getByLabel('登录账号').fill(account);
  await search.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(page.getByRole('main').getByRole('row')).toHaveCount(2); // the header and this user
  await rowActions(page, account).getByRole('button', { name: /更多/ }).click();
  await page.getByRole('menuitem', { name: '密码重置' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '确定为所选账号生成新的初始密码' });
  await confirm.getByRole('button', { name: /确\s*定/ }).click();

  const shown = page.getByRole('dialog', { name: '初始密码' });
  await expect(shown).toContainText('关闭后将无法再次查看');
  await expect(shown).toContainText(account);
  const password = (await shown.getByLabel(`${account} 初始密码`).textContent())?.trim() ?? '';
  expect(password).toMatch(/^\S{12,}$/);
  expect(password).not.toBe('123456');
  await shown.getByRole('button', { name: '关 闭' }).click();
  await expect(shown).toBeHidden();

  // the person signs in with it: only the password dialog, no menu, until a new one is chosen
  const own = await signInAs(browser, baseURL!, { ...user, password });
  const forced = own.getByRole('dialog', { name: '修改默认密码' });
  await expect(forced).toBeVisible();
  await expect(own.getByRole('navigation', { name: '主菜单' })).toHaveCount(0);
  await forced.getByLabel('原密码').fill(password);
  await forced.getByLabel('新密码').fill('Chosen-By-Me-2026');
  await forced.getByLabel('确认密码').fill('Chosen-By-Me-2026');
  await forced.getByRole('button', { name: /修\s*改/ }).click();
  await expect(forced).toBeHidden();
  await expect(own.getByRole('navigation', { name: '主菜单' })).toBeVisible();
  await own.context().close();
});
