import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';

/**
 * First-load budgets: what Chromium downloads to show /login must stay within 150 KB (the build's login
 * guard holds it there too) and the signed-in home within 325 KB, counted as the brotli size of each JS and
 * CSS file it fetched; the heavy libraries of single pages (the video wall's players) are not among them.
 */
const dist = process.env.WEB_DIST
  ? resolve(process.env.WEB_DIST)
  : resolve(dirname(fileURLToPath(import.meta.url)), '../../apps/web/dist');

function collect(page: Page): string[] {
  const files: string[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (/\.(js|css)$/.test(path)) files.push(path);
  });
  return files;
}

function brotliBytes(files: string[]): number {
  return [...new Set(files)].reduce((sum, path) => sum + statSync(join(dist, `${path}.br`)).size, 0);
}

/** The largest files fetched, for whoever must bring a page back under its budget. */
function largest(files: string[], n = 60): string {
  return [...new Set(files)]
    .map((path) => [path, statSync(join(dist, `${path}.br`)).size] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([path, size]) => `  ${(size / 1024).toFixed(1)} KB ${path}`)
    .join('\n');
}

test('the login page loads within 150 KB of compressed JS and CSS', async ({ page }) => {
  const files = collect(page);
  await page.goto('/login');
  await expect(page.getByLabel('账号')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const bytes = brotliBytes(files);
  test.info().annotations.push({ type: 'login-br-bytes', description: String(bytes) });
  console.log(`/login: ${files.length} files, ${(bytes / 1024).toFixed(1)} KB brotli\n${largest(files)}`);
  expect(bytes).toBeLessThanOrEqual(150 * 1024);
  // nothing of the shell is fetched
  expect(files.some((f) => /Layout|PageHost|Welcome/.test(f))).toBe(false);
});

test.describe('signed in', () => {
  test.use({ storageState: authFile() });

  test('the home page loads within 325 KB of compressed JS and CSS, without the video players', async ({
    page,
  }) => {
    const files = collect(page);
    await page.goto('/wel/index');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const bytes = brotliBytes(files);
    test.info().annotations.push({ type: 'home-br-bytes', description: String(bytes) });
    console.log(
      `/wel/index: ${files.length} files, ${(bytes / 1024).toFixed(1)} KB brotli\n${largest(files)}`,
    );
    // 315 KB until the agriculture and telemetry screens: every screen's line in the page registry carries its
    // chunk's preload list in PageHost (≈ 0.1 KB each, 0.8 KB for that area), and the contracts' field kinds grew;
    // 320 KB until issue 32's shell (the sidebar's fixed logo and accordion, distinct group icons, English
    // names and unit words): measured 321.9 KB
    expect(bytes).toBeLessThanOrEqual(325 * 1024);
    // hls.js and mpegts.js load with the live video wall's tiles only
    expect(files.filter((f) => /\/(hls|mpegts)[-.]/.test(f))).toEqual([]);
  });
});
