import { authFile, expect, submitLogin, test } from './fixtures';
import { pick } from './form-helpers';

/**
 * Spec §6: the administrator grants a role a subset of menus and buttons through 权限设置, creates a user with
 * that role through the users form, and the user sees exactly those menus and buttons.
 */
const suffix = Date.now().toString(36);
const ROLE = { name: `参数查看员${suffix}`, alias: `viewer_${suffix}` };
const USER = { account: `viewer${suffix}`, password: 'Viewer-2026!', realName: '查看员' };

test('a role with a subset of menus and buttons, and a user holding it who sees exactly those', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await browser.newContext({ storageState: authFile() });
  const page = await admin.newPage();

  // the role, through the role form
  await page.goto('/system/role/index');
  await page.getByRole('main').getByRole('button', { name: '新增', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: /新增 · 角色管理/ });
  await dialog.getByPlaceholder('请输入角色名称').fill(ROLE.name);
  await dialog.getByPlaceholder('请输入角色别名').fill(ROLE.alias);
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  // 权限设置: 参数管理 with its 新增 and 查看 buttons only
  const row = page.getByRole('row', { name: new RegExp(ROLE.name) });
  await row.getByRole('button', { name: '权限设置', exact: true }).click();
  dialog = page.getByRole('dialog', { name: new RegExp(`权限设置 · ${ROLE.name}`) });
  await expect(dialog.getByRole('tab', { name: '菜单权限' })).toBeVisible();
  await expect(dialog.getByRole('tab', { name: '数据权限' })).toBeVisible();
  await expect(dialog.getByRole('tab', { name: '接口权限' })).toBeVisible();
  const tree = dialog.getByRole('tree', { name: '菜单权限' });
  const param = tree.getByRole('treeitem', { name: '参数管理', exact: true });
  await param.getByRole('checkbox').click();
  await expect(param).toHaveAttribute('aria-checked', 'true');
  await param.locator('.ant-tree-switcher').click();
  // the seeded button names: 新增 修改 删除 查看
  for (const button of ['修改', '删除']) {
    const item = tree.getByRole('treeitem', { name: button, exact: true });
    await item.getByRole('checkbox').click();
    await expect(item).toHaveAttribute('aria-checked', 'false');
  }
  await expect(param).toHaveAttribute('aria-checked', 'mixed');
  await expect(tree.getByRole('treeitem', { name: '系统管理', exact: true })).toHaveAttribute(
    'aria-checked',
    'mixed',
  );
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  // the keys come back as they were saved
  await row.getByRole('button', { name: '权限设置', exact: true }).click();
  await expect(
    page.getByRole('tree', { name: '菜单权限' }).getByRole('treeitem', { name: '参数管理', exact: true }),
  ).toHaveAttribute('aria-checked', 'mixed');
  await page
    .getByRole('dialog', { name: /权限设置/ })
    .getByRole('button', { name: /取\s*消/ })
    .click();

  // the user, through the users form (the password is typed here and sent as md5)
  await page.goto('/system/user/index');
  await page.getByRole('main').getByRole('button', { name: '新增', exact: true }).click();
  dialog = page.getByRole('dialog', { name: /新增 · 用户管理/ });
  await dialog.getByPlaceholder('请输入登录账号').fill(USER.account);
  await dialog.getByPlaceholder('请输入密码').fill(USER.password);
  await dialog.getByPlaceholder('请输入用户姓名').fill(USER.realName);
  const submitted = page.waitForRequest((r) => r.url().endsWith('/api/dfem-user/submit'));
  await pick(page, dialog.getByRole('combobox', { name: '请选择所属角色' }), ROLE.name, ROLE.name);
  await pick(page, dialog.getByRole('combobox', { name: '请选择所属机构' }), '技术部', '技术部');
  await dialog.getByText('登录账号', { exact: true }).click(); // closes the dropdown
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  const body = (await submitted).postDataJSON() as Record<string, string>;
  expect(body.password).toMatch(/^[0-9a-f]{32}$/);
  expect(body.password).not.toBe(USER.password);
  await expect(page.getByText('新增成功')).toBeVisible();
  const userRow = page.getByRole('row', { name: new RegExp(USER.account) });
  await expect(userRow).toContainText(ROLE.name);
  await expect(userRow).toContainText('正常');
  await admin.close();

  // the user signs in and sees exactly 系统管理 ▸ 参数管理, with 新增 and 查看 only
  const own = await browser.newContext();
  const user = await own.newPage();
  await submitLogin(user, USER.account, USER.password);
  await expect(user).toHaveURL(/\/wel\/index$/);
  // the password the administrator typed is an initial one: nothing else is served until it is changed
  const forced = user.getByRole('dialog', { name: '修改默认密码' });
  await expect(forced).toBeVisible();
  await expect(user.getByRole('navigation', { name: '主菜单' })).toHaveCount(0);
  await forced.getByLabel('原密码').fill(USER.password);
  await forced.getByLabel('新密码').fill(`${USER.password}x`);
  await forced.getByLabel('确认密码').fill(`${USER.password}x`);
  await forced.getByRole('button', { name: /修\s*改/ }).click();
  await expect(forced).toBeHidden();
  const nav = user.getByRole('navigation', { name: '主菜单' });
  await expect(nav.getByRole('menuitem', { name: /系统管理/ })).toBeVisible();
  await expect(nav.getByRole('menuitem')).toHaveCount(1);
  await nav.getByRole('menuitem', { name: /系统管理/ }).click();
  await expect(nav.getByRole('link')).toHaveText(['参数管理']);
  await nav.getByRole('link', { name: '参数管理' }).click();
  await expect(user).toHaveURL(/\/system\/param\/index$/);
  const main = user.getByRole('main');
  await expect(main.getByRole('button', { name: '新增', exact: true })).toBeVisible();
  await expect(main.getByRole('row').nth(1).getByRole('button', { name: '查看', exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: '编辑', exact: true })).toHaveCount(0);
  await expect(main.getByRole('button', { name: '删除', exact: true })).toHaveCount(0);
  await expect(main.getByRole('button', { name: '批量删除', exact: true })).toHaveCount(0);

  // a screen outside the grant is not there
  await user.goto('/system/user/index');
  await expect(user).toHaveURL(/\/404$/);
  await own.close();
});
