import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { adminToken, api, type ExtraServer, sessionState, startServer } from './shell-helpers';

/**
 * The shell against a server of its own, started with a short token time (TOKEN_TIME=5: the web refreshes
 * the token at the first 10 s check) and switch mode on; data made here (top menus, menu entries, rows)
 * does not disturb the other tests. The tests run in order in one worker.
 */
test.describe.configure({ mode: 'default' });

let server: ExtraServer;
let external: Server;
let externalBase = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  external = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Ext</title><h1>External ${req.url}</h1>`);
  });
  await new Promise<void>((r) => external.listen(0, '127.0.0.1', r));
  externalBase = `http://127.0.0.1:${(external.address() as AddressInfo).port}`;
  server = await startServer({ TOKEN_TIME: '5', SWITCH_MODE: 'true' });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise((r) => external?.close(r));
});

async function signedIn(browser: Browser, viewport = { width: 1400, height: 800 }) {
  const session = await adminToken(server.baseURL);
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport,
    storageState: sessionState(server.baseURL, session),
  });
  const page = await context.newPage();
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  return { context, page, session, visited };
}

async function adminApi() {
  return api(server.baseURL, (await adminToken(server.baseURL)).access_token);
}

test('token refresh: at the token time, one refresh while ten requests wait for it; they carry the new token', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { context, page, visited } = await signedIn(browser);
  let refreshes = 0;
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let started!: () => void;
  const refreshStarted = new Promise<void>((r) => {
    started = r;
  });
  // hold the refresh on the wire until the burst is under way
  await page.route(/\/api\/dfem-auth\/oauth\/token\?.*grant_type=refresh_token/, async (route) => {
    refreshes += 1;
    started();
    await held;
    await route.continue();
  });
  const calls: { auth: string; at: number }[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/dfem-auth/oauth/user-info'))
      calls.push({ auth: r.headers()['blade-auth'] ?? '', at: Date.now() });
  });

  await page.goto('/test/index');
  await expect(page.getByRole('heading', { name: '测试页' })).toBeVisible();
  const before = await page.evaluate(() => localStorage.getItem('saber-token'));
  await refreshStarted; // the 10 s check found the token 5 s old
  const sentBefore = calls.length;
  await page.getByRole('button', { name: '发送 10 个并发请求' }).click();
  await page.waitForTimeout(800);
  expect(calls.length).toBe(sentBefore); // all ten wait for the refresh
  release();
  await expect(page.getByText('10 / 10 成功')).toBeVisible();

  const after = await page.evaluate(() => localStorage.getItem('saber-token'));
  expect(after).toBeTruthy();
  expect(after).not.toBe(before);
  const burst = calls.slice(sentBefore);
  expect(burst).toHaveLength(10);
  for (const call of burst) expect(call.auth).toBe(`bearer ${after}`);
  expect(refreshes).toBe(1);
  // the cookie follows
  const cookie = (await context.cookies()).find((c) => c.name === 'saber-access-token');
  expect(decodeURIComponent(cookie!.value)).toBe(after);
  // and the page goes on working, never sent to /login
  await page.getByRole('tab', { name: '首页' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(visited.filter((p) => p === '/login')).toEqual([]);
  await context.close();
});

test('token refresh: a failed refresh logs out to /login', async ({ browser }) => {
  test.setTimeout(60_000);
  const { context, page } = await signedIn(browser);
  await page.route(/\/api\/dfem-auth\/oauth\/token\?.*grant_type=refresh_token/, (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error_code: 400, error_description: 'refresh token invalid' }),
    }),
  );
  await page.goto('/wel/index');
  await expect(page.getByRole('tab', { name: '首页' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 25_000 });
  expect(await page.evaluate(() => localStorage.getItem('saber-token'))).toBeNull();
  await context.close();
});

