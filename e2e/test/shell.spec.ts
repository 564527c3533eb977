import { ADMIN, authFile, expect, signIn, test } from './fixtures';

test.describe('signed in (shared session)', () => {
  test.use({ storageState: authFile() });

  test('home greets the user and links its figures to their screens; the sidebar opens a server menu page', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/wel\/index$/);
    await expect(page).toHaveTitle('首页 - 智慧管理系统');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(ADMIN.realName);
    const main = page.getByRole('main');
    await expect(main).toContainText('超级管理员');
    await expect(main).toContainText('000000');

    // A figure of the workplace links to its screen (leaf paths get /index appended).
    const figure = main.getByRole('link', { name: /^人口总数 \d+$/ });
    await expect(figure).toHaveAttribute('href', /^\/village\/[\w-]+\/index$/);

    // Sidebar: open the sub-menu, pick the page; a tab appears, the title follows.
    const nav = page.getByRole('navigation', { name: '主菜单' });
    await nav.getByRole('menuitem', { name: /系统管理/ }).click();
    await nav.getByRole('link', { name: '参数管理' }).click();
    await expect(page).toHaveURL(/\/system\/param\/index$/);
    await expect(page.getByRole('tab', { name: '参数管理' })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveTitle('参数管理 - 智慧管理系统');
    // The registry maps it to the generic list page, which loads the server's rows.
    await expect(main.getByRole('table')).toBeVisible();
    await expect(main.getByRole('heading', { name: /404/ })).toHaveCount(0);

    // Clicking a tab switches route; closing the active tab goes to its neighbour.
    await page.getByRole('tab', { name: '首页' }).click();
    await expect(page).toHaveURL(/\/wel\/index$/);
    await page.getByRole('tab', { name: '参数管理' }).click();
    await expect(page).toHaveURL(/\/system\/param\/index$/);
    await expect(page.getByRole('tab', { name: '参数管理' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: '参数管理' }).locator('.shell-tag-close').click();
    await expect(page).toHaveURL(/\/wel\/index$/);
    await expect(page.getByRole('tab')).toHaveCount(1);
  });

  test('an unknown path shows the 404 page; its button goes home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { name: /404/ })).toBeVisible();
    await page.getByRole('button', { name: /返回首页/ }).click();
    await expect(page).toHaveURL(/\/wel\/index$/);
  });

  test('/login while signed in goes home', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/wel\/index$/);
  });

  test('the language switch to English survives a reload', async ({ page }) => {
    await page.goto('/wel/index');
    await page.getByRole('button', { name: /切换语言/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('tab', { name: 'Home' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle('Home - Smart management system');

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Home' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle('Home - Smart management system');

    await page.getByRole('button', { name: /Switch language/ }).click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await expect(page.getByRole('tab', { name: '首页' })).toBeVisible();
  });

  test('the sidebar collapses and expands', async ({ page }) => {
    await page.goto('/wel/index');
    await page.getByRole('button', { name: '收起菜单' }).click();
    await expect(page.getByRole('button', { name: '展开菜单' })).toHaveAttribute('aria-expanded', 'false');
    await page.getByRole('button', { name: '展开菜单' }).click();
    await expect(page.getByRole('button', { name: '收起菜单' })).toBeVisible();
  });
});

test.describe('logout (own session)', () => {
  test('asks for confirmation, returns to /login, and the old token no longer works', async ({
    page,
    request,
  }) => {
    await signIn(page);
    const token = await page.evaluate(() => localStorage.getItem('saber-token'));
    expect(token).toBeTruthy();
    const userInfo = (t: string) =>
      request.get('/api/dfem-auth/oauth/user-info', {
        headers: { 'Blade-Auth': `bearer ${t}`, Authorization: `Basic ${btoa('saber:saber_secret')}` },
      });
    expect((await userInfo(token!)).status()).toBe(200);

    const userMenu = page.getByRole('button', { name: /用户菜单/ });
    // Cancel keeps the session.
    await userMenu.click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '退出系统, 是否继续?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    await expect(confirm).toBeHidden();
    await expect(page).toHaveURL(/\/wel\/index$/);

    await userMenu.click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page).toHaveTitle(/登录/);
    expect(await page.evaluate(() => localStorage.getItem('saber-token'))).toBeNull();

    // The server revoked it.
    expect((await userInfo(token!)).status()).toBe(401);

    // And the guarded pages are closed again.
    await page.goto('/wel/index');
    await expect(page).toHaveURL(/\/login$/);
  });
});
