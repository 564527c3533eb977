import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { BASIC } from './shell-helpers';

/** The tabs bar and the two menu searches of spec §2, on the shared administrator session. */
test.use({ storageState: authFile() });

async function openFromSidebar(page: Page, group: string, name: string) {
  const nav = page.getByRole('navigation', { name: '主菜单' });
  const link = nav.getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await nav.getByRole('menuitem', { name: group }).click();
  await link.click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
/** The close icon of a tab (for the mouse; the keyboard closes a focused tab with Delete). */
const closeButton = (page: Page, name: string) => tab(page, name).locator('.shell-tag-close');

test('tabs: the home tab cannot be closed, the only tab neither; tabs survive a reload; labels follow the language', async ({
  page,
}) => {
  await page.goto('/wel/index');
  await expect(tab(page, '首页')).toBeVisible();
  await expect(closeButton(page, '首页')).toHaveCount(0);

  await openFromSidebar(page, '系统管理', '参数管理');
  await openFromSidebar(page, '系统管理', '岗位管理');
  await expect(closeButton(page, '参数管理')).toHaveCount(1);
  await expect(closeButton(page, '首页')).toHaveCount(0); // first page is off: home stays

  await page.reload();
  await expect(page.getByRole('tab')).toHaveText(['首页', '参数管理', '岗位管理']);
  await expect(tab(page, '岗位管理')).toHaveAttribute('aria-selected', 'true');

  // the labels (and the title) follow the language: menu names come from the server in English
  await page.getByRole('button', { name: /切换语言/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('tab')).toHaveText(['Home', 'Parameters', 'Posts']);
  await expect(page).toHaveTitle('Posts - Smart management system');
  await page.getByRole('button', { name: /Switch language/ }).click();
  await page.getByRole('menuitem', { name: '中文' }).click();
  await expect(page.getByRole('tab')).toHaveText(['首页', '参数管理', '岗位管理']);
  await expect(page).toHaveTitle('岗位管理 - 智慧管理系统');

  // closing the active tab goes to its neighbour; from the keyboard: arrows move, Delete closes
  await closeButton(page, '岗位管理').click();
  await expect(page).toHaveURL(/\/system\/param\/index$/);
  await tab(page, '参数管理').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(tab(page, '首页')).toBeFocused();
  await page.keyboard.press('Delete'); // the home tab stays
  await expect(page.getByRole('tab')).toHaveCount(2);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Delete');
  await expect(page).toHaveURL(/\/wel\/index$/);
  await expect(page.getByRole('tab')).toHaveCount(1);
});

test('right-click menu: close others, close all, clear cache; the dropdown also offers search', async ({
  page,
}) => {
  await page.goto('/wel/index');
  await openFromSidebar(page, '系统管理', '参数管理');
  await openFromSidebar(page, '系统管理', '岗位管理');
  await openFromSidebar(page, '系统管理', '用户管理');

  // close others, from the right-click menu of 参数管理: home stays (it cannot be closed)
  await tab(page, '参数管理').click({ button: 'right' });
  await page.getByRole('menuitem', { name: '关闭其他' }).click();
  await expect(page.getByRole('tab')).toHaveText(['首页', '参数管理']);
  await expect(page).toHaveURL(/\/system\/param\/index$/);

  // close all
  await openFromSidebar(page, '系统管理', '岗位管理');
  await tab(page, '岗位管理').click({ button: 'right' });
  await page.getByRole('menuitem', { name: '关闭全部' }).click();
  await expect(page.getByRole('tab')).toHaveText(['首页']);
  await expect(page).toHaveURL(/\/wel\/index$/);

  // clear cache: confirmation, then GET clear-cache, then 清除完毕
  await tab(page, '首页').click({ button: 'right' });
  await page.getByRole('menuitem', { name: '清除缓存' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '是否需要清除缓存?' });
  await expect(confirm).toBeVisible();
  const cleared = page.waitForResponse((r) => r.url().includes('/api/dfem-auth/oauth/clear-cache'));
  await confirm.getByRole('button', { name: /确\s*定/ }).click();
  expect((await cleared).status()).toBe(200);
  await expect(page.getByText('清除完毕')).toBeVisible();

  // the dropdown at the end of the bar: search, and the same actions
  await page.getByRole('button', { name: '标签操作' }).click();
  for (const item of ['搜索', '清除缓存', '关闭其他', '关闭全部']) {
    await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
  }
  await page.getByRole('menuitem', { name: '搜索' }).click();
  await expect(page.getByRole('dialog', { name: '菜单搜索' })).toBeVisible();
});

async function menuNames(page: Page, lang: 'zh' | 'en'): Promise<string[]> {
  const token = await page.evaluate(() => localStorage.getItem('saber-token'));
  const res = await page.request.get('/api/dfem-system/menu/routes', {
    headers: {
      'Blade-Auth': `bearer ${token}`,
      Authorization: BASIC,
      'Accept-Language': lang === 'en' ? 'en' : 'zh-CN',
    },
  });
  const names: string[] = [];
  const walk = (nodes: { name: string; children?: unknown[] }[]) => {
    for (const n of nodes) {
      if (n.children?.length) walk(n.children as typeof nodes);
      else names.push(n.name);
    }
  };
  walk((await res.json()).data);
  return names;
}

test('menu-search panel: prefix match, case-insensitive, in the current language; Esc closes it', async ({
  page,
}) => {
  await page.goto('/wel/index');
  const zhNames = await menuNames(page, 'zh');
  await page.getByRole('button', { name: '标签操作' }).click();
  await page.getByRole('menuitem', { name: '搜索' }).click();
  const panel = page.getByRole('dialog', { name: '菜单搜索' });
  const input = panel.getByRole('textbox', { name: '搜索菜单' });
  await expect(input).toBeFocused();
  const results = panel.getByRole('list', { name: '搜索结果' }).getByRole('button');

  for (const text of ['用户', '参数', '管理']) {
    await input.fill(text);
    const expected = zhNames.filter((n) => n.startsWith(text));
    await expect(results).toHaveCount(expected.length);
    if (expected.length) await expect(results.first()).toContainText(expected[0]);
    else await expect(panel.getByRole('status')).toHaveText('没有找到匹配的菜单');
  }
  expect(zhNames.filter((n) => n.includes('管理')).length).toBeGreaterThan(0); // a prefix match, not "contains"

  await input.fill('参数');
  await results.filter({ hasText: '参数管理' }).click();
  await expect(page).toHaveURL(/\/system\/param\/index$/);
  await expect(panel).toBeHidden();

  // Esc closes it
  await page.getByRole('button', { name: '标签操作' }).click();
  await page.getByRole('menuitem', { name: '搜索' }).click();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // English names, any case
  await page.getByRole('button', { name: /切换语言/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('tab', { name: 'Home' })).toBeVisible();
  const enNames = await menuNames(page, 'en');
  await page.getByRole('button', { name: 'Tab actions' }).click();
  await page.getByRole('menuitem', { name: 'Search' }).click();
  const enPanel = page.getByRole('dialog', { name: 'Menu search' });
  await enPanel.getByRole('textbox', { name: 'Search the menu' }).fill('PARAM');
  const expected = enNames.filter((n) => n.toLowerCase().startsWith('param'));
  expect(expected.length).toBeGreaterThan(0);
  await expect(enPanel.getByRole('list', { name: 'Search results' }).getByRole('button')).toHaveCount(
    expected.length,
  );
  await expect(enPanel.getByRole('list', { name: 'Search results' })).toContainText('Parameters');
});

test('top bar autocomplete: menu names by prefix; arrows and Enter open the page', async ({ page }) => {
  await page.goto('/wel/index');
  const zhNames = await menuNames(page, 'zh');
  const box = page.getByRole('banner').getByRole('combobox', { name: '搜索菜单' });
  await box.fill('用户');
  const listbox = page.getByRole('listbox', { name: '搜索结果' });
  const options = listbox.getByRole('option');
  await expect(options).toHaveCount(zhNames.filter((n) => n.startsWith('用户')).length);
  await expect(options.first()).toHaveText('用户管理');
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/system\/user\/index$/);
  await expect(box).toHaveValue('');

  await box.fill('参');
  await expect(options.first()).toHaveText('参数管理');
  await options.first().click();
  await expect(page).toHaveURL(/\/system\/param\/index$/);
  await box.fill('zz-no-such-menu');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
});
