import { authFile, expect, test } from './fixtures';

/**
 * 公众号's drafts in the browser, against the WeChat sandbox the server runs: a person writes a draft — a
 * cover uploaded as an image material, a picture inserted into the rich text (put on WeChat at once) —, saves
 * it, publishes it after the confirmation, follows the publish in its dialog until WeChat says 成功, and finds
 * it among the published with its permanent link.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 60_000 });

/** a 2×2 PNG: the cover and the article's picture */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWNwWdXhsqqDAUIBACfmBdnOMeqUAAAAAElFTkSuQmCC',
  'base64',
);

test('a draft with an uploaded picture is published, followed to 成功 and listed with its link', async ({
  page,
}) => {
  const title = `村庄新貌${Date.now().toString(36).slice(-5)}`;
  await page.goto('/wechat/draft/index');
  await page.getByRole('button', { name: '新增草稿' }).click();
  const editor = page.getByRole('dialog', { name: '新增草稿' });
  await expect(editor).toBeVisible();

  await editor.getByLabel('文章标题', { exact: true }).fill(title);
  await editor.getByLabel('作者').fill('村委会');
  // the cover: uploaded as a new image material, then chosen
  const cover = page.waitForResponse((r) => r.url().includes('/wxMaterial/upload') && r.status() === 200);
  await editor
    .getByTestId('wx-upload-cover')
    .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
  await cover;
  await expect(editor.getByText('cover.png', { exact: true })).toBeVisible();

  // the content, and a picture put on WeChat through the editor
  const content = editor.getByRole('textbox', { name: '第 1 篇正文编辑器' });
  await content.click();
  await content.pressSequentially('新修的村道今天通车了。');
  const picture = page.waitForResponse((r) => r.url().includes('/wxDraft/uploadimg') && r.status() === 200);
  await editor
    .getByTestId('wx-insert-image')
    .setInputFiles({ name: 'road.png', mimeType: 'image/png', buffer: PNG });
  await picture;
  await expect(content.locator('img[src^="http://mmbiz.qpic.cn/"]')).toHaveCount(1);

  const saved = page.waitForResponse((r) => r.url().includes('/wxDraft/add'));
  await editor.getByRole('button', { name: /保\s?存/ }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('已保存到微信草稿箱')).toBeVisible();

  const row = page
    .getByRole('main')
    .locator('.ant-table-tbody > tr.ant-table-row')
    .filter({ hasText: title });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `发布 ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: '发布草稿' });
  await expect(confirm).toContainText(title);
  await confirm.getByRole('button', { name: /发\s?布/ }).click();

  // the publish followed until WeChat's outcome
  const following = page.getByRole('dialog', { name: '发布进度' });
  await expect(following).toBeVisible();
  await expect(following.getByTestId('wx-publish-state')).toHaveText('成功', { timeout: 20_000 });
  await following.getByRole('button', { name: /关闭|Close/ }).click();

  // listed among the published with its permanent link; the draft left the draft box as on WeChat
  await page.goto('/wechat/publish/index');
  const published = page
    .getByRole('main')
    .locator('.ant-table-tbody > tr.ant-table-row')
    .filter({ hasText: title });
  await expect(published).toBeVisible();
  await expect(published.getByTestId('wx-publish-state')).toHaveText('成功');
  await expect(published.getByRole('link', { name: `永久链接 ${title}` })).toHaveAttribute(
    'href',
    /^http:\/\/mp\.weixin\.qq\.com\/s\?/,
  );
});
