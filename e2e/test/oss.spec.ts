import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/**
 * 对象存储 in the browser (issue 35): an S3 config pointed at s3rver — a real S3 endpoint this test starts on
 * 127.0.0.1 — is added through the form, and its 测试 shows the four steps (put, head, get, delete) passing;
 * the same config with an unknown access key shows the provider's own code on the first step. Neither is
 * enabled here: the other specs upload as the same tenant, to its local disk (enable: oss.test.ts).
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 60_000 });

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (
  opts: Record<string, unknown>,
) => { run(): Promise<AddressInfo>; close(): Promise<void> };

let s3: { close(): Promise<void> } | undefined;
let dir = '';
let port = 0;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3rver-e2e-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'e2e-files' }],
  });
  port = (await server.run()).port;
  s3 = server;
});
test.afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function addConfig(page: import('@playwright/test').Page, code: string, accessKey: string) {
  await page.goto('/resource/oss/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 对象存储/ });
  await dialog.getByRole('textbox', { name: '资源编号' }).fill(code);
  await pick(page, dialog.getByRole('combobox', { name: '存储类型' }), 'minio');
  await dialog.getByRole('textbox', { name: '内部地址' }).fill(`http://127.0.0.1:${port}`);
  await dialog.getByRole('textbox', { name: '存储桶' }).fill('e2e-files');
  await dialog.getByRole('textbox', { name: 'AccessKey' }).fill(accessKey);
  await dialog.getByLabel('SecretKey').fill('S3RVER');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  return main.locator('tr').filter({ hasText: code });
}

test('an S3 config against s3rver: 测试 shows the four steps passing', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const code = `e2e-s3-${Date.now() % 100000}`;
  const row = await addConfig(page, code, 'S3RVER');
  await expect(row).toContainText('未启用');
  await row.getByRole('button', { name: `测试 ${code}` }).click();
  const dialog = page.getByRole('dialog', { name: `存储测试:${code}` });
  await expect(dialog.getByText('四个步骤全部通过')).toBeVisible();
  const steps = dialog.getByTestId('oss-test-steps');
  for (const title of ['上传探测文件', '读取文件信息', '下载并比对内容', '删除探测文件'])
    await expect(steps.locator('.ant-steps-item-finish').filter({ hasText: title })).toBeVisible();
  await expect(steps.locator('.ant-steps-item-error')).toHaveCount(0);
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /关\s*闭/ })
    .click();
  await expect(dialog).toBeHidden();

  expect(errors).toEqual([]);
});

test('an unknown access key: the first step fails with the provider’s code', async ({ page }) => {
  const code = `e2e-bad-${Date.now() % 100000}`;
  const row = await addConfig(page, code, 'NOSUCHKEY');
  await row.getByRole('button', { name: `测试 ${code}` }).click();
  const dialog = page.getByRole('dialog', { name: `存储测试:${code}` });
  await expect(dialog.getByText('测试未通过')).toBeVisible();
  await expect(dialog.getByTestId('oss-step-code-put')).toContainText('InvalidAccessKeyId');
  await expect(dialog.getByTestId('oss-step-code-put')).toContainText('403');
});
