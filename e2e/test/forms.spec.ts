import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { day, pick, save } from './form-helpers';

/**
 * How forms accept and refuse (issue 32): a refusal of the server is said once, on its field, with a quiet
 * console; a day to come is not offered where none can be; a rule between two fields (a plot held by a
 * household names the household) is checked before anything is sent; the plot's boundary reads as a small
 * map with its area and its map says how to get a base map; English placeholders are sentences.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 90_000 });

const fieldError = (dialog: Locator, msg: string) =>
  dialog.locator('.ant-form-item-explain-error').getByText(msg, { exact: true });
const suffix = String(Date.now() % 100000).padStart(5, '0');

/** Console errors and uncaught errors, but the browser's own line about a refused request's status. */
function watchConsole(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/the server responded with a status of 400/.test(m.text())) return;
    errors.push(`console: ${m.text()}`);
  });
  return errors;
}

async function openVehicles(page: Page) {
  await page.goto('/village/vehicle/index');
  await expect(page.getByRole('main').getByRole('table').first()).toBeVisible();
}

async function fillVehicle(page: Page, dialog: Locator, plate: string) {
  await dialog.getByPlaceholder('请输入车牌号码').fill(plate);
  await pick(page, dialog.getByRole('combobox', { name: '请选择车辆类型' }), '小型汽车');
  await pick(page, dialog.getByRole('combobox', { name: '请选择使用性质' }), '自用');
  await pick(page, dialog.getByRole('combobox', { name: '请选择车主' }));
}

test('a value the server refuses (a plate already registered) is said once, on its field, with a quiet console', async ({
  page,
}) => {
  const errors = watchConsole(page);
  await openVehicles(page);
  const main = page.getByRole('main');
  const plate = `湘A${suffix}`;
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const first = page.getByRole('dialog', { name: /新增 · 车辆管理/ });
  await fillVehicle(page, first, plate);
  await save(first).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(first).toBeHidden();

  await main.getByRole('button', { name: '新增', exact: true }).click();
  const again = page.getByRole('dialog', { name: /新增 · 车辆管理/ });
  await fillVehicle(page, again, plate);
  const refused = page.waitForResponse((r) => r.url().includes('/vehicle/submit'));
  await save(again).click();
  expect((await refused).status()).toBe(400);
  // once: under the field, and nowhere else (no toast saying it again)
  await expect(fieldError(again, '车牌号码已存在')).toBeVisible();
  await expect(page.getByText('车牌号码已存在')).toHaveCount(1);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  // the form is as it was, ready to be corrected
  await expect(again.getByPlaceholder('请输入车牌号码')).toBeEnabled();
  await again.getByPlaceholder('请输入车牌号码').fill(`湘B${suffix}`);
  await expect(fieldError(again, '车牌号码已存在')).toHaveCount(0);
  await again.getByRole('button', { name: /取\s*消/ }).click();
  expect(errors).toEqual([]);
});

test('a day to come is not offered where none can be: the registration day’s picker stops at today', async ({
  page,
}) => {
  await openVehicles(page);
  await page.getByRole('main').getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 车辆管理/ });
  await dialog.getByRole('textbox', { name: '登记日期' }).click();
  const panel = page.locator('.ant-picker-dropdown:visible');
  // today and before are offered; tomorrow (the deployment's day: Asia/Shanghai) is not
  await expect(panel.locator(`td[title="${day(0)}"]`)).not.toHaveClass(/ant-picker-cell-disabled/);
  await expect(panel.locator(`td[title="${day(-1)}"]`)).not.toHaveClass(/ant-picker-cell-disabled/);
  await expect(panel.locator(`td[title="${day(1)}"]`)).toHaveClass(/ant-picker-cell-disabled/);
  // the plan-like days elsewhere keep their future (a task's deadline is not declared so): checked by the
  // definitions' unit test; here, a typed day to come is not taken either
  const box = dialog.getByRole('textbox', { name: '登记日期' });
  await box.fill(day(3));
  await box.press('Enter');
  await dialog.locator('.ant-modal-title').click();
  await expect(box).not.toHaveValue(day(3));
  await box.fill(day(-2));
  await box.press('Enter');
  await expect(box).toHaveValue(day(-2));
});

