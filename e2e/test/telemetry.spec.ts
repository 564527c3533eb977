import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';

/**
 * The telemetry core in the browser: a device's chart follows the readings while the simulator publishes
 * them over MQTT to the server's broker; a reading past a threshold (sent over HTTP, signed as the demo
 * station signs) raises an alarm that appears in 设备告警, said in words, and is acknowledged and closed.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 120_000 });

const root = fileURLToPath(new URL('../..', import.meta.url));
/** the demo stations sign with a secret derived from their serial (apps/server/src/modules/telemetry/simulator.ts) */
const demoSecret = (serial: string) =>
  createHmac('sha256', 'smart-demo-device').update(serial).digest('base64url');
function signed(serial: string, data: unknown) {
  const text = JSON.stringify(data);
  return { data: text, sig: createHmac('sha256', demoSecret(serial)).update(text).digest('hex') };
}

let simulator: ChildProcess | undefined;
test.afterEach(() => {
  simulator?.kill('SIGTERM');
  simulator = undefined;
});

test("a device's chart follows the readings the simulator publishes", async ({ page }) => {
  await page.goto('/agriculture/device/index');
  const main = page.getByRole('main');
  // the station among every device of the village (the power stations' inverters and collectors too)
  await main.getByRole('textbox', { name: '设备编号' }).fill('WS-0001');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  const row = page.getByRole('row', { name: /WS-0001/ });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '曲线' }).click();
  const drawer = page.getByRole('dialog', { name: /村部气象站 的数据曲线/ });
  await expect(drawer.getByRole('img', { name: /空气温度/ })).toBeVisible();
  const last = drawer.getByTestId('chart-last');
  await expect(last).not.toHaveText('');
  const before = Number((await last.textContent())?.split(':')[0]);
  simulator = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/tools/simulate.ts',
      '--url',
      process.env.E2E_MQTT_URL!,
      '--rate',
      '2',
      '--duration',
      '60',
    ],
    { cwd: root, stdio: 'ignore' },
  );
  // the chart reads again every 10 seconds: a newer point than the one shown arrives
  await expect
    .poll(async () => Number((await last.textContent())?.split(':')[0]), { timeout: 45_000 })
    .toBeGreaterThan(before);
  // the list says the station is online
  await drawer
    .getByRole('button', { name: /close|关闭/i })
    .first()
    .click();
  // the list follows the readings too (it reads itself again every 15 seconds)
  await expect(row.getByText('在线')).toBeVisible({ timeout: 30_000 });
});

test('a reading past its threshold raises an alarm, which is acknowledged and closed', async ({
  page,
  request,
  baseURL,
}) => {
  const res = await request.post(`${baseURL}/api/telemetry/000000/1/WS-0001/up`, {
    data: signed('WS-0001', { values: { airTemperature: 45.5 } }),
  });
  expect(res.status()).toBe(200);
  await page.goto('/agriculture/alarm/index');
  const row = page.getByRole('row', { name: /空气温度 45\.5 ℃ 高于上限 38\.0 ℃/ });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText('未处理')).toBeVisible();
  await row.getByRole('button', { name: '确认' }).click();
  await expect(row.getByText('已确认')).toBeVisible();
  await row.getByRole('button', { name: '关闭' }).click();
  const dialog = page.getByRole('dialog', { name: '关闭告警' });
  await dialog.getByRole('button', { name: /OK|确 定|确定/ }).click();
  await expect(dialog.getByText('请填写处理说明')).toBeVisible();
  await dialog.getByLabel('处理说明').fill('已开启大棚通风');
  await dialog.getByRole('button', { name: /OK|确 定|确定/ }).click();
  await expect(row.getByText('已关闭')).toBeVisible();
});

test('the weather page shows the station, its latest values and today’s range', async ({ page }) => {
  await page.goto('/agriculture/weather/index');
  await expect(page.getByRole('button', { name: /村部气象站/ })).toBeVisible();
  await expect(page.getByText('空气温度').first()).toBeVisible();
  await expect(page.getByText(/今日 .* ~ /).first()).toBeVisible();
  await page.goto('/agriculture/pest/index');
  await expect(page.getByRole('img', { name: /近 30 天虫情: 稻飞虱 \d+/ })).toBeVisible();
});

test('a new device’s secret dialog says what it connects with, and it connects with that', async ({
  page,
}) => {
  await page.goto('/agriculture/device/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: /新\s*增/ }).click();
  const form = page.getByRole('dialog', { name: /新增 · 设备管理/ });
  const serial = `E2E-${Date.now() % 100000}`;
  await form.getByRole('textbox', { name: '设备名称' }).fill('连接测试气象站');
  await pick(page, form.getByRole('combobox', { name: '设备类型' }), '气象站');
  await form.getByRole('textbox', { name: '设备编号' }).fill(serial);
  await save(form).click();
  const dialog = page.getByRole('dialog', { name: '设备密钥' });
  await expect(dialog).toBeVisible();
  const secret = (await dialog.getByTestId('device-secret').textContent())?.trim() ?? '';
  const clientId = (await dialog.getByTestId('device-client-id').textContent())?.trim() ?? '';
  const password = (await dialog.getByTestId('device-connect-password').textContent())?.trim() ?? '';
  expect(clientId).toBe(`000000/1/${serial}`);
  await expect(dialog.getByText('客户端 ID / 用户名')).toBeVisible();
  await expect(dialog.getByText('连接密码', { exact: true })).toBeVisible();
  await expect(dialog.getByText(`MQTT 主题:000000/1/${serial}/up`)).toBeVisible();
  // the connect password is the one derived from the secret, and the broker lets the device in with it
  expect(password).toBe(createHmac('sha256', secret).update(`mqtt:${clientId}`).digest('hex'));
  const mqtt = (await import('mqtt')).default;
  const device = await mqtt.connectAsync(process.env.E2E_MQTT_URL!, {
    clientId,
    username: clientId,
    password,
    reconnectPeriod: 0,
  });
  expect(device.connected).toBe(true);
  await device.endAsync();
  // without it, the broker refuses
  await expect(
    mqtt.connectAsync(process.env.E2E_MQTT_URL!, { clientId, reconnectPeriod: 0 }),
  ).rejects.toThrow();
});
