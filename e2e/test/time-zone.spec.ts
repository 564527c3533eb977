import { authFile, expect, test } from './fixtures';

/**
 * Every time on screen is in the deployment's time zone (the server's TZ, Asia/Shanghai here), whatever the
 * browser's: a clerk whose browser is set to UTC sees a device's 最近上报 and 创建时间 as Beijing times, and
 * the home's date is the deployment's day.
 */
test.use({ storageState: authFile(), timezoneId: 'UTC' });

/** now as the deployment's wall clock, in ms (Beijing is UTC+8 all year) */
const beijingNow = () => Date.now() + 8 * 3_600_000;
const wallMs = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

test('a browser in UTC shows a device’s last report and creation time in Beijing time', async ({ page }) => {
  await page.goto('/agriculture/device/index');
  const main = page.getByRole('main');
  await main.getByRole('textbox', { name: '设备编号' }).fill('WS-0001');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  const row = page.getByRole('row', { name: /WS-0001/ });
  await expect(row).toBeVisible();
  const times = (await row.innerText()).match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?/g) ?? [];
  // the last report (the seed's and the simulator's readings are recent) and the row's creation time
  expect(times.length).toBeGreaterThanOrEqual(2);
  for (const t of times) {
    // within a few hours of Beijing's now; a time in UTC would be eight hours behind it
    expect(Math.abs(beijingNow() - wallMs(t.length === 16 ? `${t}:00` : t)), t).toBeLessThan(3 * 3_600_000);
  }
});
