import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { adminToken, api } from './shell-helpers';

/**
 * Assistance and care in the browser: the overview draws the tenant's real figures (bars of budget and
 * spend per unit, a pie of projects by status, equal to the rows the API lists); a project added through the
 * form (a spend over its budget refused first); news whose rich text comes back cleaned in the view; a care
 * video uploaded as an MP4 that plays in the player dialog.
 */
test.use({ storageState: authFile() });
// one after another: the overview compares its figures with the rows, which the other tests add to
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const save = (dialog: Locator) => dialog.getByRole('button', { name: /保\s*存/ });
const rowOf = (page: Page, text: string) => page.getByRole('main').getByRole('row').filter({ hasText: text });
const suffix = () => Date.now().toString(36).slice(-5);

/** Picks an option of an antd select by its visible text. */
async function pick(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).first().click();
}

interface Page2<T> {
  records: T[];
  total: number;
}
type ProjectRow = { unitId: string; unitName: string; budget: string; spend: string; projectStatus: string };

test('the overview draws the figures of the rows', async ({ page, baseURL }) => {
  const { access_token } = await adminToken(baseURL!);
  const client = api(baseURL!, access_token);
  const rows = await client.get<Page2<ProjectRow>>(
    '/api/dfem-hope-manage/assistanceProject/page?current=1&size=100',
  );
  const budget = rows.records.reduce((a, r) => a + Number(r.budget), 0);
  const team = rows.records.filter((r) => r.unitName === '青山村驻村工作队');
  const teamBudget = team.reduce((a, r) => a + Number(r.budget), 0);
  const teamSpend = team.reduce((a, r) => a + Number(r.spend), 0);

  await page.goto('/assistance/overview/index');
  const figures = page.getByRole('list', { name: '帮扶概览' });
  const figure = (label: string) =>
    figures.getByRole('listitem').filter({ hasText: label }).locator('.ant-statistic-content-value');
  await expect(figure('帮扶项目')).toHaveText(String(rows.total));
  expect(Number((await figure('预算资金(元)').innerText()).replace(/[^\d.]/g, ''))).toBe(budget);

  const bars = page.getByRole('img', { name: /^各单位预算与支出: / });
  await expect(bars.locator('canvas')).toBeVisible();
  const label = (await bars.getAttribute('aria-label'))!;
  expect(label).toContain(`青山村驻村工作队 预算 ${teamBudget} 支出 ${teamSpend}`);
  const budgets = [...label.matchAll(/预算 ([\d.]+)/g)].reduce((a, m) => a + Number(m[1]), 0);
  expect(Math.round(budgets * 100) / 100).toBe(budget);

  const pie = page.getByRole('img', { name: /^项目状态分布: / });
  await expect(pie.locator('canvas')).toBeVisible();
  const pieLabel = (await pie.getAttribute('aria-label'))!;
  const underWay = rows.records.filter((r) => r.projectStatus === '2').length;
  expect(pieLabel).toContain(`实施中 ${underWay}`);
  const counted = [...pieLabel.matchAll(/ (\d+)(?:,|$)/g)].reduce((a, m) => a + Number(m[1]), 0);
  expect(counted).toBe(rows.total);
});

