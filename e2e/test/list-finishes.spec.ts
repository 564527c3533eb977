import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';

/**
 * Issue 32's finishes of how lists show values, as a person sees them: at 1440 × 900, in Chinese and in
 * English, no cell of a list lies under the fixed 操作 column (row actions past three fold into 更多); ID
 * numbers and mobiles are masked in a list and whole in its 查看; an empty cell reads —, never null; an
 * alarm's metric reads as its name; a task's progress is a bar with its %, its grade agrees with its score;
 * the view of a computed record shows what the server computed.
 */
test.use({ storageState: authFile(), viewport: { width: 1440, height: 900 } });

const SCREENS: [route: string, zh: string][] = [
  ['/assistance/project', '帮扶项目'],
  ['/relief/monitor', '防返贫监测'],
  ['/agriculture/device', '设备管理'],
  ['/agriculture/plot', '地块管理'],
];

async function switchTo(page: Page, from: RegExp, to: 'English') {
  await page.getByRole('button', { name: from }).click();
  await page.getByRole('menuitem', { name: to }).click();
}

/**
 * The cells of the list's rows that the fixed 操作 cell covers, at the table's own scroll position: each
 * as `column: text`, with the widths that decide it printed (no timed assertion: a layout measure).
 */
async function hiddenUnderActions(page: Page, name: string): Promise<string[]> {
  const table = page.getByRole('main').locator('.ant-table').first();
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();
  const measured = await table.evaluate((el) => {
    const box = el.querySelector('.ant-table-content, .ant-table-body') as HTMLElement | null;
    const hidden: string[] = [];
    const heads = [...el.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    for (const row of el.querySelectorAll('tbody tr.ant-table-row')) {
      const cells = [...row.querySelectorAll(':scope > td')] as HTMLElement[];
      const actions = cells.at(-1);
      if (!actions) continue;
      const a = actions.getBoundingClientRect();
      const view = box?.getBoundingClientRect();
      for (const [i, td] of cells.slice(0, -1).entries()) {
        if (td.classList.contains('ant-table-selection-column')) continue;
        const r = td.getBoundingClientRect();
        // a cell past the table's visible edge is scrolled out of view, not hidden under 操作
        const inView = !view || r.left < view.right;
        if (inView && r.right > a.left + 1 && r.left < a.right) hidden.push(`${heads[i]}: ${td.textContent}`);
      }
    }
    const columns = [...el.querySelectorAll('thead th')].map(
      (th) => `${th.textContent?.trim()} ${Math.round(th.getBoundingClientRect().width)}`,
    );
    return { hidden, width: box?.scrollWidth, room: box?.clientWidth, columns };
  });
  console.log(`${name}: the table is ${measured.width} px wide in ${measured.room} px`);
  // the columns' widths say which one is too wide
  if (measured.hidden.length) console.log(`  ${measured.columns.join(' · ')}`);
  return measured.hidden;
}

for (const lang of ['zh', 'en'] as const) {
  test(`at 1440 × 900 no cell lies under the 操作 column (${lang})`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto('/wel/index');
    if (lang === 'en') await switchTo(page, /切换语言/, 'English');
    for (const [route, zh] of SCREENS) {
      await page.goto(`${route}/index`);
      await expect(page.getByRole('main').locator('tbody tr.ant-table-row').first()).toBeVisible();
      expect(await hiddenUnderActions(page, `${zh} ${lang}`), `${zh} (${lang})`).toEqual([]);
      // and no cell reads null
      await expect(page.getByRole('main').getByRole('cell', { name: 'null', exact: true })).toHaveCount(0);
    }
  });
}

test('a list masks ID numbers and mobiles; 查看 shows them whole', async ({ page }) => {
  await page.goto('/village/villager/index');
  const table = page.getByRole('main').getByRole('table').first();
  const first = table.locator('tbody tr.ant-table-row').first();
  await expect(first).toBeVisible();
  // the list: an ID number as 430181********1234, a mobile as 138****5678
  const text = (await table.locator('tbody').textContent()) ?? '';
  expect(text).toMatch(/\d{6}\*{8}[\dX]{4}/);
  expect(text).toMatch(/1\d{2}\*{4}\d{4}/);
  expect(text).not.toMatch(/\d{17}[\dX]/);
  // the view of a row with a mobile: the whole numbers
  await table
    .locator('tbody tr.ant-table-row')
    .filter({ hasText: /1\d{2}\*{4}\d{4}/ })
    .filter({ hasText: /\d{6}\*{8}/ })
    .first()
    .getByRole('button', { name: '查看' })
    .click();
  const view = page.getByRole('dialog', { name: /查看/ });
  await expect(view.getByText(/^\d{17}[\dX]$/).first()).toBeVisible();
  await expect(view.getByText(/^1\d{10}$/).first()).toBeVisible();
  await expect(view).not.toContainText('****');
});