test('a plot held by a household names it: the form refuses before sending, from the rule the server runs', async ({
  page,
}) => {
  await page.goto('/agriculture/plot/index');
  const main = page.getByRole('main');
  await expect(main.getByRole('table').first()).toBeVisible();
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /smartPlant\/plot\/(upsert|submit)/.test(r.url())) sent.push(r.url());
  });
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 地块管理/ });
  await dialog.getByRole('textbox', { name: '地块名称' }).fill(`规则地块${suffix}`);
  await dialog
    .getByRole('textbox', { name: '地块边界' })
    .fill('[[112.9381,28.2281],[112.9391,28.2281],[112.9391,28.2291],[112.9381,28.2291]]');
  await pick(page, dialog.getByRole('combobox', { name: '请选择经营主体' }), '农户');
  await save(dialog).click();
  await expect(fieldError(dialog, '请选择承包农户')).toBeVisible();
  expect(sent).toEqual([]);
  // the other holders do not need a household
  await pick(page, dialog.getByRole('combobox', { name: '请选择经营主体' }), '村集体');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  expect(sent).toHaveLength(1);
});

test('a plot’s boundary reads as a small map with its area; the map says how to get a base map', async ({
  page,
}) => {
  await page.goto('/agriculture/plot/index');
  const main = page.getByRole('main');
  const row = main.getByRole('row', { name: /东湾一号田/ });
  await expect(row).toBeVisible({ timeout: 30_000 });
  // in the list: a small map, named by its corners and its area, not the JSON
  await expect(row.getByRole('img', { name: /个角点的区域, 面积 \d+\.\d{2} 亩/ })).toBeVisible();
  await expect(row).not.toContainText('[[');
  await row.getByRole('button', { name: '查看', exact: true }).click();
  const view = page.getByRole('dialog', { name: /地块管理/ });
  await expect(view.getByRole('img', { name: /个角点的区域/ })).toBeVisible();
  await expect(view.getByTestId('polygon-area')).toHaveText(/^面积 \d+\.\d{2} 亩\([\d,]+ 平方米\)$/);
  await expect(view).not.toContainText('[[');
  await page.keyboard.press('Escape');

  await main.getByRole('tab', { name: '地图' }).click();
  const prompt = main.getByTestId('map-key-prompt');
  await expect(prompt).toContainText('未配置底图密钥');
  await expect(prompt).toContainText('系统管理 › 参数管理');
  await expect(prompt).toContainText('agriculture.map.key');
  await prompt.getByRole('link', { name: '前往参数管理' }).click();
  await expect(page).toHaveURL(/\/system\/param\/index$/);
});

test('English placeholders are sentences with an article; the labels keep their capitals', async ({
  page,
}) => {
  await page.addInitScript(() =>
    localStorage.setItem('saber-language', JSON.stringify({ state: { language: 'en' }, version: 0 })),
  );
  await page.goto('/village/villager/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Add · Villagers/ });
  await expect(dialog.getByPlaceholder('Please enter the name', { exact: true })).toBeVisible();
  await expect(dialog.getByPlaceholder('Please enter the ID number', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Please select a sex' })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Please select a village group' })).toBeVisible();
  await expect(dialog.getByText('Sex', { exact: true })).toBeVisible();
  // no placeholder in the form reads "Please select Sex"
  const placeholders = await dialog
    .locator('input[placeholder], textarea[placeholder], .ant-select-placeholder')
    .evaluateAll((els) =>
      els
        .map((e) => e.getAttribute('placeholder') ?? e.textContent ?? '')
        .filter((p) => p.startsWith('Please')),
    );
  expect(placeholders.length).toBeGreaterThan(3);
  for (const p of placeholders) expect(p).toMatch(/^Please (enter|select) (a|an|the|who|whether)\b/);
});
