import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { authFile, expect, test } from './fixtures';
import { USER_IMPORT_HEADERS } from './shell-helpers';

/**
 * Small finishes of the shell and the list pages, as a person sees them: English menu names and the title
 * wrap instead of being cut, the Excel buttons stand apart, an import's summary counts bad rows, unlocking
 * returns to the page locked from, the log dialog fills the screen, the folded menu's pop-ups stay on
 * screen, a phone's menu lies over the page, a long list keeps its header in view, and numbers are
 * right-aligned.
 */
test.use({ storageState: authFile() });

/** Names in the sidebar whose text does not fit its box (an ellipsis or a clipped end). */
function cutLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.shell-sider .ant-menu-title-content, .shell-logo span')]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth)
      .map((el) => el.textContent ?? ''),
  );
}

test('in English the title and every menu name in the open sidebar are whole (wrapped, not cut)', async ({
  page,
}) => {
  await page.goto('/wel/index');
  await page.getByRole('button', { name: /切换语言/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const sider = page.locator('.shell-sider');
  await expect(sider.getByText('Smart management system', { exact: true })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  // open the folders with the longest names, one after another (one top folder is open at a time)
  const heights: number[] = [];
  for (const name of [
    'System',
    'Village affairs',
    'Poverty relief',
    'Assistance and care',
    'Smart agriculture',
    'PV stations',
  ]) {
    const folder = nav.locator('.ant-menu-submenu-title').filter({ hasText: new RegExp(`^${name}$`) });
    if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
    await expect(folder).toHaveAttribute('aria-expanded', 'true');
    if (name === 'System')
      await expect(nav.getByRole('menuitem', { name: 'Business dictionaries' })).toBeVisible();
    expect(await cutLabels(page), name).toEqual([]);
    // a long name takes two lines rather than one cut line
    heights.push(
      ...(await sider
        .locator('.ant-menu-inline .ant-menu-item')
        .evaluateAll((items) =>
          items.filter((i) => (i as HTMLElement).offsetParent).map((i) => i.getBoundingClientRect().height),
        )),
    );
  }
  expect(Math.max(...heights)).toBeGreaterThan(45);
});

test('导入 and 导出 stand apart in the list toolbar', async ({ page }) => {
  await page.goto('/system/user/index');
  const main = page.getByRole('main');
  const importBox = (await main.getByRole('button', { name: /导\s*入/ }).boundingBox())!;
  const exportBox = (await main.getByRole('button', { name: /导\s*出/ }).boundingBox())!;
  expect(Math.abs(importBox.y - exportBox.y)).toBeLessThan(2);
  expect(exportBox.x - (importBox.x + importBox.width)).toBeGreaterThanOrEqual(8);
});

test('an import refused for two bad rows with several errors each says two rows', async ({ page }) => {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  sheet.addRow(USER_IMPORT_HEADERS);
  sheet.addRow(['finish_bad1', '两处错', '', '139111', 'not-an-email', '男', '', '普通用户', '技术部']);
  sheet.addRow(['finish_bad2', '三处错', '', '12', 'nope', '', '', '不存在的角色', '技术部']);
  await page.goto('/system/user/index');
  await page
    .getByRole('main')
    .getByRole('button', { name: /导\s*入/ })
    .click();
  const dialog = page.getByRole('dialog', { name: /导入 · 用户管理/ });
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'bad.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await wb.xlsx.writeBuffer()),
  });
  await dialog.getByRole('button', { name: /开始导入/ }).click();
  const errors = dialog.getByRole('table', { name: /处错误/ });
  await expect(errors).toBeVisible();
  const count = await errors.locator('tbody tr.ant-table-row').count();
  expect(count).toBeGreaterThanOrEqual(5);
  await expect(dialog.getByRole('alert')).toHaveText(`共 2 行数据有误(${count} 处错误),未导入任何数据`);
});

test('unlocking returns to the page the screen was locked from', async ({ page }) => {
  await page.goto('/system/param/index');
  await page.getByRole('button', { name: '锁屏', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '设置锁屏密码' });
  await dialog.getByLabel('锁屏密码').fill('finish-lock');
  await dialog.getByLabel('锁屏密码').press('Enter');
  await expect(page).toHaveURL(/\/lock$/);
  await page.reload(); // the page is remembered with the lock, in this tab's session
  await page.getByLabel('锁屏密码').fill('finish-lock');
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(page).toHaveURL(/\/system\/param\/index$/);
  await expect(page.locator('.shell-tags').getByRole('tab', { name: '参数管理' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});

test('the log dialog fills the whole window', async ({ page }) => {
  await page.goto('/wel/index');
  await page.getByRole('button', { name: /^日志（\d+ 条）$/ }).click();
  const dialog = page.getByRole('dialog', { name: '日志' });
  await expect(dialog).toBeVisible();
  const { width, height } = page.viewportSize()!;
  const box = (await dialog.locator('.ant-modal-container').boundingBox())!;
  expect(box.x).toBeLessThanOrEqual(1);
  expect(box.y).toBeLessThanOrEqual(1);
  expect(box.width).toBeGreaterThanOrEqual(width - 20); // a scroll bar at most
  expect(box.height).toBeGreaterThanOrEqual(height - 1);
});

test('the folded menu’s pop-ups stay within the window, even for a long list low in the sidebar', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 560 });
  await page.goto('/wel/index');
  await page.getByRole('button', { name: '收起菜单' }).click();
  const folders = page.locator('.shell-sider .ant-menu-root > li.ant-menu-submenu > .ant-menu-submenu-title');
  await expect(folders.first()).toBeVisible();
  const total = await folders.count();
  // every folder: a long list (系统管理's, as tall as antd lets a pop-up be) aligned to its item would run off
  // the bottom, and flipped above it, off the top
  for (let i = 0; i < total; i++) {
    const folder = folders.nth(i);
    await folder.scrollIntoViewIfNeeded();
    await folder.hover();
    const popup = page.locator(`[id="${await folder.getAttribute('aria-controls')}"]`);
    await expect(popup).toBeVisible();
    await expect
      .poll(
        async () => {
          const box = (await popup.boundingBox())!;
          return box.y >= 0 && box.y + box.height <= 560 + 0.5;
        },
        { message: `pop-up ${i} within the window` },
      )
      .toBe(true);
    await page.mouse.move(900, 300);
    await expect(popup).toBeHidden();
  }
});

test('in English the folded menu’s pop-ups show every name whole (wrapped, not cut)', async ({ page }) => {
  await page.goto('/wel/index');
  await page.getByRole('button', { name: /切换语言/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  const folders = page.locator('.shell-sider .ant-menu-root > li.ant-menu-submenu > .ant-menu-submenu-title');
  await expect(folders.first()).toBeVisible();
  for (let i = 0; i < (await folders.count()); i++) {
    const folder = folders.nth(i);
    await folder.scrollIntoViewIfNeeded();
    await folder.hover();
    const popup = page.locator(`[id="${await folder.getAttribute('aria-controls')}"]`);
    await expect(popup.locator('.ant-menu-title-content').first()).toBeVisible();
    const cut = await popup
      .locator('.ant-menu-title-content')
      .evaluateAll((els) =>
        (els as HTMLElement[])
          .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth)
          .map((el) => el.textContent),
      );
    expect(cut, `folder ${i}`).toEqual([]);
    await page.mouse.move(900, 300);
    await expect(popup).toBeHidden();
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the menu lies over the page behind a backdrop; the backdrop or a picked page closes it', async ({
    page,
  }) => {
    await page.goto('/wel/index');
    const main = page.getByRole('main');
    const sider = page.locator('.shell-sider');
    const open = page.getByRole('button', { name: '展开菜单' });
    await expect(open).toBeVisible();
    const before = (await main.boundingBox())!;
    expect(before.x).toBeLessThan(1);

    await open.click();
    await expect(sider).toHaveCSS('width', '220px');
    const backdrop = page.locator('.shell-backdrop');
    await expect(backdrop).toBeVisible();
    // the page keeps its place and width: the menu is over it, not beside it
    expect(await main.boundingBox()).toEqual(before);
    await backdrop.click({ position: { x: 350, y: 500 } });
    await expect(backdrop).toBeHidden();
    await expect(sider).toHaveCSS('width', '0px');

    // Escape closes it as well, and the focus returns to the button that opened it
    await open.click();
    await expect(backdrop).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(backdrop).toBeHidden();
    await expect(sider).toHaveCSS('width', '0px');
    await expect(open).toBeFocused();

    await open.click();
    const nav = page.getByRole('navigation', { name: '主菜单' });
    await nav.getByRole('menuitem', { name: /系统管理/ }).click();
    await nav.getByRole('menuitem', { name: '参数管理' }).click();
    await expect(page).toHaveURL(/\/system\/param\/index$/);
    await expect(backdrop).toBeHidden();
    await expect(sider).toHaveCSS('width', '0px');
  });
});

