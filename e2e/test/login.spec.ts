import { ADMIN, expect, submitLogin, test } from './fixtures';

test.describe('signed out', () => {
  test('a wrong password shows the server message and stores nothing', async ({ page }) => {
    await submitLogin(page, ADMIN.username, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('用户名或密码不正确');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('saber-token'))).toBeNull();
    expect((await page.context().cookies()).find((c) => c.name === 'saber-access-token')).toBeUndefined();
  });

  test('an empty form is refused without calling the server', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page.getByRole('alert')).toHaveText('请输入账号');
  });

  test('the password is shown and hidden again with the keyboard, the error marked on its field', async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByLabel('账号').fill('admin');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    const password = page.getByLabel('密码', { exact: true });
    await expect(password).toBeFocused();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await password.fill('Secret#1');
    await expect(password).toHaveAttribute('type', 'password');
    const reveal = page.getByRole('button', { name: '显示密码' });
    await reveal.focus();
    await page.keyboard.press('Enter');
    await expect(reveal).toHaveAttribute('aria-pressed', 'true');
    await expect(password).toHaveAttribute('type', 'text');
    await page.keyboard.press('Space');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(password).toHaveValue('Secret#1');
  });

  test('a guarded page sends a signed-out visitor to /login', async ({ page }) => {
    await page.goto('/wel/index');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page).toHaveTitle(/登录/);
    await expect(page.getByLabel('账号')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    // No tenant field (tenant mode is off) and no captcha (CAPTCHA_MODE=false).
    await expect(page.getByLabel('租户编号')).toHaveCount(0);
    await expect(page.getByLabel('验证码')).toHaveCount(0);
  });

  test('a deep link goes to /login, and once signed in on to the page asked for (spec §2)', async ({
    page,
  }) => {
    await page.goto('/village/villager/index?name=王');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    const form = page.getByRole('main');
    await form.getByLabel('账号').fill(ADMIN.username);
    await form.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await form.getByLabel('密码', { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/village\/villager\/index\?name=/);
    await expect(page.getByRole('main').getByRole('table')).toBeVisible();
  });

  test('a link to no page goes to /login first, then to the 404 page once signed in', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    const form = page.getByRole('main');
    await form.getByLabel('账号').fill(ADMIN.username);
    await form.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await form.getByLabel('密码', { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { name: /404/ })).toBeVisible();
  });

  test('the login page switches to English', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'Smart management system' })).toBeVisible();
    await expect(page.getByLabel('Username')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await submitLoginEnglish();

    async function submitLoginEnglish() {
      await page.getByLabel('Username').fill('nobody-e2e');
      await page.getByLabel('Password', { exact: true }).fill('wrong');
      await page.getByLabel('Password', { exact: true }).press('Enter');
      // the server answers in the request's language
      await expect(page.getByRole('alert')).not.toBeEmpty();
    }
  });
});
