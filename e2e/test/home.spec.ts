import { createHash } from 'node:crypto';
import { authFile, expect, test } from './fixtures';
import { adminApi, ensureUser, signInAs } from './flow-helpers';

/**
 * 首页 (/wel/index), the home workplace: a leave's task shows on the approver's home and opens its handle
 * page; a user without workflow rights gets no to-do part; the notice popover's sample data is marked.
 */
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
/** the seeded 普通用户 role: no menu granted */
const PLAIN_ROLE_ID = '1123598816738675202';

test('a leave shows on the approver’s home as a to-do and opens its handle page', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const approver = await ensureUser(baseURL!, `home_a_${Date.now().toString(36)}`, '首页审批人');
  const api = await adminApi(baseURL!);
  const started = await api.call<{ processInstanceId: string; businessId: string }>(
    'POST',
    '/dfem-desk/process/leave/start-process',
    {
      processDefinitionId: 'leave:1:seed0001',
      taskUser: approver.id,
      startTime: '2026-12-07 09:00:00',
      endTime: '2026-12-08 18:00:00',
      reason: '首页待办测试',
    },
  );

  const page = await signInAs(browser, baseURL!, approver);
  const todo = page.getByRole('region', { name: '我的待办' });
  await expect(todo).toBeVisible();
  await expect(todo).toContainText('共 1 项');
  await expect(todo).toContainText(/已等待 (不到 1 分钟|\d+ 分钟)/);
  await expect(page.getByRole('region', { name: '我的在办申请' })).toBeVisible();
  await todo.getByRole('link', { name: '请假流程 · 审批' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/work/process/leave/handle/\\d+/${started.processInstanceId}/${started.businessId}$`),
  );
  await expect(page.getByText('首页待办测试')).toBeVisible();
  await page.context().close();
});

test('a user without workflow rights sees no to-do part', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const account = `home_p_${Date.now().toString(36)}`;
  const initial = 'Home-Initial-2026!';
  const password = 'Home-E2e-2026!';
  const api = await adminApi(baseURL!);
  await api.call('POST', '/dfem-user/submit', {
    account,
    password: md5(initial),
    realName: '首页普通用户',
    name: '首页普通用户',
    roleId: PLAIN_ROLE_ID,
    deptId: api.deptId,
  });
  const { records } = await api.call<{ records: { id: string; account: string }[] }>(
    'GET',
    `/dfem-user/page?current=1&size=20&account=${account}`,
  );
  const id = records.find((u) => u.account === account)!.id;
  // the initial password is changed first, as the person would at the first sign-in
  const q = new URLSearchParams({
    tenantId: '000000',
    username: account,
    password: md5(initial),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  const first = (await (
    await fetch(`${baseURL}/api/dfem-auth/oauth/token?${q}`, {
      method: 'POST',
      headers: { Authorization: BASIC, 'Tenant-Id': '000000' },
    })
  ).json()) as { access_token: string };
  const change = new URLSearchParams({
    oldPassword: md5(initial),
    newPassword: md5(password),
    newPassword1: md5(password),
  });
  const res = await fetch(`${baseURL}/api/dfem-user/update-password?${change}`, {
    method: 'POST',
    headers: { Authorization: BASIC, 'Blade-Auth': `bearer ${first.access_token}` },
  });
  expect(res.status).toBe(200);

  const page = await signInAs(browser, baseURL!, { id, account, realName: '首页普通用户', password });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('首页普通用户');
  await expect(page.getByTestId('home-workplace')).toBeVisible();
  await expect(page.getByRole('region', { name: '常用功能' })).toBeVisible();
  for (const part of ['我的待办', '待签任务', '我的在办申请', '最新通知公告', '数据概览'])
    await expect(page.getByRole('region', { name: part })).toHaveCount(0);
  await page.context().close();
});

test.describe('signed in as the administrator', () => {
  test.use({ storageState: authFile() });

  test('the home shows figures linking to their screens; the notice popover marks its samples 示例', async ({
    page,
  }) => {
    await page.goto('/wel/index');
    const figures = page.getByRole('region', { name: '数据概览' });
    await expect(figures.getByRole('link', { name: /^人口总数 \d+$/ })).toBeVisible();
    await page.getByRole('button', { name: /通知（\d+ 条）/ }).click();
    const note = page.getByTestId('notice-sample-note');
    await expect(note).toContainText('示例');
    await expect(note).toContainText('不是真实的通知');
    const popover = page.locator('.ant-popover').filter({ has: note });
    await expect(popover.getByRole('list', { name: '邮件' }).getByRole('listitem').first()).toContainText(
      '示例',
    );
    // no date that looks real
    await expect(popover).not.toContainText(/\d{4}-\d{2}-\d{2}/);
    await popover.getByRole('link', { name: '查看通知公告' }).click();
    await expect(page).toHaveURL(/\/desk\/notice\/index$/);
    await expect(popover).toBeHidden();
  });
});
