import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/**
 * Rural tourism in the browser: a route drawn point by point on the map of its form (no tiles reach these
 * machines: an empty base) shows its length in km as it grows, the same length under the line once it is
 * drawn, and the list and the view show it after saving; a booking made in the form is verified (核销) by
 * typing its code into the dialog's focused input and pressing Enter, and the list shows it 已核销.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 60_000 });

test('a route drawn on the map shows its length, saved and listed with it', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/tourism/route/index');
  const main = page.getByRole('main');
  await expect(main.locator('tr').filter({ hasText: '稻田茶园半日游' })).toBeVisible();
  await main.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 旅游线路/ });
  await expect(dialog).toBeVisible();
  const name = `测试线路${Date.now() % 100000}`;
  await dialog.getByRole('textbox', { name: '线路名称' }).fill(name);

  const map = dialog.getByRole('region', { name: '线路绘制地图' });
  await expect(map.locator('.leaflet-container')).toBeVisible();
  await map.scrollIntoViewIfNeeded();
  await dialog.getByRole('button', { name: '在地图上绘制' }).click();
  await expect(dialog.getByText('在地图上依次点击线路经过的点')).toBeVisible();
  const box = (await map.locator('.leaflet-container').boundingBox())!;
  // three points along the empty top of the view (clear of the zoom buttons)
  const points = [
    [0.15, 0.1],
    [0.5, 0.08],
    [0.9, 0.14],
  ].map(([x, y]) => [box.x + box.width * x, box.y + box.height * y] as const);
  for (const [x, y] of points) await page.mouse.click(x, y);
  const drawing = dialog.getByTestId('route-drawing');
  await expect(drawing).toHaveText(/正在绘制:3 个点,长度 \d+\.\d{2} 公里/);
  const km = /长度 (\d+\.\d{2}) 公里/.exec(await drawing.innerText())![1];
  expect(Number(km)).toBeGreaterThan(0);
  await dialog.getByRole('button', { name: '完成绘制' }).click();
  // the line is the form's value now: its length under the typed coordinates, the same number
  await expect(dialog.getByTestId('line-length-live')).toHaveText(`长度 ${km} 公里`);
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  await main.getByRole('textbox', { name: '线路名称' }).fill(name);
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  const row = main.locator('tr').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(km);
  await row.getByRole('button', { name: '查看' }).click();
  const view = page.getByRole('dialog', { name: /查看 · 旅游线路/ });
  await expect(view.getByTestId('line-length')).toHaveText(`长度 ${km} 公里`);
  expect(errors).toEqual([]);
});

test('a booking is verified (核销) by typing its code, and reads 已核销', async ({ page }) => {
  await page.goto('/tourism/booking/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 预约记录/ });
  const visitor = `游客${Date.now() % 100000}`;
  await pick(page, dialog.getByRole('combobox', { name: '预约时段' }), /竹溪民宿/, '竹溪');
  await dialog.getByRole('textbox', { name: '游客姓名' }).fill(visitor);
  await dialog.getByRole('textbox', { name: '联系电话' }).fill('13907310099');
  await dialog.getByRole('spinbutton', { name: '人数' }).fill('2');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = main.locator('tr').filter({ hasText: visitor });
  await expect(row).toContainText('待到访');
  const code = /\b([0-9A-HJKMNP-TV-Z]{10})\b/.exec(await row.innerText())![1];

  await main.getByRole('button', { name: /^核\s*销$/ }).click();
  const verify = page.getByRole('dialog', { name: '核销预约' });
  const input = verify.getByRole('searchbox', { name: '核销码' });
  // the input has the focus: a scanner types the code and Enter
  await expect(input).toBeFocused();
  await page.keyboard.type(code.toLowerCase());
  await page.keyboard.press('Enter');
  const outcome = verify.getByTestId('verify-outcome');
  await expect(outcome).toContainText('核销成功');
  await expect(outcome).toContainText(`${visitor} · 2 人`);
  // the same code again is refused, in the dialog
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(outcome).toContainText('该预约已核销,不能重复核销');
  await verify.getByRole('button', { name: /关\s*闭|Close/ }).click();
  await expect(verify).toBeHidden();
  await expect(main.locator('tr').filter({ hasText: visitor })).toContainText('已核销');
});