test('a list of 200 rows keeps its header in view while it scrolls; numbers are right-aligned', async ({
  page,
}) => {
  await page.goto('/village/villager/index');
  const main = page.getByRole('main');
  const rows = main.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(10, { timeout: 20_000 });
  await main.locator('.ant-pagination-options .ant-select').click();
  await page.getByRole('option', { name: '200 条/页' }).click();
  await expect(main.locator('.ant-pagination-options')).toContainText('200 条/页');
  await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(100);

  const header = main.getByRole('columnheader', { name: '姓名' }).first();
  const top = (await main.boundingBox())!.y;
  await main.evaluate((el) => {
    el.scrollTop = el.scrollHeight / 2;
  });
  await expect.poll(() => main.evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
  await expect
    .poll(async () => {
      const box = await header.boundingBox();
      return box ? Math.round(box.y - top) : null;
    })
    .toBe(0);
  // nothing scrolled past lies over it, the fixed 操作 column's cells included
  for (const name of ['姓名', '操作']) {
    const cell = main.getByRole('columnheader', { name, exact: true });
    const box = (await cell.boundingBox())!;
    expect(Math.round(box.y - top)).toBe(0);
    const onTop = await cell.evaluate(
      (th, [x, y]) => th.contains(document.elementFromPoint(x, y)),
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(onTop, `${name} is on top`).toBe(true);
  }

  // money in a list is right-aligned, so its digits line up
  await page.goto('/village/policy/index');
  const amount = main.getByRole('columnheader', { name: '金额(元)' });
  await expect(amount).toHaveCSS('text-align', 'right');
  await expect(main.getByRole('cell', { name: /^\d[\d,]*\.\d{2}(?: 元)?$/ }).first()).toHaveCSS(
    'text-align',
    'right',
  );
});
