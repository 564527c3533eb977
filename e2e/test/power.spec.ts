import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { authFile, expect, test } from './fixtures';
import { pick } from './form-helpers';

/**
 * PV stations in the browser: the live station page shows a tile per inverter — the one behind the silent
 * collector says 无数据 (no data), never 故障 — with the power curve and the collectors; the energy overview
 * draws its figures and this month's yield chart; the stations list is the generic page of its definition.
 */
test.use({ storageState: authFile() });

const root = fileURLToPath(new URL('../..', import.meta.url));
let simulator: ChildProcess | undefined;
test.afterEach(() => {
  simulator?.kill('SIGTERM');
  simulator = undefined;
});

/** the rows of a downloaded workbook's first sheet, as texts */
async function sheetOf(path: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(path)) as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}

test('the live curve follows the readings the simulator publishes for the station’s inverters', async ({
  page,
}) => {
  await page.goto('/power/live/index');
  const main = page.getByRole('main');
  await pick(page, main.getByRole('combobox', { name: '选择电站' }), '村集体屋顶光伏电站');
  await expect(main.getByTestId('inverter-tile')).toHaveCount(3);
  const last = main.getByTestId('curve-last');
  await expect(last).not.toHaveText('');
  const before = Number(await last.textContent());
  // the simulator script, against the e2e server's broker: the demo devices, the stations' among them
  simulator = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/tools/simulate.ts',
      '--url',
      process.env.E2E_MQTT_URL!,
      '--rate',
      '6',
      '--duration',
      '60',
    ],
    { cwd: root, stdio: 'ignore' },
  );
  // the page reads the curves again every 10 seconds: a newer point than the one shown arrives
  await expect
    .poll(async () => Number(await last.textContent()), { timeout: 50_000 })
    .toBeGreaterThan(before);
  expect(Number(await last.textContent())).toBeGreaterThan(Date.now() - 120_000);
});

