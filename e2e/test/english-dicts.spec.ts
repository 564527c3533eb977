import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';

/**
 * Dictionary values follow the console's language: switched to English, the villager list names sex and
 * the relation to the head of household in English (the dictionaries are asked again, not kept from the
 * Chinese screen), and the overview's charts name their legends in English.
 */
test.use({ storageState: authFile() });

const cell = (table: Locator, text: string) => table.getByRole('cell', { name: text, exact: true });

async function switchTo(page: Page, from: RegExp, to: 'English' | '中文') {
  await page.getByRole('button', { name: from }).click();
  await page.getByRole('menuitem', { name: to }).click();
}

/** The names a chart's legend shows (EChart writes them beside the canvas). */
async function legendOf(chart: Locator): Promise<string[]> {
  return JSON.parse((await chart.getAttribute('data-legend')) ?? '[]');
}

test('in English the villager list and the overview charts show English dictionary values', async ({
  page,
}) => {
  await page.goto('/village/villager/index');
  const table = page.getByRole('main').getByRole('table').first();
  await expect(cell(table, '户主').first()).toBeVisible();
  await expect(cell(table, '男').first()).toBeVisible();

  await switchTo(page, /切换语言/, 'English');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(table.getByRole('columnheader', { name: 'Sex' })).toBeVisible();
  await expect(cell(table, 'Head of household').first()).toBeVisible();
  await expect(cell(table, 'Male').first()).toBeVisible();
  await expect(cell(table, 'Female').first()).toBeVisible();
  await expect(cell(table, '户主')).toHaveCount(0);
  await expect(cell(table, '男')).toHaveCount(0);

  // the overview, still in English: the political-status pie's legend and summary, the groups' bars
  await page.goto('/village/overview/index');
  const political = page.getByRole('img', { name: /^Political status: / });
  await expect(political.locator('canvas')).toBeVisible();
  await expect(political).toHaveAccessibleName(/Masses \(non-party\) \d+/);
  await expect.poll(() => legendOf(political)).toContain('Masses (non-party)');
  const legend = await legendOf(political);
  expect(legend.join(' ')).not.toMatch(/[\u4e00-\u9fff]/);
  await expect(
    page.getByRole('img', { name: /^Population by village group: Village group 1 \d+/ }),
  ).toBeVisible();
  const education = page.getByRole('img', { name: /^Education: / });
  await expect.poll(() => legendOf(education)).toContain('Primary school');
  // the pyramid's legend is the page's own words
  expect(await legendOf(page.getByRole('img', { name: /^Population by age and sex: / }))).toEqual([
    'Male',
    'Female',
  ]);

  // and back in Chinese, the same chart in Chinese
  await switchTo(page, /Switch language/, '中文');
  const zh = page.getByRole('img', { name: /^政治面貌: / });
  await expect(zh).toHaveAccessibleName(/群众 \d+/);
  await expect.poll(() => legendOf(zh)).toContain('群众');
});

test('the dictionary screen shows both values and edits the English one', async ({ page }) => {
  await page.goto('/system/dict/index');
  const main = page.getByRole('main');
  const list = main.getByRole('table').first();
  await expect(list.getByRole('columnheader', { name: '英文值' })).toBeVisible();
  const sex = main.getByRole('row', { name: /sex/ });
  await expect(cell(sex, '性别')).toBeVisible();
  await expect(cell(sex, 'Sex')).toBeVisible();

  await sex.getByRole('button', { name: '字典配置', exact: true }).click();
  const entries = page.getByRole('dialog', { name: /字典配置 · 性别/ });
  await expect(cell(entries.getByRole('row', { name: /男/ }), 'Male')).toBeVisible();
  const unknown = entries.getByRole('row', { name: /未知/ });
  const setEnglish = async (value: string) => {
    await unknown.getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /编辑 · 字典配置/ });
    await dialog.getByPlaceholder('请输入英文值').fill(value);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(dialog).toBeHidden();
    await expect(cell(unknown, value)).toBeVisible();
  };
  await setEnglish('Not known');
  await setEnglish('Unknown');
  await page.keyboard.press('Escape');
  await expect(entries).toBeHidden();

  // in English the management list still shows both values as they are
  await switchTo(page, /切换语言/, 'English');
  await expect(list.getByRole('columnheader', { name: 'English value' })).toBeVisible();
  await expect(cell(sex, '性别')).toBeVisible();
  await expect(cell(sex, 'Sex')).toBeVisible();
});

test('in English every area overview names its chart legends in English', async ({ page }) => {
  test.slow(); // five overviews, each drawing its charts
  await page.goto('/wel/index');
  await page.evaluate(() =>
    localStorage.setItem('saber-language', JSON.stringify({ state: { language: 'en' }, version: 0 })),
  );
  let named = 0;
  for (const path of [
    '/village/overview/index',
    '/party/overview/index',
    '/relief/overview/index',
    '/assistance/overview/index',
    '/safety/overview/index',
  ]) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // the figures arrive, then the charts are drawn (an empty chart has no legend to name)
    await expect(page.locator('[role="img"] canvas').first(), path).toBeVisible();
    const legends = await page
      .locator('[role="img"][data-legend]')
      .evaluateAll((els) => els.map((el) => [el.getAttribute('aria-label'), el.getAttribute('data-legend')]));
    for (const [label, legend] of legends) {
      const names: string[] = JSON.parse(legend ?? '[]');
      expect(names.join(' '), `${path} ${label}`).not.toMatch(/[\u4e00-\u9fff]/);
      named += names.length;
    }
  }
  expect(named).toBeGreaterThan(10);
});
