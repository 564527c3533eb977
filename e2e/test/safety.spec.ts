import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { adminToken, api } from './shell-helpers';

/**
 * Safety in the browser: a wall of four tiles where cameras' streams play (a short H.264 stream made here
 * with Debian's ffmpeg, as HLS and as HTTP-FLV, served on loopback from another origin as a camera would
 * be), one camera's stream is unreachable and one is H.265 — those tiles say so while the others keep
 * playing —, streams stop while the page is hidden, and the watch log lists the views that played (not the
 * unreachable one); the overview draws
 * its figures and charts; the camera form checks the GB/T 28181 code before sending it.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 90_000 });

let dir = '';
let streams: Server | undefined;
let streamUrl = '';
let flvUrl = '';

const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.flv': 'video/x-flv',
};

/** A test picture encoded as a camera sends it (H.264), written as `output` says. */
function encode(output: string[]) {
  execFileSync(
    'ffmpeg',
    [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=90:size=320x240:rate=10',
      ],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...output],
    ],
    { stdio: 'pipe' },
  );
}

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'safety-hls-'));
  // 90 seconds of H.264: on a busy machine the clock must still have room to advance when the test looks
  encode(['-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', join(dir, 'index.m3u8')]);
  // the same picture as HTTP-FLV (what many NVRs and media servers send), played by mpegts.js
  encode(['-f', 'flv', join(dir, 'live.flv')]);
  streams = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^[/\\.]+/,
      '',
    );
    const file = join(dir, path);
    // a camera's media server answers any origin: the console is not where the stream lives
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    if (extname(file) === '.flv') sendAsLive(file, res);
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => streams!.listen(0, '127.0.0.1', resolve));
  streamUrl = `http://127.0.0.1:${(streams.address() as AddressInfo).port}/index.m3u8`;
  flvUrl = streamUrl.replace('index.m3u8', 'live.flv');
});

/**
 * An HTTP-FLV camera sends its stream as it happens: the file goes out at about twice its playing speed
 * (a whole file at once would be a live stream already 90 s old, and the player would leap to its end).
 */
function sendAsLive(file: string, res: import('node:http').ServerResponse) {
  const bytesPerTick = Math.ceil((statSync(file).size / 90) * 2 * 0.1);
  const source = createReadStream(file, { highWaterMark: bytesPerTick });
  source.on('data', (chunk) => {
    res.write(chunk);
    source.pause();
    setTimeout(() => source.resume(), 100);
  });
  source.on('end', () => res.end());
  res.on('close', () => source.destroy());
}