test('a project is added through the form; a spend over its budget is refused', async ({ page }) => {
  const name = `光伏帮扶项目${suffix()}`;
  await page.goto('/assistance/project/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 帮扶项目/ });
  await dialog.getByPlaceholder('请输入项目名称').fill(name);
  await pick(page, dialog.getByRole('combobox', { name: '请选择帮扶单位' }), '青山村驻村工作队');
  await pick(page, dialog.getByRole('combobox', { name: '请选择项目类别' }), '产业帮扶');
  await dialog.getByRole('spinbutton', { name: '请输入预算资金' }).fill('80000');
  await dialog.getByRole('spinbutton', { name: '请输入已支出' }).fill('90000');
  for (const [placeholder, day] of [
    ['开始日期', '2026-03-01'],
    ['结束日期', '2026-11-30'],
  ]) {
    const box = dialog.getByPlaceholder(placeholder, { exact: true });
    await box.click();
    await box.fill(day);
    await box.press('Enter');
  }
  await dialog.getByRole('spinbutton', { name: '请输入进度' }).fill('35');
  await pick(page, dialog.getByRole('combobox', { name: '请选择项目状态' }), '实施中');
  await save(dialog).click();
  await expect(dialog.getByText('已支出不能超过预算资金')).toBeVisible();
  await dialog.getByRole('spinbutton', { name: '请输入已支出' }).fill('30000');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  const row = rowOf(page, name);
  await expect(row).toBeVisible();
  await expect(row).toContainText('青山村驻村工作队');
  await expect(row).toContainText('2026-03-01');
  await expect(row).toContainText('实施中');
});

test('news with rich text is saved, and shown cleaned in the view', async ({ page, baseURL }) => {
  const alerts: string[] = [];
  page.on('dialog', (d) => {
    alerts.push(d.message());
    void d.dismiss();
  });
  // typed in the form's editor, with bold from its toolbar
  const title = `油茶丰收${suffix()}`;
  await page.goto('/assistance/information/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 新闻资讯/ });
  await dialog.getByPlaceholder('请输入标题').fill(title);
  await pick(page, dialog.getByRole('combobox', { name: '请选择资讯类别' }), '帮扶动态');
  const editor = dialog.getByRole('textbox', { name: '请输入内容' });
  await editor.click();
  await dialog.getByRole('button', { name: '加粗' }).click();
  await page.keyboard.type('首批油茶');
  await dialog.getByRole('button', { name: '加粗' }).click();
  await page.keyboard.type('喜获丰收');
  await pick(page, dialog.getByRole('combobox', { name: '请选择发布状态' }), '已发布');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await rowOf(page, title).getByRole('button', { name: '查看' }).click();
  const view = page.getByRole('dialog', { name: /查看 · 新闻资讯/ });
  await expect(view.locator('b, strong', { hasText: '首批油茶' })).toBeVisible();
  await expect(view.getByText('喜获丰收')).toBeVisible();
  await view
    .getByRole('button', { name: /关\s*闭|Close/ })
    .first()
    .click();

  // what an editor never makes, sent straight to the API: the server keeps none of it
  const { access_token } = await adminToken(baseURL!);
  const hostile = `清洗检查${suffix()}`;
  await api(baseURL!, access_token).post('/api/dfem-hope-manage/information/submit', {
    title: hostile,
    category: '1',
    publishStatus: '2',
    content:
      '<p>正文<em>强调</em></p><script>alert("script")</script><img src="x" onerror="alert(\'img\')"><p onmouseover="alert(\'over\')">悬停</p>',
  });
  await page.reload();
  await rowOf(page, hostile).getByRole('button', { name: '查看' }).click();
  const view2 = page.getByRole('dialog', { name: /查看 · 新闻资讯/ });
  await expect(view2.locator('em', { hasText: '强调' })).toBeVisible();
  await view2.getByText('悬停').hover();
  await expect(view2.locator('script, [onerror], [onmouseover], img')).toHaveCount(0);
  const stored = await api(baseURL!, access_token).get<{ records: { title: string; content: string }[] }>(
    `/api/dfem-hope-manage/information/page?current=1&size=10&title=${encodeURIComponent(hostile)}`,
  );
  expect(stored.records[0].content).not.toMatch(/script|onerror|onmouseover|alert/);
  expect(alerts).toEqual([]);
});

test('a care video uploaded as an MP4 plays in the player dialog', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'assist-e2e-'));
  const file = join(dir, '关爱老人.mp4');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=4:size=160x120:rate=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    file,
  ]);
  const title = `重阳关爱${suffix()}`;
  await page.goto('/assistance/video/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 关爱视频/ });
  await dialog.getByPlaceholder('请输入视频标题').fill(title);
  await pick(page, dialog.getByRole('combobox', { name: '请选择视频类别' }), '关爱老人');
  await dialog.locator('input[type=file][accept*="mp4"]').setInputFiles(file);
  await expect(dialog.getByText(/已上传视频: [0-9a-f-]{36}\.mp4/)).toBeVisible();
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();

  const play = rowOf(page, title).getByRole('button', { name: `播放 ${title}` });
  await play.focus();
  await page.keyboard.press('Enter');
  const player = page.getByRole('dialog', { name: `播放:${title}` });
  const video = player.locator(`video[aria-label="${title}"]`);
  await expect(video).toBeVisible();
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('src', /^\/api\/dfem-hope-manage\/file\/video\/[0-9a-f-]{36}\.mp4$/);
  // autoplay may be held back by the browser's policy: then the player's own play starts it
  await video.evaluate((v: HTMLVideoElement) => (v.paused ? v.play() : undefined));
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
  expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
  // the dialog and its player pass the accessibility rules that matter
  const axe = await new AxeBuilder({ page }).include('.ant-modal').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  // the player's own controls are reached from the keyboard
  await video.focus();
  await expect(video).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(player).toBeHidden();
});
