import { authFile, expect, test } from './fixtures';
import { BASIC, THEME_NAMES } from './shell-helpers';

/** The top bar of spec §2, item by item, on the shared administrator session. */
test.use({ storageState: authFile() });

/**
 * antd's primary colour (a CSS variable of its components), and the active tab's fill and text: the chosen
 * colour itself, written on in dark ink where white would not reach WCAG AA (white on #409EFF is 2.9:1).
 */
const primary = (page: import('@playwright/test').Page) =>
  page
    .getByRole('navigation', { name: '顶部菜单' })
    .getByRole('menu')
    .evaluate((el) => getComputedStyle(el).getPropertyValue('--ant-color-primary').trim().toUpperCase());
const activeTabFill = (page: import('@playwright/test').Page) =>
  page
    .getByRole('tab', { name: '首页' })
    .evaluate((el) => `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).color}`);

test('colour picker: the primary colour changes, is remembered, and the default is #409EFF', async ({
  page,
}) => {
  await page.goto('/wel/index');
  await expect(page.getByRole('tab', { name: '首页' })).toBeVisible();
  expect(await primary(page)).toBe('#409EFF');
  expect(await activeTabFill(page)).toBe('rgb(64, 158, 255) rgb(31, 31, 31)'); // #409EFF, ink #1F1F1F

  await page.getByRole('button', { name: '主题色' }).click();
  await page.getByRole('button', { name: '#F5222D' }).click();
  await expect(page.getByRole('button', { name: '#F5222D' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => primary(page)).toBe('#F5222D');
  expect(await activeTabFill(page)).toBe('rgb(245, 34, 45) rgb(0, 0, 0)'); // #F5222D as chosen: neither white (4.1:1) nor the grey ink reads, black does

  await page.reload();
  await expect(page.getByRole('tab', { name: '首页' })).toBeVisible();
  await expect.poll(() => primary(page)).toBe('#F5222D');
  expect(await activeTabFill(page)).toBe('rgb(245, 34, 45) rgb(0, 0, 0)');
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('saber-color'))) ?? '{}').state).toEqual({
    color: '#F5222D',
  });
});

test('theme picker: eleven themes, each visibly different, dark on antd’s dark algorithm, remembered', async ({
  page,
}) => {
  await page.goto('/wel/index');
  const shell = page.locator('[data-theme]');
  await expect(shell).toHaveAttribute('data-theme', 'theme-default');
  await page.getByRole('button', { name: '主题', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '选择主题' });
  await expect(dialog).toBeVisible();
  const options = dialog.locator('[data-theme-option]');
  await expect(options).toHaveCount(11);
  const names = await options.evaluateAll((els) => els.map((el) => el.getAttribute('data-theme-option')));
  expect(names).toEqual(THEME_NAMES);

  const signatures = new Map<string, string>();
  for (const name of names as string[]) {
    await dialog.locator(`[data-theme-option="${name}"]`).click();
    await expect(shell).toHaveAttribute('data-theme', name);
    await expect(dialog.locator(`[data-theme-option="${name}"]`)).toHaveAttribute('aria-pressed', 'true');
    const signature = await page.evaluate(() => {
      const look = (selector: string) => {
        const el = document.querySelector(selector);
        if (!el) return 'missing';
        const s = getComputedStyle(el);
        return `${s.backgroundColor} ${s.backgroundImage} ${s.color}`;
      };
      return [look('header'), look('aside'), look('main'), look('.shell-tags'), look('.shell-logo')].join(
        ' | ',
      );
    });
    signatures.set(name, signature);
    if (name === 'theme-dark') {
      // antd's dark algorithm: the dialog itself turns dark
      const bg = await dialog
        .locator('.ant-modal-container, .ant-modal-content')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      const [r, g, b] = bg.match(/\d+/g)!.map(Number);
      expect(r + g + b).toBeLessThan(150);
    }
  }
  expect(new Set(signatures.values()).size).toBe(11);

  await dialog.locator('[data-theme-option="theme-lte"]').click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(shell).toHaveAttribute('data-theme', 'theme-lte');
  expect(await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
    'rgb(53, 124, 165)', // #357CA5
  );
});

test('fullscreen toggle', async ({ page }) => {
  await page.goto('/wel/index');
  await page.getByRole('button', { name: '全屏' }).click();
  await expect(page.getByRole('button', { name: '退出全屏' })).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => Boolean(document.fullscreenElement))).toBe(true);
  await page.getByRole('button', { name: '退出全屏' }).click();
  await expect(page.getByRole('button', { name: '全屏' })).toBeVisible();
  expect(await page.evaluate(() => Boolean(document.fullscreenElement))).toBe(false);
});

test('notice popover: mail, messages and notices, 350 wide, lists scrolling at 300', async ({ page }) => {
  await page.goto('/wel/index');
  await page.getByRole('button', { name: /通知（\d+ 条）/ }).click();
  const popover = page.locator('.ant-popover').filter({ has: page.getByRole('tab', { name: /邮件/ }) });
  await expect(popover).toBeVisible();
  // the popover zooms in from 80 %: measure once the animation has ended
  await expect.poll(async () => Math.round((await popover.boundingBox())?.width ?? 0)).toBe(350);
  for (const [tab, count] of [
    ['邮件', 3],
    ['消息', 4],
    ['通知', 2],
  ] as const) {
    await popover.getByRole('tab', { name: new RegExp(tab) }).click();
    const list = popover.getByRole('list', { name: tab });
    await expect(list).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(count);
    expect(Math.round((await list.boundingBox())!.height)).toBe(300);
  }
});