test.afterAll(async () => {
  await new Promise<void>((resolve) => (streams ? streams.close(() => resolve()) : resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Picks an option of an antd select by typing part of it and clicking its exact title. */
async function pick(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await combobox.fill(option.slice(0, 8));
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).first().click();
}

/** HTMLMediaElement.NETWORK_EMPTY: no source, nothing loading */
const HTML_MEDIA_NETWORK_EMPTY = 0;
const currentTime = (video: Locator) => video.evaluate((v) => (v as HTMLVideoElement).currentTime);

test('a wall of four tiles plays an HLS and an FLV stream, says the unreachable and the H.265 one cannot play; the watch log lists the views that played', async ({
  page,
  baseURL,
}) => {
  const { access_token } = await adminToken(baseURL!);
  const client = api(baseURL!, access_token);
  const tag = String(Date.now() % 10_000_000).padStart(7, '0');
  const live = `E2E路口${tag}`;
  const dead = `E2E断线${tag}`;
  const hevc = `E2E高清${tag}`;
  const flv = `E2E河堤${tag}`;
  for (const [name, url, serial, codec, streamKind] of [
    [live, streamUrl, `1${tag.slice(1)}`, '1', '1'],
    [dead, 'http://127.0.0.1:1/none.m3u8', `2${tag.slice(1)}`, '1', '1'],
    // marked H.265: a browser without an H.265 decoder is not even asked to try
    [hevc, streamUrl, `3${tag.slice(1)}`, '2', '1'],
    [flv, flvUrl, `4${tag.slice(1)}`, '1', '2'],
  ])
    await client.post('/api/dfem-hope-manage/camera/submit', {
      name,
      deviceId: `4301000000132${serial}`,
      streamUrl: url,
      streamKind,
      codec,
      online: 1,
    });

  // the players load with the wall's tiles, as a chunk of their own
  const players: string[] = [];
  page.on('response', (r) => {
    if (/\/assets\/(hls|mpegts)-[^/]*\.js$/.test(new URL(r.url()).pathname)) players.push(r.url());
  });
  await page.goto('/safety/wall/index');
  const tiles = page.getByRole('region', { name: /^画面 \d$/ });
  await expect(tiles).toHaveCount(4);
  const first = page.getByRole('region', { name: '画面 1', exact: true });
  const second = page.getByRole('region', { name: '画面 2', exact: true });
  await pick(page, first.getByRole('combobox', { name: '画面 1 选择摄像头' }), live);
  await pick(page, second.getByRole('combobox', { name: '画面 2 选择摄像头' }), dead);

  // the unreachable stream is said to be so, with a retry at hand, instead of a spinner
  await expect(second.getByRole('alert')).toHaveText('无法连接视频流');
  await expect(second.getByRole('button', { name: /重\s*试/ })).toBeVisible();

  // and the other tile plays: its video's clock advances
  const video = first.getByLabel(live);
  await expect.poll(() => currentTime(video), { timeout: 30_000 }).toBeGreaterThan(0.3);
  const before = await currentTime(video);
  await expect.poll(() => currentTime(video), { timeout: 10_000 }).toBeGreaterThan(before + 0.5);
  await expect(first.getByRole('alert')).toHaveCount(0);
  await expect(second.getByRole('alert')).toBeVisible();
  expect(players.some((u) => /\/hls-/.test(u))).toBe(true);
  // nothing on the wall keeps a person with a screen reader or a keyboard out
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(' / ')}`),
  ).toEqual([]);

  // an H.265 camera says at once that the browser cannot decode it (where it cannot), no spinner first
  const third = page.getByRole('region', { name: '画面 3', exact: true });
  await pick(page, third.getByRole('combobox', { name: '画面 3 选择摄像头' }), hevc);
  const h265 = await page.evaluate(() => MediaSource.isTypeSupported('video/mp4; codecs="hvc1.1.6.L93.B0"'));
  if (!h265) await expect(third.getByRole('alert')).toHaveText('浏览器不支持该视频编码(H.265),无法播放');
  // the last empty tile waits for a camera
  await expect(page.getByText('未选择摄像头')).toHaveCount(1);

  // an HTTP-FLV camera plays through mpegts.js, loaded only now
  const fourth = page.getByRole('region', { name: '画面 4', exact: true });
  await pick(page, fourth.getByRole('combobox', { name: '画面 4 选择摄像头' }), flv);
  const flvVideo = fourth.getByLabel(flv);
  await expect.poll(() => currentTime(flvVideo), { timeout: 30_000 }).toBeGreaterThan(0.3);
  const flvBefore = await currentTime(flvVideo);
  await expect.poll(() => currentTime(flvVideo), { timeout: 10_000 }).toBeGreaterThan(flvBefore + 0.5);
  expect(players.some((u) => /\/mpegts-/.test(u))).toBe(true);

  // while the page is hidden the stream is stopped (the player destroyed, the video emptied); shown again,
  // it plays again
  const setHidden = (hidden: boolean) =>
    page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { value: h, configurable: true });
      Object.defineProperty(document, 'visibilityState', {
        value: h ? 'hidden' : 'visible',
        configurable: true,
      });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  await expect(first.getByText('页面不可见,视频已暂停')).toBeVisible();
  await expect
    .poll(() =>
      video.evaluate((v) => {
        const el = v as HTMLVideoElement;
        return [el.hasAttribute('src'), el.networkState, el.readyState];
      }),
    )
    .toEqual([false, HTML_MEDIA_NETWORK_EMPTY, 0]);
  await setHidden(false);
  await expect(first.getByText('页面不可见,视频已暂停')).toHaveCount(0);
  await expect.poll(() => currentTime(video), { timeout: 30_000 }).toBeGreaterThan(0.3);

  // the watch log lists the view that played, by the signed-in administrator — not the stream that never did
  await page.goto('/safety/watch-log/index');
  const table = page.getByRole('main').getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: live }).first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: live }).first()).toContainText('管理员');
  await expect(table.getByRole('row').filter({ hasText: dead })).toHaveCount(0);
  // a log is only read: nothing to add
  await expect(page.getByRole('main').getByRole('button', { name: '新增', exact: true })).toHaveCount(0);
});

test('the overview draws the tenant’s figures and charts', async ({ page }) => {
  await page.goto('/safety/overview/index');
  const figures = page.getByRole('list', { name: '平安概览' });
  const cameras = figures.getByRole('listitem').filter({ hasText: '摄像头总数' });
  await expect(cameras).toBeVisible();
  const total = Number(
    (await cameras.locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''),
  );
  expect(total).toBeGreaterThan(0);

  const online = page.getByRole('img', { name: /^摄像头在线情况: 在线 \d+, 离线 \d+$/ });
  await expect(online.locator('canvas')).toBeVisible();
  const label = (await online.getAttribute('aria-label'))!;
  const [on, off] = [...label.matchAll(/ (\d+)/g)].map((m) => Number(m[1]));
  expect(on + off).toBe(total);

  const kinds = page.getByRole('img', { name: /^事件类型分布: / });
  await expect(kinds.locator('canvas')).toBeVisible();
  expect(await kinds.getAttribute('aria-label')).toMatch(/矛盾纠纷 \d+/);
  await expect(page.getByRole('img', { name: /^近12个月事件数: / }).locator('canvas')).toBeVisible();
});

test('the camera form checks the GB/T 28181 code in the browser before anything is sent', async ({
  page,
}) => {
  await page.goto('/safety/camera/index');
  const main = page.getByRole('main');
  await expect(main.locator('tbody tr.ant-table-row').first()).toBeVisible();
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 监控摄像头/ });
  const code = dialog.getByRole('textbox', { name: /国标编码/ });
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/camera/submit')) sent.push(r.url());
  });
  // a code whose type (digits 11-13: 200, a server) is no video device
  await code.fill('43010000002000000001');
  await code.blur();
  await expect(dialog.getByText('国标编码不是摄像机或视频设备的编码')).toBeVisible();
  await code.fill('9901000000132000000');
  await code.blur();
  await expect(dialog.getByText('国标编码应为20位数字')).toBeVisible();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeVisible();
  expect(sent).toEqual([]);
});

test('joint-guarantee groups and security charges are screens of the safety folder', async ({ page }) => {
  for (const [url, tab] of [
    ['/safety/guarantee/index', '联保小组'],
    ['/safety/security/index', '治安联防'],
  ]) {
    await page.goto(url);
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    await expect(page.getByRole('main').locator('tbody tr.ant-table-row').first()).toBeVisible();
  }
});