test('a month’s history is exported and opens: its header and this month’s days', async ({ page }) => {
  await page.goto('/power/live/index');
  const main = page.getByRole('main');
  await pick(page, main.getByRole('combobox', { name: '选择电站' }), '村集体屋顶光伏电站');
  const download = page.waitForEvent('download');
  await main.getByRole('button', { name: '导出 Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('村集体屋顶光伏电站-发电量.xlsx');
  const rows = await sheetOf((await file.path())!);
  expect(rows[0]).toEqual(['时间', '发电量(kWh)', '等效利用小时', '收益(元)']);
  // by day, this month up to today: the first row is the 1st, and the seed's days have energy
  // the server's days are Asia/Shanghai's
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  expect(rows[1][0]).toBe(`${today.slice(0, 7)}-01`);
  expect(rows.length - 1).toBe(Number(today.slice(8, 10)));
  expect(rows[rows.length - 1][0]).toBe(today);
  // days without readings are empty cells (unknown, not zero); the seed's days have energy and income
  const withEnergy = rows.slice(1).filter((r) => (r[1] ?? '') !== '');
  expect(withEnergy.length).toBeGreaterThanOrEqual(1);
  for (const r of withEnergy) {
    expect(Number(r[1])).toBeGreaterThanOrEqual(0);
    expect(r[3]).toMatch(/^\d+(\.\d{1,2})?$/);
  }
});

test('the live station page: inverter tiles, "no data" for the silent collector, the power curve, the camera', async ({
  page,
  baseURL,
}) => {
  // the server makes its demo streams in the background after it starts: the station camera's is waited for
  await expect
    .poll(async () => (await fetch(`${baseURL}/demo-video/pv-1/index.m3u8`)).status, { timeout: 150_000 })
    .toBe(200);
  await page.goto('/power/live/index');
  const main = page.getByRole('main');
  const picker = main.getByRole('combobox', { name: '选择电站' });
  await expect(picker).toBeVisible();
  await pick(page, picker, '三组农户光伏电站');
  const silent = main.getByRole('group', { name: 'INV-0004: 无数据' });
  await expect(silent).toBeVisible();
  await expect(silent).toHaveAttribute('data-status', 'noData');
  await expect(silent.getByText('设备或采集器无上报,不代表设备故障')).toBeVisible();
  await expect(main.getByRole('group', { name: /^INV-0005: / })).toBeVisible();
  await expect(main.getByTestId('collector-tile')).toHaveCount(2);
  await expect(main.getByTestId('collector-tile').filter({ hasText: 'DC-0002' })).toHaveAttribute(
    'data-online',
    '0',
  );
  await expect(main.getByRole('img', { name: /^今日功率曲线: / }).locator('canvas')).toBeVisible();
  await expect(main.getByRole('img', { name: /^历史发电量 \(按日\): / }).locator('canvas')).toBeVisible();
  await main.getByText('按月', { exact: true }).click();
  await expect(main.getByRole('img', { name: /^历史发电量 \(按月\): \d{4}-\d{2} / })).toBeVisible();

  await pick(page, picker, '村集体屋顶光伏电站');
  await expect(main.getByTestId('inverter-tile')).toHaveCount(3);
  // the station's camera in the safety wall's tile, playing the server's own demo stream
  const tile = main.getByRole('region', { name: '画面 1' });
  const video = tile.getByLabel('一号电站全景');
  await expect
    .poll(() => video.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 60_000 })
    .toBeGreaterThan(0.3);
  await expect(tile.getByRole('alert')).toHaveCount(0);
});

test('the energy overview draws its figures and this month’s yield', async ({ page }) => {
  await page.goto('/power/overview/index');
  const figures = page.getByRole('list', { name: '能源总览' });
  const stations = figures.getByRole('listitem').filter({ hasText: '电站数' });
  await expect(stations).toBeVisible();
  expect(
    Number((await stations.locator('.ant-statistic-content-value').innerText()).trim()),
  ).toBeGreaterThanOrEqual(2);
  const month = page.getByRole('img', { name: /^本月每日发电量: / });
  await expect(month.locator('canvas')).toBeVisible();
  expect(await month.getAttribute('aria-label')).toMatch(/\d{4}-\d{2}-\d{2} /);
  await expect(page.getByRole('img', { name: /^本月等效利用小时/ }).locator('canvas')).toBeVisible();
});

test('the stations and their inverters are generic list pages of their definitions', async ({ page }) => {
  for (const [url, text] of [
    ['/power/station/index', '村集体屋顶光伏电站'],
    ['/power/inverter/index', 'INV-0001'],
  ]) {
    await page.goto(url);
    await expect(
      page.getByRole('main').locator('tbody tr.ant-table-row').filter({ hasText: text }),
    ).toBeVisible();
  }
});

test('collection settings: a new version is checked by the server, then listed', async ({ page }) => {
  await page.goto('/power/code/index');
  const main = page.getByRole('main');
  await expect(main.locator('tbody tr.ant-table-row').first()).toBeVisible();
  await main.getByRole('button', { name: '提交新版本' }).click();
  const dialog = page.getByRole('dialog', { name: '提交新版本' });
  await pick(page, dialog.getByRole('combobox', { name: '配置类型' }), '采集器');
  const content = dialog.getByRole('textbox', { name: /配置内容/ });
  // picking a type starts from its latest version (none on a new install): the text area waits for it, so
  // what is typed next is not replaced when it arrives
  await expect(content).toBeEnabled();
  await content.fill('{"interval": 5}');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog.getByText(/采集配置无效/)).toBeVisible();
  await content.fill(
    JSON.stringify({
      interval: 60,
      server: 'mqtt.example.com',
      port: 1883,
      addresses: [1],
      metrics: [{ metric: 'signalStrength', address: 100 }],
    }),
  );
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/已保存为第 \d+ 版/)).toBeVisible();
});

test('a month’s profit statement per household: shares and amounts, summing to the income', async ({
  page,
}) => {
  await page.goto('/power/profit/index');
  const main = page.getByRole('main');
  const row = main
    .locator('tbody tr.ant-table-row')
    .filter({ hasText: '村集体屋顶光伏电站' })
    .filter({ hasText: '2025-12' });
  await expect(row).toBeVisible();
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: '分配明细表' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('村集体屋顶光伏电站-2025-12-收益分配明细.xlsx');
  const rows = await sheetOf((await file.path())!);
  expect(rows[0]).toEqual(['受益农户', '户号', '份额', '占比', '分配金额(元)']);
  // the seed's six households hold 3, 2, 2, 1, 1, 1 shares; the last line is the total
  const lines = rows.slice(1, -1);
  expect(lines.map((r) => r[2])).toEqual(['3', '2', '2', '1', '1', '1']);
  for (const r of lines) expect(r[0]).not.toBe('');
  const total = rows[rows.length - 1];
  expect([total[0], total[2], total[3]]).toEqual(['合计', '10', '100.00%']);
  const cents = lines.reduce((a, r) => a + Math.round(Number(r[4]) * 100), 0);
  expect(cents).toBe(Math.round(Number(total[4]) * 100));
  // 14 236.4 kWh × 0.45 元/kWh = 6 406.38 元: the row's income, to the cent
  expect(total[4]).toBe('6406.38');
  await expect(row).toContainText(/6,?406\.38/);
});
