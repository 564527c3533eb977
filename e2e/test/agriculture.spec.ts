import { authFile, expect, test } from './fixtures';
import { day, fillDate, pick, save } from './form-helpers';

/**
 * Smart agriculture in the browser: a plot drawn corner by corner on the map (no tiles reach these
 * machines: an empty base) shows its area in 亩 as it grows, the same number in the dialog that saves it,
 * and is found in the list with that area; a farming record of the demo plot ticks the plan's overdue step
 * of its operation, and the plan no longer shows it overdue.
 */
test.use({ storageState: authFile() });

/** a KML placemark of about 100 m × 100 m (15 亩) near the demo village */
const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>导入地块</name><Polygon><outerBoundaryIs>
<LinearRing><coordinates>112.9100,28.2100 112.91102,28.2100 112.91102,28.2109 112.9100,28.2109 112.9100,28.2100</coordinates>
</LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
test.describe.configure({ timeout: 60_000 });

test('a plot drawn on the map shows its area in 亩, is saved, and is listed', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/agriculture/plot/index');
  const main = page.getByRole('main');
  await main.getByRole('tab', { name: '地图' }).click();
  const map = main.getByRole('region', { name: '地块地图' });
  await expect(map.locator('.leaflet-container')).toBeVisible();
  // the demo plots are drawn (as SVG paths) on the empty base
  await expect(map.locator('path.leaflet-interactive').first()).toBeVisible();
  await expect(main.getByText('东湾一号田').first()).toBeVisible();

  await main.getByRole('button', { name: '绘制新地块' }).click();
  await expect(main.getByText('在地图上依次点击地块的各个拐点')).toBeVisible();
  const box = (await map.locator('.leaflet-container').boundingBox())!;
  // a quadrilateral in an empty corner of the view
  const corners = [
    [0.08, 0.1],
    [0.3, 0.12],
    [0.28, 0.35],
    [0.1, 0.32],
  ].map(([x, y]) => [box.x + box.width * x, box.y + box.height * y] as const);
  for (const [x, y] of corners) await page.mouse.click(x, y);
  const live = main.getByTestId('map-area');
  await expect(live).toHaveText(/正在绘制:4 个拐点,面积 \d+\.\d{2} 亩/);
  const area = /面积 (\d+\.\d{2}) 亩/.exec(await live.innerText())![1];
  expect(Number(area)).toBeGreaterThan(0);
  // clicking the first corner closes the ring
  await page.mouse.click(corners[0][0], corners[0][1]);

  const dialog = page.getByRole('dialog', { name: /新增 · 地块管理/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('plot-area')).toHaveText(`面积 ${area} 亩`);
  const name = `地图地块${Date.now() % 100000}`;
  await dialog.getByRole('textbox', { name: '地块名称' }).fill(name);
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(main.getByRole('list', { name: '地块' }).getByText(name)).toBeVisible();

  // a boundary imported from a KML file opens the same dialog, with its area
  await main.getByLabel('导入 GeoJSON/KML').setInputFiles({
    name: 'plot.kml',
    mimeType: 'application/vnd.google-earth.kml+xml',
    buffer: Buffer.from(KML),
  });
  const imported = page.getByRole('dialog', { name: /新增 · 地块管理/ });
  await expect(imported.getByTestId('plot-area')).toHaveText(/面积 1[45]\.\d{2} 亩/);
  await imported.getByRole('button', { name: /取\s*消/ }).click();
  await expect(imported).toBeHidden();

  await main.getByRole('tab', { name: '列表' }).click();
  await main.getByRole('textbox', { name: '地块名称' }).fill(name);
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  const row = main.locator('tr').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(area);
  expect(errors).toEqual([]);
});

test('a farming record ticks the plan’s overdue step of its operation', async ({ page }) => {
  await page.goto('/agriculture/plan/index');
  const main = page.getByRole('main');
  const plan = main.locator('tr').filter({ hasText: '东湾一号田早稻计划' });
  await expect(plan.getByText('逾期 1')).toBeVisible();
  await expect(plan).toContainText('3/5');

  await page.goto('/agriculture/record/index');
  await page
    .getByRole('main')
    .getByRole('button', { name: /新\s*增/ })
    .click();
  const dialog = page.getByRole('dialog', { name: /新增 · 农事记录/ });
  await pick(page, dialog.getByRole('combobox', { name: '地块' }), '东湾一号田', '东湾');
  await pick(page, dialog.getByRole('combobox', { name: '农事操作' }), '灌溉');
  await fillDate(dialog, /作业日期/, day(0));
  await pick(page, dialog.getByRole('combobox', { name: '操作人' }));
  await dialog.getByRole('textbox', { name: '投入品' }).fill('灌溉水 30 立方米/亩');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();

  await page.goto('/agriculture/plan/index');
  const after = page.getByRole('main').locator('tr').filter({ hasText: '东湾一号田早稻计划' });
  await expect(after).toContainText('4/5');
  await expect(after.getByText(/逾期 \d/)).toHaveCount(0);
});

test('the overview draws certifications and per-capita income by year; a plot’s history lists what was done', async ({
  page,
}) => {
  await page.goto('/agriculture/overview/index');
  const figures = page.getByRole('list', { name: '农业概览' });
  const certs = figures.getByRole('listitem').filter({ hasText: '认证总数' });
  await expect(certs).toBeVisible();
  expect(
    Number((await certs.locator('.ant-statistic-content-value').innerText()).replace(/\D/g, '')),
  ).toBeGreaterThan(0);
  await expect(page.getByRole('img', { name: /^各年认证数: / }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('img', { name: /^历年人均纯收入\(元\): / }).locator('canvas')).toBeVisible();
  // the trap lamps' catch, from the telemetry core: 30 days by species, counted from the seeded readings
  await expect(
    page.getByRole('img', { name: /^近 30 天虫害: 稻飞虱 [1-9]/ }).locator('canvas'),
  ).toBeVisible();

  await page.goto('/agriculture/plot/index');
  const row = page.getByRole('main').locator('tr').filter({ hasText: '东湾一号田' });
  await row.getByRole('button', { name: '历史' }).click();
  const drawer = page.getByRole('dialog', { name: '地块历史 · 东湾一号田' });
  await expect(drawer.getByText('旋耕机翻耕20厘米')).toBeVisible();
  await expect(drawer.getByText(/翻耕晒垡/)).toBeVisible();
});

test('a plan’s steps are edited in its dialog and saved with it', async ({ page }) => {
  await page.goto('/agriculture/plan/index');
  const main = page.getByRole('main');
  const plan = main.locator('tr').filter({ hasText: '示范片油菜计划' });
  await expect(plan).toContainText('1/2');
  await plan.getByRole('button', { name: '编辑' }).click();
  const dialog = page.getByRole('dialog', { name: /编辑 · 种植计划/ });
  const steps = dialog.getByRole('group', { name: '计划步骤' });
  await expect(steps.getByTestId('step-2')).toBeVisible();
  await steps.getByRole('button', { name: '添加步骤' }).click();
  await pick(page, steps.getByRole('combobox', { name: '第 3 步 农事操作' }), '施肥');
  await steps.getByRole('textbox', { name: '第 3 步 步骤内容' }).fill('基肥');
  const planned = steps.getByRole('textbox', { name: '第 3 步 计划日期' });
  await planned.click();
  await planned.fill(day(30));
  await planned.press('Enter');
  await save(dialog).click();
  await expect(page.getByText('更新成功')).toBeVisible();
  await expect(main.locator('tr').filter({ hasText: '示范片油菜计划' })).toContainText('1/3');
});
