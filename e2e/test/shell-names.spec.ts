import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { adminApi } from './flow-helpers';

/**
 * Issue 32's finishes of the shell, as a person sees them: one top menu group open at a time with the
 * logo in place while the menu scrolls; a notice on the home opens that notice; the home's figures fill
 * their rows; a package's menu tags name their menu; in English the seeded menus and roles go by their
 * English names and units by their English words.
 */
test.use({ storageState: authFile() });

async function english(page: Page) {
  await page.evaluate(() =>
    localStorage.setItem('saber-language', JSON.stringify({ state: { language: 'en' }, version: 0 })),
  );
}

test('one top group of the sidebar is open at a time, and the logo stays while the menu scrolls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await page.goto('/system/user/index');
  const nav = page.getByRole('navigation', { name: '主菜单' });
  const folder = (name: string) =>
    nav.locator('.ant-menu-submenu-title').filter({ hasText: new RegExp(`^${name}$`) });
  await expect(folder('系统管理')).toHaveAttribute('aria-expanded', 'true');
  await folder('村务管理').click();
  await expect(folder('村务管理')).toHaveAttribute('aria-expanded', 'true');
  await expect(folder('系统管理')).toHaveAttribute('aria-expanded', 'false');
  await folder('智慧农业').click();
  await expect(folder('村务管理')).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('menuitem', { name: '养殖管理' })).toBeVisible();
  // the sidebar is the screen's height; the menu scrolls inside it, under the logo
  const sider = page.locator('.shell-sider');
  expect((await sider.boundingBox())!.height).toBeLessThanOrEqual(800);
  const scroller = page.locator('.shell-sider-nav');
  await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  expect(await scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  const logo = page.locator('.shell-logo');
  await expect(logo).toBeInViewport();
  expect((await logo.boundingBox())!.y).toBe(0);
  // going to a page of another group opens that group and closes the open one
  await nav.getByRole('menuitem', { name: '养殖管理' }).click();
  await page.goto('/village/villager/index');
  await expect(folder('村务管理')).toHaveAttribute('aria-expanded', 'true');
  await expect(folder('智慧农业')).toHaveAttribute('aria-expanded', 'false');
});

test('a notice on the home opens that notice, over the notice list', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL!);
  const title = `首页通知 ${Date.now().toString(36)}`;
  await api.call('POST', '/dfem-desk/notice/submit', {
    title,
    category: 1,
    releaseTime: '2026-01-05 09:00:00',
    content: '<p>首页打开的这一条通知</p>',
  });
  await page.goto('/wel/index');
  const notices = page.getByRole('region', { name: '最新通知公告' });
  await notices.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/desk\/notice\/index$/);
  const dialog = page.getByRole('dialog', { name: /查看 · 通知公告/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(title);
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /关\s*闭/ })
    .click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('main').getByRole('table').first()).toBeVisible();
});

test('the home’s figures fill every row they take, whatever the width', async ({ page }) => {
  await page.goto('/wel/index');
  const grid = page.getByTestId('home-figures-grid');
  await expect(grid.getByRole('listitem').first()).toBeVisible();
  for (const width of [1440, 1280, 1100, 900]) {
    await page.setViewportSize({ width, height: 900 });
    // every row of cards reaches the grid's right edge (a short last row grows to fill it)
    const holes = await grid.evaluate((ul) => {
      const right = ul.getBoundingClientRect().right;
      const rows = new Map<number, number>();
      for (const li of ul.children) {
        const box = li.getBoundingClientRect();
        const top = Math.round(box.top);
        rows.set(top, Math.max(rows.get(top) ?? 0, box.right));
      }
      return [...rows.entries()]
        .filter(([, end]) => right - end > 2)
        .map(([top, end]) => `${top}: ${end}/${right}`);
    });
    expect(holes, `${width} px`).toEqual([]);
  }
});

test('a package’s menu tags say which menu each button belongs to', async ({ page }) => {
  await page.goto('/system/tenantpackage/index');
  await page
    .getByRole('main')
    .getByRole('button', { name: /新\s*增/ })
    .click();
  const dialog = page.getByRole('dialog');
  // once the tree has loaded (a person sees it), searched for, it opens down to the menu; its box checks
  // its buttons too
  await dialog.getByLabel('菜单权限').click();
  await expect(
    page.locator('.ant-select-tree-treenode').getByTitle('系统管理', { exact: true }),
  ).toBeVisible();
  await dialog.getByLabel('菜单权限').fill('用户管理');
  const node = page.locator('.ant-select-tree-treenode').filter({
    has: page.getByTitle('用户管理', { exact: true }),
  });
  await node.locator('.ant-select-tree-checkbox').click();
  const tags = dialog.locator('.ant-select-selection-item');
  await expect(tags.filter({ hasText: '用户管理·新增' })).toHaveCount(1);
  await expect(tags.filter({ hasText: /^新增$/ })).toHaveCount(0);
});

test('in English, seeded menus and roles go by their English names, and units by their English words', async ({
  page,
}) => {
  await page.goto('/wel/index');
  await english(page);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // the home's role
  await expect(page.getByTestId('home-workplace')).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Super administrator');
  await expect(page.getByRole('main')).not.toContainText('超级管理员');

  await page.goto('/system/menu/index');
  const menus = page.getByRole('main').getByRole('table').first();
  await expect(menus.getByText('System', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(menus.getByText('系统管理', { exact: true })).toHaveCount(0);

  await page.goto('/system/role/index');
  const roles = page.getByRole('main').getByRole('table').first();
  await expect(roles.getByText('Super administrator', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(roles.getByText('超级管理员', { exact: true })).toHaveCount(0);

  await page.goto('/agriculture/industry/index');
  const industries = page.getByRole('main').getByRole('table').first();
  await expect(industries.getByRole('cell', { name: 'routes', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(industries.getByRole('cell', { name: 'mu', exact: true }).first()).toBeVisible();
  for (const unit of ['亩', '头', '条线路'])
    await expect(industries.getByRole('cell', { name: unit, exact: true })).toHaveCount(0);
});
