import { authFile, expect, test } from './fixtures';
import { day, fillDate, pick, save } from './form-helpers';

/**
 * Party building in the browser: the overview draws the demo party's figures (the branches' bars add up to
 * the member count shown), and a member added as probationary on the members' screen, whose probation ends
 * in ten days, appears in the reminder above the list.
 */
test.use({ storageState: authFile() });
test.describe.configure({ timeout: 60_000 });

test('the overview draws the party’s real figures', async ({ page }) => {
  await page.goto('/party/overview/index');
  const figures = page.getByRole('list', { name: '党建概览' });
  const members = figures.getByRole('listitem').filter({ hasText: '党员总数' });
  await expect(members).toBeVisible();
  const total = Number(
    (await members.locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''),
  );
  expect(total).toBeGreaterThan(0);

  const branches = page.getByRole('img', { name: /^各支部党员: / });
  await expect(branches.locator('canvas')).toBeVisible();
  const label = (await branches.getAttribute('aria-label'))!;
  expect(label).toMatch(/第一党支部 [1-9]\d*/);
  const sum = [...label.matchAll(/ (\d+)(?:,|$)/g)].reduce((a, m) => a + Number(m[1]), 0);
  expect(sum).toBe(total);

  await expect(page.getByRole('img', { name: /^党员年龄结构: / }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('img', { name: /^党员文化程度: / }).locator('canvas')).toBeVisible();
  const pairing = page.getByRole('img', { name: /^党员联系户覆盖: 已联系 [1-9]\d*, 未联系 \d+/ });
  await expect(pairing.locator('canvas')).toBeVisible();
});

test('a member added as probationary appears in the probation reminder', async ({ page }) => {
  await page.goto('/party/member/index');
  const main = page.getByRole('main');
  const reminder = main.getByRole('table', { name: '预备期将满提醒' });
  await expect(reminder).toBeVisible();

  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 党员管理/ });
  const person = dialog.getByRole('combobox', { name: '请选择党员', exact: true });
  await pick(page, person);
  // the picked villager's label: its name, then the masked ID number
  const name = String(await person.locator('xpath=..').getAttribute('title')).split(/\s/)[0];
  expect(name.length).toBeGreaterThan(0);
  await pick(page, dialog.getByRole('combobox', { name: '请选择党员状态' }), '预备党员');
  await pick(page, dialog.getByRole('combobox', { name: '请选择所在党组织' }), '第二党支部');
  await fillDate(dialog, /入党日期/, day(-355));
  // probationary without the day probation ends: the server refuses it, naming the field
  await save(dialog).click();
  await expect(dialog.getByText('预备党员须填写预备期满日期')).toBeVisible();
  await fillDate(dialog, /预备期满日期/, day(10));
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();

  const row = reminder.getByRole('row', { name: new RegExp(`${name}.*${day(10)}`) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('第二党支部');
  await expect(row).toContainText('10');
  // and it is posted to the notices
  await main.getByRole('button', { name: '发布提醒通知' }).click();
  await expect(page.getByText(/已发布通知公告|今日已发布过相同的提醒/)).toBeVisible();
});

test('an organisation is placed below another through the tree picker', async ({ page }) => {
  await page.goto('/party/organization/index');
  const main = page.getByRole('main');
  await expect(main.getByRole('row', { name: /青山村党总支/ })).toBeVisible();
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 党组织/ });
  const name = `第三党支部${Date.now().toString(36).slice(-4)}`;
  await dialog.getByPlaceholder('请输入组织名称').fill(name);
  await pick(page, dialog.getByRole('combobox', { name: '请选择组织类型' }), '党支部');
  await dialog.getByRole('combobox', { name: /上级组织/ }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('青山村党总支', { exact: true }).click();
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  // below the general branch: shown when its row is expanded
  await main
    .getByRole('row', { name: /青山村党总支/ })
    .getByRole('button', { name: '展开行' })
    .click();
  await expect(main.getByRole('row', { name: new RegExp(name) })).toBeVisible();
});
