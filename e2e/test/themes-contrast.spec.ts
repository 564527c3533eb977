import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { THEME_NAMES } from './shell-helpers';

/**
 * Every text of the shell reaches WCAG AA (axe's color-contrast rule) in each of the eleven layout themes
 * and with the dark and the default preset colours: on the home page (the 首页 top-menu item and tab
 * selected) and on a list page (its sub-menu open in the sidebar, its item selected). One page, the theme
 * switched through the stored choice and a reload, as a returning user would see it.
 */
test.use({ storageState: authFile() });

async function choose(page: Page, theme: string, color: string) {
  await page.evaluate(
    ([t, c]) => {
      localStorage.setItem('saber-theme', JSON.stringify({ state: { theme: t }, version: 0 }));
      localStorage.setItem('saber-color', JSON.stringify({ state: { color: c }, version: 0 }));
    },
    [theme, color],
  );
}

async function contrastFailures(page: Page) {
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? n.failureSummary}`),
  );
}

async function check(page: Page, path: string, theme: string, color: string) {
  await choose(page, theme, color);
  await page.goto(path);
  await expect(page.locator('[data-theme]')).toHaveAttribute('data-theme', theme);
  const nav = page.getByRole('navigation', { name: '主菜单' });
  if (path === '/wel/index') {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // an open sub-menu above the pages: its title and its items are drawn in the theme's colours
    await nav.getByRole('menuitem', { name: /系统管理/ }).click();
    await expect(nav.getByRole('link', { name: '用户管理' })).toBeVisible();
  } else {
    await expect(page.getByRole('main').getByRole('table').first()).toBeVisible();
    await expect(nav.getByRole('link', { name: '用户管理' })).toBeVisible();
  }
  await page.waitForLoadState('networkidle');
  return (await contrastFailures(page)).map((f) => `${theme} ${color} ${path} ${f}`);
}

for (const path of ['/wel/index', '/system/user/index']) {
  test(`every text reaches AA contrast on ${path} in the eleven themes and with the preset colours`, async ({
    page,
  }) => {
    test.setTimeout(240_000); // axe walks the page 13 times
    await page.goto('/wel/index');
    const failures: string[] = [];
    for (const theme of THEME_NAMES) failures.push(...(await check(page, path, theme, '#409EFF')));
    // the darkest preset (white text on it, its shade as text on dark menus) and another light one
    failures.push(...(await check(page, path, 'theme-default', '#212121')));
    failures.push(...(await check(page, path, 'theme-white', '#212121')));
    failures.push(...(await check(page, path, 'theme-dark', '#212121')));
    failures.push(...(await check(page, path, 'theme-lte', '#13C2C2')));
    expect(failures).toEqual([]);
  });
}
