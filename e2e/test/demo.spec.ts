import type { ConsoleMessage, Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { adminToken, api } from './shell-helpers';

/**
 * The demo shows itself on a fresh start (issue 32, item 5): the server this run started (a fresh data
 * folder) makes its demo camera streams in the background and serves them itself; a camera of the wall
 * then plays one, its view is logged once it played (a dead stream's is not), and 电站实时 plays its
 * station's camera without a console error.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 180_000 });

/** Waits until the server has made its demo streams (it starts without them: made in the background). */
async function streamsReady(baseURL: string) {
  const started = Date.now();
  await expect
    .poll(async () => (await fetch(`${baseURL}/demo-video/gate/index.m3u8`)).status, { timeout: 150_000 })
    .toBe(200);
  await expect
    .poll(async () => (await fetch(`${baseURL}/demo-video/pv-2/index.m3u8`)).status, { timeout: 150_000 })
    .toBe(200);
  console.log(`demo streams ready ${Date.now() - started} ms after the test asked`);
}

/** Picks an option of an antd select by typing part of it and clicking its exact title. */
async function pick(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await combobox.fill(option.slice(0, 8));
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).first().click();
}

const currentTime = (video: Locator) => video.evaluate((v) => (v as HTMLVideoElement).currentTime);

/** the watch log's rows of a camera */
async function watches(baseURL: string, cameraId: string) {
  const { access_token } = await adminToken(baseURL);
  const page = await api(baseURL, access_token).get<{ records: unknown[] }>(
    `/api/dfem-hope-manage/cameraWatchLog/page?current=1&size=50&cameraId=${cameraId}`,
  );
  return page.records.length;
}

test('a fresh start plays a demo camera on the wall; the view is logged once it played, a dead stream’s never', async ({
  page,
  baseURL,
}) => {
  await streamsReady(baseURL!);
  const { access_token } = await adminToken(baseURL!);
  const client = api(baseURL!, access_token);
  const tag = String(Date.now() % 10_000_000).padStart(7, '0');
  const dead = `E2E无信号${tag}`;
  await client.post('/api/dfem-hope-manage/camera/submit', {
    name: dead,
    deviceId: `4301000000132${tag}`,
    streamUrl: 'http://127.0.0.1:1/none.m3u8',
    streamKind: '1',
    codec: '1',
    online: 1,
  });
  const wall = await client.get<{ id: string; name: string; streamUrl: string }[]>(
    '/api/dfem-hope-manage/camera/wall',
  );
  const gate = wall.find((c) => c.name === '村口卡口')!;
  const deadCam = wall.find((c) => c.name === dead)!;
  expect(gate.streamUrl).toBe('/demo-video/gate/index.m3u8');
  const gateBefore = await watches(baseURL!, gate.id);

  await page.goto('/safety/wall/index');
  const first = page.getByRole('region', { name: '画面 1', exact: true });
  const second = page.getByRole('region', { name: '画面 2', exact: true });
  await pick(page, second.getByRole('combobox', { name: '画面 2 选择摄像头' }), dead);
  await pick(page, first.getByRole('combobox', { name: '画面 1 选择摄像头' }), '村口卡口(村口主干道)');

  // the demo camera plays: its video's clock advances, and `playing` fired (the tile shows no overlay)
  const video = first.getByLabel('村口卡口');
  await expect.poll(() => currentTime(video), { timeout: 60_000 }).toBeGreaterThan(0.3);
  const before = await currentTime(video);
  await expect.poll(() => currentTime(video), { timeout: 20_000 }).toBeGreaterThan(before + 0.5);
  await expect(first.getByRole('alert')).toHaveCount(0);
  await expect(first.getByText('正在连接')).toHaveCount(0);
  // the dead one says so
  await expect(second.getByRole('alert')).toHaveText('无法连接视频流');

  // the view that played is logged, once; the dead stream's never (not even after its retries)
  await expect.poll(() => watches(baseURL!, gate.id), { timeout: 20_000 }).toBe(gateBefore + 1);
  await expect(second.getByText(/已自动重试/)).toBeVisible({ timeout: 60_000 });
  expect(await watches(baseURL!, deadCam.id)).toBe(0);
  expect(await watches(baseURL!, gate.id)).toBe(gateBefore + 1);
});

test('电站实时 plays its station’s camera with no console error, on either station', async ({
  page,
  baseURL,
}) => {
  await streamsReady(baseURL!);
  const errors: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto('/power/live/index');
  const cameras = page.locator('.ant-card').filter({ has: page.getByText('电站视频', { exact: true }) });
  const video = cameras.locator('video');
  await expect(video).toHaveCount(1, { timeout: 30_000 });
  await expect.poll(() => currentTime(video), { timeout: 60_000 }).toBeGreaterThan(0.3);
  await expect(cameras.getByRole('alert')).toHaveCount(0);

  // the other station: its own camera plays too
  await page.getByRole('combobox', { name: '选择电站' }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('三组农户光伏电站', { exact: true }).click();
  await expect(video).toHaveAttribute('aria-label', '二号电站逆变器房', { timeout: 30_000 });
  await expect.poll(() => currentTime(video), { timeout: 60_000 }).toBeGreaterThan(0.3);
  expect(errors).toEqual([]);
});