test('设备告警: an empty reading reads —, a metric by its name', async ({ page }) => {
  await page.goto('/agriculture/alarm/index');
  const body = page.getByRole('main').locator('.ant-table tbody').first();
  await expect(body.locator('tr.ant-table-row').first()).toBeVisible();
  await expect(body.getByRole('cell', { name: 'null', exact: true })).toHaveCount(0);
  // a threshold alarm names its metric as the catalogue does, never by its code
  const text = (await body.textContent()) ?? '';
  expect(text).not.toMatch(/\b(?:soil|air|pest|wind|tilt)[A-Z]\w*/);
});

test('任务考核: progress is a bar with its %, the grade agrees with the score, empty cells read —', async ({
  page,
}) => {
  await page.goto('/village/task/index');
  const body = page.getByRole('main').locator('.ant-table tbody').first();
  await expect(body.locator('tr.ant-table-row').first()).toBeVisible();
  await expect(body.getByRole('progressbar').first()).toBeVisible();
  await expect(body.getByText('100%').first()).toBeVisible();
  await expect(body.getByRole('cell', { name: 'null', exact: true })).toHaveCount(0);
  await expect(body.getByRole('cell', { name: '—', exact: true }).first()).toBeVisible();
  // a scored row: 90 and above 优秀, 75 and above 称职
  for (const row of await body.locator('tr.ant-table-row').all()) {
    const cells = await row.getByRole('cell').allTextContents();
    const score = cells.map((c) => c.trim()).find((c) => /^\d{2,3}(?:\.\d+)?$/.test(c));
    if (!score) continue;
    const n = Number(score);
    expect(cells.join(' ')).toContain(n >= 90 ? '优秀' : n >= 75 ? '称职' : n >= 60 ? '基本称职' : '不称职');
  }
});

test('查看 of computed records shows what the server computed', async ({ page }) => {
  // 电站收益: the income and each household's share
  await page.goto('/power/profit/index');
  // the demo station with shares, its December
  const row = page
    .getByRole('main')
    .locator('.ant-table tbody tr.ant-table-row')
    .filter({ hasText: '14236.40' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '查看' }).click();
  let view = page.getByRole('dialog', { name: /查看/ });
  await expect(view.getByText('收益', { exact: true })).toBeVisible();
  await expect(view.getByText(/\d{1,3}(?:,\d{3})*\.\d{2} 元/).first()).toBeVisible();
  await expect(view.getByRole('columnheader', { name: '农户' })).toBeVisible();
  await expect(view.getByRole('columnheader', { name: '金额' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();

  // 地块: the area
  await page.goto('/agriculture/plot/index');
  await page
    .getByRole('main')
    .locator('.ant-table tbody tr.ant-table-row')
    .first()
    .getByRole('button', {
      name: '查看',
    })
    .click();
  view = page.getByRole('dialog', { name: /查看/ });
  await expect(view.getByText('面积', { exact: true })).toBeVisible();
  await expect(view.getByText(/^\d+(?:\.\d+)? 亩$/).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();

  // 评比打分: the scores per rule by name, the total and the place
  await page.goto('/evaluation/list/index');
  const entry = page.getByRole('main').locator('.ant-table tbody tr.ant-table-row').first();
  await expect(entry).toBeVisible();
  await entry.getByRole('button', { name: '查看' }).click();
  view = page.getByRole('dialog', { name: /查看/ });
  await expect(view.getByText('加权总分', { exact: true })).toBeVisible();
  await expect(view.getByText('名次', { exact: true })).toBeVisible();
  await expect(view.locator('[data-rank]')).toBeVisible();
  await expect(view.getByRole('columnheader', { name: '评比规则' })).toBeVisible();
  await expect(view.getByRole('cell', { name: '庭院整洁' })).toBeVisible();
});
