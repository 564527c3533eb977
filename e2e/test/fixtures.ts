import { test as base, expect, type Page } from '@playwright/test';

export { expect };

/** admin's passwords: the seeded one, and the one the setup project changes it to. */
export const ADMIN = {
  username: 'admin',
  seededPassword: 'admin',
  password: 'E2e-Admin-2026!',
  realName: '管理员',
};

/** The base URL of the server started by global-setup.ts. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});

export function authFile(): string {
  const file = process.env.E2E_AUTH_FILE;
  if (!file) throw new Error('E2E_AUTH_FILE is not set: run through playwright.config.ts (global setup)');
  return file;
}

/** Fill the login form as a person would and press Enter. */
export async function submitLogin(page: Page, username: string, password: string) {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: '智慧管理系统' })).toBeVisible();
  await page.getByLabel('账号').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('密码', { exact: true }).press('Enter');
}

/** Sign in with the already-changed password and wait for the home page. */
export async function signIn(page: Page, password = ADMIN.password) {
  await submitLogin(page, ADMIN.username, password);
  await expect(page).toHaveURL(/\/wel\/index$/);
  await expect(page.getByRole('tab', { name: '首页' })).toBeVisible();
}
