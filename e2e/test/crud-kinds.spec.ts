import type { Locator, Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { pick } from './form-helpers';

/**
 * The generic list page shows every field by its kind, on any resource without a page of its own: the
 * view dialog reads as labels and values (dictionary words, 是 / 否, reference names; no form controls),
 * a yes/no filter is 是 / 否 / 全部 and 否 finds the rows whose column says 否, and a reference column
 * shows the referenced villager's name, not an id. Reads the demo seed only.
 */
test.use({ storageState: authFile() });

/** The texts of one column of the list, by its header. */
async function columnTexts(table: Locator, header: string): Promise<string[]> {
  const headers = await table.locator('thead th').allInnerTexts();
  const index = headers.findIndex((h) => h.trim() === header);
  expect(index, `a column headed ${header}`).toBeGreaterThanOrEqual(0);
  return table
    .locator('tbody tr.ant-table-row')
    .evaluateAll(
      (rows, i) => rows.map((r) => (r.children[i] as HTMLElement | undefined)?.innerText.trim() ?? ''),
      index,
    );
}

/** The value beside a label in the view dialog's descriptions. */
const viewValue = (dialog: Locator, label: string) =>
  dialog
    .locator('.ant-descriptions-item-label')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::td[1]');

const total = async (main: Locator) =>
  Number(/共 (\d+) 条/.exec(await main.getByText(/^共 \d+ 条$/).innerText())![1]);

async function openList(page: Page, url: string, tab: string) {
  await page.goto(url);
  await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.locator('tbody tr.ant-table-row').first()).toBeVisible();
  return main;
}

test('a yes/no filter is 是 / 否 / 全部: 否 sends 0 and lists only 否, 是 sends 1 and lists only 是', async ({
  page,
}) => {
  const main = await openList(page, '/village/villager/index', '村民信息');
  const table = main.getByRole('table').first();
  const filter = main.getByRole('combobox', { name: '脱贫户', exact: true });
  await expect(filter).toBeVisible();

  const asked = (value: string) =>
    page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('/villager/page') && url.searchParams.get('povertyAlleviated') === value;
    });
  await pick(page, filter, '否');
  const no = asked('0');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  await no;
  await expect.poll(async () => [...new Set(await columnTexts(table, '脱贫户'))]).toEqual(['否']);
  const noTotal = await total(main);

  await pick(page, filter, '是');
  const yes = asked('1');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  await yes;
  await expect.poll(async () => [...new Set(await columnTexts(table, '脱贫户'))]).toEqual(['是']);
  const yesTotal = await total(main);
  expect(yesTotal).toBeGreaterThan(0);
  expect(noTotal).toBeGreaterThan(yesTotal);

  // 全部 filters nothing: more than the 是 rows are listed again (the unfiltered page may come from the
  // browser's cache of the first visit, and other tests add villagers meanwhile: no exact sum)
  await pick(page, filter, '全部');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  await expect.poll(() => total(main)).toBeGreaterThan(yesTotal);
});

test('查看 shows a villager as labels and words, not as a disabled form; it closes with 关闭 and Escape', async ({
  page,
}) => {
  const main = await openList(page, '/village/villager/index', '村民信息');
  const table = main.getByRole('table').first();
  // a villager whose poverty flag is set, so that 是 is what the view must say
  await pick(page, main.getByRole('combobox', { name: '脱贫户', exact: true }), '是');
  await main.getByRole('button', { name: /搜\s*索/ }).click();
  await expect.poll(async () => [...new Set(await columnTexts(table, '脱贫户'))]).toEqual(['是']);

  const first = table.locator('tbody tr.ant-table-row').first();
  const [name] = await columnTexts(table, '姓名');
  const [sex] = await columnTexts(table, '性别');
  const [idCard] = await columnTexts(table, '身份证号');
  const [group] = await columnTexts(table, '村民小组');
  const [lowIncome] = await columnTexts(table, '低保户');
  expect(['男', '女']).toContain(sex);
  expect(group).toMatch(/村民小组$/);
  await first.getByRole('button', { name: '查看', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: '查看 · 村民信息' });
  await expect(dialog.locator('.ant-descriptions')).toBeVisible();
  await expect(viewValue(dialog, '姓名')).toHaveText(name);
  await expect(viewValue(dialog, '性别')).toHaveText(sex);
  // the list shows the ID number masked (430181********1234), the view the whole of it
  if (idCard === '—') await expect(viewValue(dialog, '身份证号')).toHaveText('—');
  else {
    expect(idCard).toMatch(/^\d{6}\*{8}[\dX]{4}$/);
    await expect(viewValue(dialog, '身份证号')).toHaveText(
      new RegExp(`^${idCard.slice(0, 6)}\\d{8}${idCard.slice(-4)}$`),
    );
  }
  await expect(viewValue(dialog, '村民小组')).toHaveText(group);
  // a dictionary's word, not its key
  await expect(viewValue(dialog, '与户主关系')).toHaveText(/^[^\d-]+$/);
  await expect(viewValue(dialog, '脱贫户')).toHaveText('是');
  await expect(viewValue(dialog, '低保户')).toHaveText(lowIncome);
  // switches not in the list are words too, and a villager without a photo shows "-"
  await expect(viewValue(dialog, '残疾')).toHaveText(/^[是否]$/);
  await expect(viewValue(dialog, '照片')).toHaveText('—');
  // read-only: no box, select, switch or placeholder anywhere in the dialog
  await expect(dialog.locator('input, textarea')).toHaveCount(0);
  await expect(dialog.getByRole('combobox')).toHaveCount(0);
  await expect(dialog.getByRole('switch')).toHaveCount(0);
  await expect(dialog.getByText(/^请(选择|输入)/)).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /保\s*存/ })).toHaveCount(0);

  await dialog
    .getByRole('button', { name: /关\s*闭/ })
    .last()
    .click();
  await expect(dialog).toBeHidden();
  await first.getByRole('button', { name: '查看', exact: true }).click();
  await expect(dialog.locator('.ant-descriptions')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('村干部 lists and views the referenced villager by name, and its 在任 as 是 / 否', async ({ page }) => {
  const main = await openList(page, '/village/cadre/index', '村干部');
  const table = main.getByRole('table').first();
  await expect.poll(async () => (await columnTexts(table, '干部')).length).toBeGreaterThan(0);
  const names = await columnTexts(table, '干部');
  // a name (two to four characters), never the id it is stored as
  for (const n of names) expect(n).toMatch(/^[\u4e00-\u9fa5]{2,4}$/);
  for (const v of await columnTexts(table, '在任')) expect(['是', '否']).toContain(v);
  const [position] = await columnTexts(table, '职务');
  expect(position).not.toMatch(/^\d+$/);

  await table
    .locator('tbody tr.ant-table-row')
    .first()
    .getByRole('button', { name: '查看', exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: '查看 · 村干部' });
  await expect(viewValue(dialog, '干部')).toHaveText(names[0]);
  await expect(viewValue(dialog, '职务')).toHaveText(position);
  await expect(viewValue(dialog, '在任')).toHaveText(/^[是否]$/);
  await expect(viewValue(dialog, '任期开始')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  await expect(dialog.getByRole('combobox')).toHaveCount(0);
});