test('switch dialog 用户信息选择: own depts and roles, required, 切换 narrows the token and reloads the menu', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const admin = await adminApi();
  const me = await admin.get<{ id: string }>('/api/dfem-auth/oauth/user-info');
  const roles = await admin.get<{ id: string; roleName: string }[]>('/api/dfem-system/role/select');
  const userRole = roles.find((r) => r.roleName === '普通用户')!;
  const adminRole = roles.find((r) => r.roleName === '超级管理员')!;
  // the administrator also holds the plain user role, which has no menu
  await admin.post(`/api/dfem-user/grant?userIds=${me.id}&roleIds=${adminRole.id},${userRole.id}`);

  const { context, page } = await signedIn(browser);
  await page.goto('/wel/index');
  const nav = page.getByRole('navigation', { name: '主菜单' });
  await expect(nav.getByRole('menuitem', { name: '系统管理' })).toBeVisible();
  await page.getByRole('button', { name: /用户菜单/ }).click();
  await page.getByRole('menuitem', { name: '切换部门/角色' }).click();
  const dialog = page.getByRole('dialog', { name: '用户信息选择' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /切\s*换/ }).click();
  const errors = dialog.locator('.ant-form-item-explain-error');
  await expect(errors).toHaveText(['请选择部门', '请选择角色']);

  // the options are the user's own, labelled by name
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await dialog.getByLabel('部门').click();
  await expect(options).toHaveText(['智慧乡村']);
  await options.filter({ hasText: '智慧乡村' }).click();
  await dialog.getByLabel('角色').click();
  await expect(options).toHaveText(['超级管理员', '普通用户']);
  await options.filter({ hasText: '普通用户' }).click();
  await expect(errors).toHaveCount(0);

  const refresh = page.waitForRequest(
    (r) => r.url().includes('grant_type=refresh_token') && Boolean(r.headers()['role-id']),
  );
  await page.goto('/system/param/index'); // away from home first: 切换 goes to /
  await page.getByRole('button', { name: /用户菜单/ }).click();
  await page.getByRole('menuitem', { name: '切换部门/角色' }).click();
  await dialog.getByLabel('部门').click();
  await options.filter({ hasText: '智慧乡村' }).click();
  await dialog.getByLabel('角色').click();
  await options.filter({ hasText: '普通用户' }).click();
  await dialog.getByRole('button', { name: /切\s*换/ }).click();
  const sent = await refresh;
  expect(sent.headers()['role-id']).toBe(userRole.id);
  expect(sent.headers()['dept-id']).toBeTruthy();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/wel\/index$/);
  // the plain user role has no menu: the sidebar says so
  await expect(nav.getByRole('status')).toHaveText('没有发现菜单');
  await expect(page.getByRole('tab')).toHaveText(['首页']);

  // and back
  await page.getByRole('button', { name: /用户菜单/ }).click();
  await page.getByRole('menuitem', { name: '切换部门/角色' }).click();
  await dialog.getByLabel('部门').click();
  await options.filter({ hasText: '智慧乡村' }).click();
  await dialog.getByLabel('角色').click();
  await options.filter({ hasText: '超级管理员' }).click();
  await dialog.getByRole('button', { name: /切\s*换/ }).click();
  await expect(nav.getByRole('menuitem', { name: '系统管理' })).toBeVisible();
  await context.close();
});

interface MenuNode {
  id: string;
  name: string;
  path: string;
  children: MenuNode[];
}

