import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { pick, save } from './form-helpers';
import { adminToken, api } from './shell-helpers';

/**
 * 积分超市 in the browser: a cadre approves a villager's self-reported deed and the villager's balance
 * rises by the rule's points; an exchange is made through the form, its QR code shown, and 核销 at the
 * counter (the code typed as a scanner types it, then Enter) moves it to 已领取 and pays for it once.
 */
test.use({ storageState: authFile() });
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const API = '/api/dfem-hope-manage';
const DEMO_VILLAGER = '1190000000000000001';
/** the demo's first deed rule: 10 points */
const DEED_RULE = '1190000000002100002';
const rowOf = (page: Page, text: string) => page.getByRole('main').getByRole('row').filter({ hasText: text });
const suffix = () => Date.now().toString(36).slice(-5);

interface Points {
  name: string;
  balance: number;
}
interface Villager {
  id: string;
  name: string;
  householdNo: string;
}

async function client(baseURL: string) {
  return api(baseURL, (await adminToken(baseURL)).access_token);
}

test('a cadre approves a self-reported deed, and the villager’s balance rises', async ({ page, baseURL }) => {
  const c = await client(baseURL!);
  // a head of household of the demo village, other than the one the exchange test uses
  const heads = await c.get<{ records: Villager[] }>(`${API}/villager/page?current=1&size=5&relation=1`);
  const v = heads.records.find((r) => r.id !== DEMO_VILLAGER)!;
  const before = await c.get<Points>(`${API}/villager/wx/points?villagerId=${v.id}`);
  // arriving from the mini program: the same endpoint staff use
  const what = `帮五保户修缮屋顶${suffix()}`;
  await c.post(`${API}/points/deed/submit`, {
    villagerId: v.id,
    ruleId: DEED_RULE,
    deedDate: new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10),
    description: what,
    evidence: '/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.jpg',
  });

  await page.goto('/mall/deed/index');
  const row = rowOf(page, v.name).filter({ hasText: '待审核' }).first();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '通过' }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await expect(page.getByText('已通过,积分已到账')).toBeVisible();
  await expect(rowOf(page, v.name).filter({ hasText: '已通过' }).first()).toBeVisible();

  const after = await c.get<Points>(`${API}/villager/wx/points?villagerId=${v.id}`);
  expect(after.balance).toBe(before.balance + 10);
  // the ranking shows the household's new balance
  await page.goto('/mall/ranking/index');
  await page.getByPlaceholder('请输入户号').fill(v.householdNo);
  await page
    .getByRole('main')
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  await expect(rowOf(page, v.householdNo)).toContainText(String(after.balance));
});

test('an exchange shows its QR code, and 核销 at the counter hands it over', async ({ page, baseURL }) => {
  const c = await client(baseURL!);
  const v = await c.get<Villager>(`${API}/villager/detail?id=${DEMO_VILLAGER}`);
  const before = await c.get<Points>(`${API}/villager/wx/points?villagerId=${v.id}`);

  await page.goto('/mall/exchange/index');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: '新增', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /新增 · 兑换列表/ });
  await pick(page, dialog.getByRole('combobox', { name: '请选择村民' }), new RegExp(`^${v.name}`), v.name);
  await pick(page, dialog.getByRole('combobox', { name: '请选择商品' }), '理发服务券', '理发');
  await save(dialog).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  const row = rowOf(page, v.name).filter({ hasText: '待领取' }).first();
  await expect(row).toContainText('理发服务券');

  await row.getByRole('button', { name: /^兑换码/ }).click();
  const qr = page.getByRole('dialog', { name: '兑换二维码' });
  const image = qr.getByRole('img', { name: /^兑换码 [0-9A-Z]{10} 的二维码$/ });
  await expect(image).toBeVisible();
  expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  const code = /兑换码 ([0-9A-Z]{10})/.exec((await image.getAttribute('alt')) ?? '')![1];
  await qr.getByRole('button', { name: /Close|关闭/ }).click();

  await main.getByRole('button', { name: '核销' }).click();
  const verify = page.getByRole('dialog', { name: '核销兑换' });
  const input = verify
    .getByRole('searchbox', { name: '兑换码' })
    .or(verify.getByRole('textbox', { name: '兑换码' }));
  await expect(input).toBeFocused();
  // a scanner types the code and Enter
  await input.pressSequentially(code.toLowerCase());
  await input.press('Enter');
  const outcome = verify.getByTestId('verify-outcome');
  await expect(outcome).toContainText('核销成功');
  await expect(outcome).toContainText(`${v.name} 领取 理发服务券 × 1`);
  // the same code a second time is refused, and says why
  await input.pressSequentially(code);
  await input.press('Enter');
  await expect(outcome).toContainText('该兑换已领取或已取消');
  await verify.getByRole('button', { name: /Close|关闭/ }).click();

  await expect(rowOf(page, code)).toContainText('已领取');
  const after = await c.get<Points>(`${API}/villager/wx/points?villagerId=${v.id}`);
  expect(after.balance).toBe(before.balance - 20);
});
