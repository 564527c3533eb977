import { authFile, expect, test } from './fixtures';

/**
 * A record's uploads say what they are for (issue 31, item 3): the image and files controls of the generic
 * form send their definition and field (`?resource=&field=`), which the server checks against the caller's
 * add or edit code; what they uploaded shows in the form. (The video control: assistance.spec's care video.)
 */
test.use({ storageState: authFile() });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

test('a news cover is uploaded for its field and shown in the form', async ({ page }) => {
  await page.goto('/assistance/information/index');
  await page.getByRole('main').getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 新闻资讯/ });
  const answer = page.waitForResponse((r) => r.url().includes('/api/dfem-hope-manage/file/image'));
  await dialog.locator('input[type=file][accept*="image"]').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  const res = await answer;
  expect(res.status()).toBe(200);
  expect(new URL(res.url()).searchParams.get('resource')).toBe('information');
  expect(new URL(res.url()).searchParams.get('field')).toBe('cover');
  await expect(dialog.locator('img[src*="/api/dfem-hope-manage/file/image/"]')).toBeVisible();
});

test('a rule’s document is uploaded for its field and listed in the form', async ({ page }) => {
  await page.goto('/assistance/system/index');
  await page.getByRole('main').getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 帮扶制度/ });
  const answer = page.waitForResponse((r) => r.url().includes('/api/dfem-hope-manage/file/attach'));
  await dialog.locator('input[type=file]').setInputFiles({
    name: '管理办法.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  const res = await answer;
  expect(res.status()).toBe(200);
  expect(new URL(res.url()).searchParams.get('resource')).toBe('assistanceSystem');
  expect(new URL(res.url()).searchParams.get('field')).toBe('documents');
  await expect(dialog.getByText('管理办法.pdf')).toBeVisible();
});
