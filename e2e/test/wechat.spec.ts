import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';
import { adminToken, api } from './shell-helpers';

/**
 * 公众号与小程序 in the browser: on 轮播图 a person sets a banner to top from its row (it moves to the first
 * row with its 置顶 tag) and takes it off again; on 二维码 a record added through the form shows its QR
 * picture in the view.
 */
test.use({ storageState: authFile() });
// one after another: the banner test reads the order of the whole list
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const suffix = () => Date.now().toString(36).slice(-5);
const API = '/api/dfem-hope-manage';
const dataRows = (page: Page) => page.getByRole('main').locator('.ant-table-tbody > tr.ant-table-row');

interface Page2<T> {
  records: T[];
}

test('a banner is set to top from its row, moves first with its tag, and is taken off again', async ({
  page,
  baseURL,
}) => {
  const { access_token } = await adminToken(baseURL!);
  const client = api(baseURL!, access_token);
  const listed = await client.get<Page2<{ id: string; image: string; isTop: number }>>(
    `${API}/carousel/page?current=1&size=100`,
  );
  // top banners are ordered among themselves by their order: this one is to be the only one on top
  for (const b of listed.records.filter((r) => r.isTop === 1))
    await client.get(`${API}/carousel/set/top/${b.id}/0`);
  const title = `端午龙舟赛${suffix()}`;
  // last in the list: not on top, and the highest order
  await client.post(`${API}/carousel/upsert`, {
    image: listed.records[0].image,
    title,
    position: '1',
    linkKind: '3',
    linkTarget: 'https://www.example.com/dragon-boat',
    sortOrder: 9999,
    enabled: 1,
  });

  await page.goto('/wechat/carousel/index');
  const rows = dataRows(page);
  const row = rows.filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(rows.first()).not.toContainText(title);
  await expect(row.getByText('生效中', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: `置顶 ${title}` }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(rows.first()).toContainText(title);
  await expect(rows.first().locator('.ant-tag').getByText('置顶', { exact: true })).toBeVisible();

  await rows
    .first()
    .getByRole('button', { name: `取消置顶 ${title}` })
    .click();
  await expect(rows.first()).not.toContainText(title);
  await expect(rows.last()).toContainText(title);
  await expect(row.locator('.ant-tag').getByText('置顶', { exact: true })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `置顶 ${title}` })).toBeVisible();
});

test('a banner whose dates have passed shows as not in effect', async ({ page }) => {
  await page.goto('/wechat/carousel/index');
  const row = dataRows(page).filter({ hasText: '积分兑换好礼(已结束)' });
  await expect(row.getByText('未生效', { exact: true })).toBeVisible();
});

test('a QR code added through the form shows its picture in the view', async ({ page }) => {
  const content = `https://www.example.com/qr/${suffix()}`;
  await page.goto('/wechat/qrcode/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 二维码/ });
  await pick(page, dialog.getByRole('combobox', { name: '请选择用途' }), '宣传推广');
  await dialog.getByPlaceholder('请输入二维码内容').fill(content);
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();

  const row = dataRows(page).filter({ hasText: content });
  await expect(row).toBeVisible();
  // the row's own picture
  await expect(row.getByRole('img', { name: `二维码:${content}` })).toBeVisible();
  await row.getByRole('button', { name: '查看', exact: true }).click();
  const view = page.getByRole('dialog', { name: /查看 · 二维码/ });
  const img = view.getByRole('img', { name: `二维码:${content}` });
  await expect(img).toBeVisible();
  expect(await img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  // a picture the browser decoded, at its size
  expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  await expect(img).toHaveAttribute('width', '200');
});