test('top menu: a home item plus the top menus; a top menu reloads the sidebar with its menus', async ({
  browser,
}) => {
  const admin = await adminApi();
  const code = `e2e_top_${Date.now()}`;
  await admin.post('/api/dfem-system/topmenu/submit', {
    code,
    name: '日志中心',
    source: 'FileSearchOutlined',
    sort: 1,
  });
  const top = (
    await admin.get<{ records: { id: string; code: string }[] }>(
      `/api/dfem-system/topmenu/list?current=1&size=50&code=${code}`,
    )
  ).records.find((r) => r.code === code)!;
  const routes = await admin.get<MenuNode[]>('/api/dfem-system/menu/routes');
  const logs = routes.find((m) => m.path === '/log')!;
  await admin.post('/api/dfem-system/topmenu/grant', {
    topMenuIds: [top.id],
    menuIds: [logs.id, ...logs.children.map((c) => c.id)],
  });

  const { context, page } = await signedIn(browser);
  await page.goto('/wel/index');
  const topNav = page.getByRole('navigation', { name: '顶部菜单' });
  await expect(topNav.getByRole('menuitem')).toHaveText(['首页', '日志中心']);
  const sideNav = page.getByRole('navigation', { name: '主菜单' });
  await expect(sideNav.getByRole('menuitem', { name: '系统管理' })).toBeVisible();

  const call = page.waitForRequest((r) => r.url().includes(`/menu/routes?topMenuId=${top.id}`));
  await topNav.getByRole('menuitem', { name: '日志中心' }).click();
  await call;
  await expect(sideNav.getByRole('menuitem', { name: '系统管理' })).toHaveCount(0);
  await expect(sideNav.getByRole('menuitem', { name: '日志管理' })).toBeVisible();
  await expect(sideNav.locator(':scope > ul > li')).toHaveCount(1);
  // the choice survives a reload
  await page.reload();
  await expect(sideNav.getByRole('menuitem', { name: '日志管理' })).toBeVisible();
  await expect(sideNav.getByRole('menuitem', { name: '系统管理' })).toHaveCount(0);

  await topNav.getByRole('menuitem', { name: '首页' }).click();
  await expect(sideNav.getByRole('menuitem', { name: '系统管理' })).toBeVisible();
  await expect(page).toHaveURL(/\/wel\/index$/);
  await context.close();
});

test('sidebar: an external entry opens inside the app (/myiframe), an isOpen=2 one in a new window; active item follows the route', async ({
  browser,
}) => {
  const admin = await adminApi();
  const stamp = Date.now();
  const inApp = await admin.post<{ id: string }>('/api/dfem-system/menu/submit', {
    name: '外部文档',
    code: `e2e_doc_${stamp}`,
    path: `${externalBase}/doc.html`,
    parentId: '0',
    category: 1,
    alias: 'menu',
    action: 0,
    isOpen: 1,
    keepAlive: 1,
    sort: 98,
    source: 'ReadOutlined',
  });
  const newWindow = await admin.post<{ id: string }>('/api/dfem-system/menu/submit', {
    name: '新窗口链接',
    code: `e2e_win_${stamp}`,
    path: `${externalBase}/win.html`,
    parentId: '0',
    category: 1,
    alias: 'menu',
    action: 0,
    isOpen: 2,
    keepAlive: 1,
    sort: 99,
    source: 'GlobalOutlined',
  });
  const me = await admin.get<{ roleId: string }>('/api/dfem-auth/oauth/user-info');
  const roles = await admin.get<{ id: string; roleName: string }[]>('/api/dfem-system/role/select');
  const adminRole = roles.find((r) => r.roleName === '超级管理员')!;
  expect(me.roleId).toContain(adminRole.id);
  const keys = await admin.get<{ menu: string[]; dataScope: string[]; apiScope: string[] }>(
    `/api/dfem-system/menu/role-tree-keys?roleIds=${adminRole.id}`,
  );
  await admin.post('/api/dfem-system/role/grant', {
    roleIds: [adminRole.id],
    menuIds: [...keys.menu, inApp.id, newWindow.id],
    dataScopeIds: keys.dataScope,
    apiScopeIds: keys.apiScope,
  });

  const { context, page } = await signedIn(browser);
  await page.goto('/wel/index');
  const nav = page.getByRole('navigation', { name: '主菜单' });
  await nav.getByRole('link', { name: '外部文档' }).click();
  await expect(page).toHaveURL(/\/myiframe\/urlPath\?/);
  await expect(page.frameLocator('iframe[title="外部文档"]').getByRole('heading')).toHaveText(
    'External /doc.html',
  );
  await expect(page.getByRole('tab', { name: '外部文档' })).toHaveAttribute('aria-selected', 'true');
  await expect(nav.locator('.ant-menu-item-selected')).toHaveText('外部文档');

  const popup = page.waitForEvent('popup');
  await nav.getByRole('link', { name: /新窗口链接/ }).click();
  expect((await popup).url()).toBe(`${externalBase}/win.html`);
  await expect(page).toHaveURL(/\/myiframe\/urlPath\?/); // the app stays

  // the active item follows the route
  await nav.getByRole('menuitem', { name: '系统管理' }).click();
  await nav.getByRole('link', { name: '参数管理' }).click();
  await expect(nav.locator('.ant-menu-item-selected')).toHaveText('参数管理');
  await page.getByRole('tab', { name: '外部文档' }).click();
  await expect(nav.locator('.ant-menu-item-selected')).toHaveText('外部文档');
  await context.close();
});