test('debug log: client errors are collected, counted (99+), listed, sent to the server and cleared', async ({
  page,
  request,
}) => {
  await page.goto('/wel/index');
  const marker = `e2e-boom-${Date.now()}`;
  const logButton = page.getByRole('button', { name: /^日志（\d+ 条）$/ });
  await expect(logButton).toHaveAccessibleName('日志（0 条）');

  // an uncaught error and a rejected promise
  await page.evaluate((m) => {
    setTimeout(() => {
      throw new Error(m);
    });
    void Promise.reject(new Error(`${m}-rejected`));
  }, marker);
  await expect(logButton).toHaveAccessibleName('日志（2 条）');
  await expect(page.locator('.ant-badge-count').filter({ hasText: /^2$/ })).toBeVisible();

  // the list survives a reload (persisted) and shows every column
  await page.reload();
  await logButton.click();
  const dialog = page.getByRole('dialog', { name: '日志' });
  await expect(dialog).toBeVisible();
  for (const column of ['类型', '信息', '错误堆栈', '位置', '地址', '时间']) {
    await expect(dialog.getByRole('columnheader', { name: column })).toBeVisible();
  }
  const rows = dialog.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `${marker}-rejected` })).toContainText('unhandledrejection');
  const errorRow = rows.filter({ hasText: new RegExp(`${marker}(?!-)`) }).first();
  await expect(errorRow).toContainText('error');
  await expect(errorRow).toContainText('/wel/index');
  await expect(errorRow).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  // the dialog is fullscreen
  const box = (await dialog.locator('.ant-modal-container, .ant-modal-content').first().boundingBox())!;
  expect(box.width).toBeGreaterThan((page.viewportSize()!.width ?? 0) - 20);

  // send to the server: it lands in the error log as service 'web'
  await dialog.getByRole('button', { name: '上传服务器' }).click();
  await expect(page.getByText('已上传 2 条日志')).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('saber-token'));
  const res = await request.get('/api/dfem-log/error/list?current=1&size=50&serviceId=web', {
    headers: { 'Blade-Auth': `bearer ${token}`, Authorization: BASIC },
  });
  const records = (await res.json()).data.records as { message: string }[];
  expect(records.map((r) => r.message)).toEqual(expect.arrayContaining([marker, `${marker}-rejected`]));

  // clear
  await dialog.getByRole('button', { name: '清空本地日志' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: '确定清空本地日志吗?' })
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(dialog.getByText('暂无日志')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(logButton).toHaveAccessibleName('日志（0 条）');

  // past 99 the badge shows 99+
  await page.evaluate(() => {
    for (let i = 0; i < 120; i += 1) {
      setTimeout(() => {
        throw new Error(`bulk ${i}`);
      });
    }
  });
  await expect(logButton).toHaveAccessibleName('日志（120 条）');
  await expect(page.locator('.ant-badge-count').filter({ hasText: '99+' })).toBeVisible();
});

test('lock: a password is required; while locked only /lock is reachable, even after a reload; it unlocks', async ({
  page,
}) => {
  await page.goto('/wel/index');
  await page.getByRole('button', { name: '锁屏', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '设置锁屏密码' });
  await dialog.getByRole('button', { name: /锁\s*屏/ }).click();
  await expect(dialog.getByRole('alert')).toHaveText('锁屏密码不能为空');
  await expect(page).toHaveURL(/\/wel\/index$/);

  await dialog.getByLabel('锁屏密码').fill('e2e-lock-pw');
  await dialog.getByLabel('锁屏密码').press('Enter');
  await expect(page).toHaveURL(/\/lock$/);
  await expect(page.getByRole('heading', { name: '屏幕已锁定' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('saber-lock'))).toContain('"isLock":true');
  expect(await page.evaluate(() => localStorage.getItem('saber-lock'))).toBeNull();

  for (const path of ['/wel/index', '/system/param/index', '/login', '/info/index']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/lock$/);
  }
  await page.reload();
  await expect(page).toHaveURL(/\/lock$/);
  await expect(page.getByRole('heading', { name: '屏幕已锁定' })).toBeVisible();

  await page.getByLabel('锁屏密码').fill('wrong');
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(page.getByRole('alert')).toHaveText('锁屏密码错误');
  await page.getByLabel('锁屏密码').fill('e2e-lock-pw');
  await page.getByRole('button', { name: /解\s*锁/ }).click();
  await expect(page).toHaveURL(/\/wel\/index$/);
  await page.goto('/system/param/index');
  await expect(page).toHaveURL(/\/system\/param\/index$/);
});

test('user menu: home, user info, and no switch while switch mode is off', async ({ page }) => {
  await page.goto('/wel/index');
  const userMenu = page.getByRole('button', { name: /用户菜单/ });
  // the dropdown's menu (the top menu has a 首页 item too)
  const dropdown = page.getByRole('menu').filter({ has: page.getByRole('menuitem', { name: '退出登录' }) });
  await userMenu.click();
  await expect(dropdown.getByRole('menuitem')).toHaveText(['首页', '个人信息', '退出登录']);
  await expect(page.getByRole('menuitem', { name: '切换部门/角色' })).toHaveCount(0);
  await dropdown.getByRole('menuitem', { name: '个人信息' }).click();
  await expect(page).toHaveURL(/\/info\/index$/);
  await expect(page.locator('.shell-tags').getByRole('tab', { name: '个人信息' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await userMenu.click();
  await dropdown.getByRole('menuitem', { name: '首页' }).click();
  await expect(page).toHaveURL(/\/wel\/index$/);
});