async function ensureParams(count: number) {
  const admin = await adminApi();
  const have = await admin.get<{ total: number }>(
    '/api/dfem-system/param/list?current=1&size=1&paramName=keepalive',
  );
  for (let i = have.total; i < count; i += 1) {
    await admin.post('/api/dfem-system/param/submit', {
      paramName: `keepalive-${String(i + 1).padStart(2, '0')}`,
      paramKey: `e2e.keepalive.${i + 1}`,
      paramValue: String(i + 1),
    });
  }
}

async function openParams(page: Page) {
  const nav = page.getByRole('navigation', { name: '主菜单' });
  const link = nav.getByRole('link', { name: '参数管理', exact: true });
  if (!(await link.isVisible())) await nav.getByRole('menuitem', { name: '系统管理' }).click();
  await link.click();
  await expect(page.getByRole('tab', { name: '参数管理' })).toHaveAttribute('aria-selected', 'true');
}

test('keep-alive: search input, filters, table page and scroll position survive a tab switch; closing drops them', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  await ensureParams(25);
  const { context, page } = await signedIn(browser, { width: 1400, height: 600 });
  await page.goto('/wel/index');
  await openParams(page);
  const main = page.getByRole('main');
  const table = main.getByRole('table');
  await expect(table).toBeVisible();
  const nameBox = main.getByRole('textbox').first();
  const keyBox = main.getByRole('textbox').nth(1);

  // a filter, its second page, unsent input and a scrolled page
  await nameBox.fill('keepalive');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(main.getByText(/共 25 条/)).toBeVisible();
  await main.getByRole('listitem', { name: '2', exact: true }).click();
  await expect(table.getByRole('cell', { name: 'keepalive-11', exact: true })).toBeVisible();
  await keyBox.fill('not sent yet');
  const content = page.locator('#shell-page');
  await content.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const scrolled = await content.evaluate((el) => el.scrollTop);
  expect(scrolled).toBeGreaterThan(100);

  // another tab, then back
  await page.getByRole('tab', { name: '首页' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(content).toHaveJSProperty('scrollTop', 0);
  const listCalls: string[] = [];
  page.on('request', (r) => r.url().includes('/param/list') && listCalls.push(r.url()));
  await page.getByRole('tab', { name: '参数管理' }).click();
  await expect(nameBox).toHaveValue('keepalive');
  await expect(keyBox).toHaveValue('not sent yet');
  await expect(table.getByRole('cell', { name: 'keepalive-11', exact: true })).toBeVisible();
  await expect(main.getByRole('listitem', { name: '2', exact: true })).toHaveClass(
    /ant-pagination-item-active/,
  );
  await expect.poll(() => content.evaluate((el) => el.scrollTop)).toBe(scrolled);
  expect(listCalls.filter((u) => u.includes('current=1&'))).toEqual([]); // nothing was reloaded from page 1

  // close it and open it again: a fresh page
  await page.getByRole('tab', { name: '参数管理' }).locator('.shell-tag-close').click();
  await openParams(page);
  await expect(nameBox).toHaveValue('');
  await expect(keyBox).toHaveValue('');
  await expect(main.getByRole('listitem', { name: '1', exact: true })).toHaveClass(
    /ant-pagination-item-active/,
  );
  expect(await content.evaluate((el) => el.scrollTop)).toBe(0);

  // clearing the cache drops the kept state too
  await nameBox.fill('kept until the cache is cleared');
  await page.getByRole('tab', { name: '首页' }).click();
  await page.getByRole('tab', { name: '首页' }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: '清除缓存' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: '是否需要清除缓存?' })
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('清除完毕')).toBeVisible();
  await page.getByRole('tab', { name: '参数管理' }).click();
  await expect(nameBox).toHaveValue('');
  await context.close();
});
