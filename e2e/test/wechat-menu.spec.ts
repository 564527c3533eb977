import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { authFile, expect, test } from './fixtures';
import { pick } from './form-helpers';
import { adminToken, api } from './shell-helpers';

/**
 * The public account's screens in the browser: on 自定义菜单 a person builds a menu in the editor, sees it in
 * the phone preview and the JSON view, and releases it — the WeChat sandbox holds it byte for byte —; a
 * sub-button name of 21 Chinese characters is counted as 63 bytes of 60 and refused before anything is sent;
 * an edit of the JSON view is followed by the editor and the preview (and a broken one is refused, the editor
 * unchanged); on 自动回复 the test box names the rule a text hits.
 */
test.use({ storageState: authFile() });
// one after another: they release and read the demo account's one menu
test.describe.configure({ mode: 'serial', timeout: 60_000 });

const MENU_PAGE = '/wechat/menu/index';
const DEMO = { appId: 'wx5c0d3e4f5a6b7c8d', secret: 'd3m0s3cr3td3m0s3cr3td3m0s3cr3t00' };

const preview = (page: Page) => page.getByRole('region', { name: '手机预览' });
const bar = (page: Page) => preview(page).getByRole('navigation', { name: '公众号底部菜单' });
/** the bar's top-level buttons (the chosen one's sub-menu pops up inside the bar) */
const topButtons = (page: Page) => bar(page).locator(':scope > div > button');
const jsonBox = (page: Page) => page.getByRole('textbox', { name: '菜单 JSON' });
const releaseButton = (page: Page) => page.getByRole('button', { name: /发布菜单/ });

/** The menu the sandbox keeps for the demo account, as `menu/get` answers it (WeChat's own read-back). */
async function sandboxMenu(): Promise<string> {
  const base = process.env.E2E_WECHAT_URL;
  if (!base) throw new Error('E2E_WECHAT_URL is not set: global-setup starts the WeChat sandbox');
  const token = (await (
    await fetch(
      `${base}/cgi-bin/token?grant_type=client_credential&appid=${DEMO.appId}&secret=${DEMO.secret}`,
    )
  ).json()) as { access_token: string };
  const got = (await (await fetch(`${base}/cgi-bin/menu/get?access_token=${token.access_token}`)).json()) as {
    menu?: unknown;
  };
  return JSON.stringify(got.menu);
}

/** axe's WCAG 2 A and AA rules over the screen's content (as the screens' sweep runs them) */
async function accessible(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openEditor(page: Page) {
  await page.goto(MENU_PAGE);
  await expect(page.getByText('幸福村公众号').first()).toBeVisible();
  await expect(page.getByRole('button', { name: '刷新' })).toBeEnabled();
}

test('a menu built in the editor shows in the preview and the JSON, and reaches WeChat byte for byte', async ({
  page,
  baseURL,
}) => {
  await openEditor(page);
  // from an empty menu
  const remove = page.getByRole('button', { name: /^删除“/ });
  while ((await remove.count()) > 0) await remove.first().click();
  await expect(page.getByText('尚未添加菜单')).toBeVisible();

  await page.getByRole('button', { name: '添加一级菜单' }).click();
  await page.getByLabel('菜单名称').fill('便民服务');
  await page.getByRole('button', { name: '为“便民服务”添加子菜单' }).click();
  await page.getByLabel('菜单名称').fill('办事指南');
  await pick(page, page.getByRole('combobox', { name: '菜单动作' }), '跳转网页');
  await page.getByLabel('网页地址').fill('https://www.example.com/guide');
  await page.getByRole('button', { name: '为“便民服务”添加子菜单' }).click();
  await page.getByLabel('菜单名称').fill('联系村委');
  await page.getByLabel('菜单 KEY').fill('CONTACT_US');
  await page.getByRole('button', { name: '添加一级菜单' }).click();
  await page.getByLabel('菜单名称').fill('村务公开');
  // the byte counter of a top-level name: 4 characters are 12 of 16 bytes
  await expect(page.getByText('12 / 16 字节')).toBeVisible();
  await page.getByLabel('菜单 KEY').fill('VILLAGE_AFFAIRS');

  const wire =
    '{"button":[{"name":"便民服务","sub_button":[' +
    '{"type":"view","name":"办事指南","url":"https://www.example.com/guide"},' +
    '{"type":"click","name":"联系村委","key":"CONTACT_US"}]},' +
    '{"type":"click","name":"村务公开","key":"VILLAGE_AFFAIRS"}]}';

  // the phone: two buttons in the bar, the first one's sub-menu popping up over it
  await expect(topButtons(page)).toHaveText(['便民服务', '村务公开']);
  await bar(page).getByRole('button', { name: '便民服务' }).click();
  const subs = preview(page).getByRole('list', { name: '“便民服务”的子菜单' });
  await expect(subs.getByRole('button')).toHaveText(['办事指南', '联系村委']);
  // the JSON view is WeChat's JSON
  expect(JSON.stringify(JSON.parse(await jsonBox(page).inputValue()))).toBe(wire);
  await expect(page.getByText('菜单通过检查,可以发布')).toBeVisible();
  await accessible(page);

  await releaseButton(page).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('菜单已发布')).toBeVisible();
  await expect(page.getByText('有未发布的修改')).toHaveCount(0);

  // WeChat (the sandbox) holds it as the editor wrote it, and the server lists what it released
  expect(await sandboxMenu()).toBe(wire);
  const { access_token } = await adminToken(baseURL!);
  const listed = await api(baseURL!, access_token).get<{ records: { menuJson: string }[] }>(
    '/api/dfem-hope-wx/wxMenu/list?current=1&size=10',
  );
  expect(listed.records.map((r) => r.menuJson)).toContain(wire);

  // a reload shows the released menu
  await openEditor(page);
  await expect(topButtons(page)).toHaveText(['便民服务', '村务公开']);
});

test('a 21-character sub-button name is counted as 63 of 60 bytes and refused before release', async ({
  page,
}) => {
  await openEditor(page);
  await jsonBox(page).fill(
    JSON.stringify({
      button: [{ name: '便民服务', sub_button: [{ type: 'click', name: '办事指南', key: 'GUIDE' }] }],
    }),
  );
  await page.getByRole('button', { name: '编辑“办事指南”' }).click();
  const before = await sandboxMenu();
  await page.getByLabel('菜单名称').fill('村'.repeat(21));
  await expect(page.getByText('63 / 60 字节')).toBeVisible();
  const message = '第1个菜单的第1个子菜单:菜单名称不能超过 60 个字节(一个汉字 3 个字节,当前 63 个字节)';
  await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  // the field says it too, and the button is marked in the list and in the phone
  await expect(page.getByRole('button', { name: `编辑“${'村'.repeat(21)}”` })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(preview(page).getByRole('button', { name: '村'.repeat(21) })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(releaseButton(page)).toBeDisabled();
  await accessible(page);
  // 20 characters are 60 bytes: allowed
  await page.getByLabel('菜单名称').fill('村'.repeat(20));
  await expect(page.getByText('60 / 60 字节')).toBeVisible();
  await expect(releaseButton(page)).toBeEnabled();
  expect(await sandboxMenu()).toBe(before);
});

test('an edit of the JSON view is followed by the editor and the preview; a broken one is refused', async ({
  page,
}) => {
  await openEditor(page);
  await jsonBox(page).fill(
    JSON.stringify(
      {
        button: [
          { type: 'view', name: '村网站', url: 'https://www.example.com/' },
          {
            name: '办事',
            sub_button: [
              { type: 'scancode_push', name: '扫码核销', key: 'SCAN' },
              { type: 'location_select', name: '发送位置', key: 'WHERE' },
            ],
          },
          { type: 'click', name: '联系我们', key: 'CONTACT' },
        ],
      },
      null,
      2,
    ),
  );
  await expect(topButtons(page)).toHaveText(['村网站', '办事', '联系我们']);
  await expect(page.getByRole('button', { name: '编辑“扫码核销”' })).toBeVisible();
  await page.getByRole('button', { name: '编辑“发送位置”' }).click();
  await expect(page.getByRole('combobox', { name: '菜单动作' })).toBeVisible();
  await expect(page.getByText('弹出地理位置选择器')).toBeVisible();
  await expect(page.getByLabel('菜单 KEY')).toHaveValue('WHERE');
  await expect(preview(page).getByRole('list', { name: '“办事”的子菜单' }).getByRole('button')).toHaveText([
    '扫码核销',
    '发送位置',
  ]);
  // no more than 3 top-level buttons: the editor offers no fourth
  await expect(page.getByRole('button', { name: '添加一级菜单' })).toBeDisabled();

  // JSON that does not parse, or breaks a rule, is refused and the editor keeps the menu
  await jsonBox(page).fill('{"button": [');
  await expect(page.getByText(/JSON 未应用,编辑器保持原样:JSON 格式错误/)).toBeVisible();
  await expect(topButtons(page)).toHaveText(['村网站', '办事', '联系我们']);
  await jsonBox(page).fill('{"button":[{"type":"view","name":"网站","url":"ftp://example.com"}]}');
  await expect(
    page.getByText('JSON 未应用,编辑器保持原样:第1个菜单:网址须以 http:// 或 https:// 开头'),
  ).toBeVisible();
  await expect(topButtons(page)).toHaveText(['村网站', '办事', '联系我们']);
  // an edit in the editor writes the JSON again
  await page.getByRole('button', { name: '编辑“联系我们”' }).click();
  await page.getByLabel('菜单名称').fill('联系村委');
  expect(JSON.parse(await jsonBox(page).inputValue()).button[2]).toEqual({
    type: 'click',
    name: '联系村委',
    key: 'CONTACT',
  });
  await expect(page.getByText(/JSON 未应用/)).toHaveCount(0);
});

test('the auto-reply test box names the rule a text hits, or the default one', async ({ page }) => {
  await page.goto('/wechat/autoReply/index');
  const box = page.getByLabel('粉丝发送的文字');
  await box.fill('我想办事');
  await page.getByRole('button', { name: /^测\s*试$/ }).click();
  const answer = page.getByRole('status').filter({ hasText: '命中' });
  await expect(answer).toContainText('命中:关键词回复');
  await expect(answer).toContainText('办事,便民服务');
  await expect(answer).toContainText('便民服务大厅工作时间:工作日 8:30—17:30');
  await box.fill('天气怎么样');
  await box.press('Enter');
  await expect(answer).toContainText('命中:收到消息回复');
  await expect(answer).toContainText('您的留言已收到,村委会将尽快回复。');
  await page.getByRole('button', { name: '模拟关注' }).click();
  await expect(answer).toContainText('命中:关注时回复');
  await accessible(page);
  // each rule's switch
  await expect(page.getByRole('switch', { name: '启用“办事,便民服务”' })).toBeChecked();
});

test('the followers’ synchronisation is a job with its progress, ending with the list read afresh', async ({
  page,
}) => {
  await page.goto('/wechat/user/index');
  const sync = page.getByRole('button', { name: /同步粉丝|继续同步/ });
  await sync.click();
  // the demo account has 128 followers in the sandbox: each page of them written through the write path
  // (CI's loaded machine has needed more than 10 s for the run)
  await expect(page.getByRole('status').filter({ hasText: '已同步 128 / 128 位粉丝' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('.ant-tag').getByText('已完成', { exact: true })).toBeVisible();
  await expect(page.getByText('共 128 条')).toBeVisible();
  await accessible(page);
});

/** A message as WeChat delivers it to the account's callback, signed with the account's token. */
async function deliver(baseURL: string, from: string, content: string, secondsAgo: number) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = String(Math.floor(Math.random() * 1e9));
  const signature = createHash('sha1')
    .update(['happyvillage', timestamp, nonce].sort().join(''))
    .digest('hex');
  const created = Math.floor(Date.now() / 1000) - secondsAgo;
  const xml =
    `<xml><ToUserName><![CDATA[gh_demo]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName>` +
    `<CreateTime>${created}</CreateTime><MsgType><![CDATA[text]]></MsgType>` +
    `<Content><![CDATA[${content}]]></Content><MsgId>${Date.now()}${Math.floor(Math.random() * 1000)}</MsgId></xml>`;
  const res = await fetch(
    `${baseURL}/api/dfem-hope-wx/open/${DEMO.appId}?${new URLSearchParams({ signature, timestamp, nonce })}`,
    { method: 'POST', headers: { 'content-type': 'text/xml' }, body: xml },
  );
  expect(res.status).toBe(200);
}

test('a conversation offers a reply within WeChat’s 48 hours and says why not outside them', async ({
  page,
  baseURL,
}) => {
  const recent = `oE2eRecent${Date.now().toString(36)}`;
  const old = `oE2eOld${Date.now().toString(36)}`;
  await deliver(baseURL!, old, '上周的问题', 3 * 86_400);
  await deliver(baseURL!, recent, '请问村委几点上班', 60);
  await page.goto('/wechat/msg/index');
  const followers = page.getByRole('navigation', { name: '粉丝会话' });
  await followers.getByRole('button', { name: new RegExp(recent) }).click();
  const talk = page.getByRole('region', { name: `与 ${recent} 的会话` });
  await expect(talk.getByText('请问村委几点上班')).toBeVisible();
  // the keyword rule's passive reply is part of the conversation
  await expect(talk.getByText(/便民服务大厅工作时间|您的留言已收到/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: '回复内容' })).toBeVisible();
  await expect(page.getByText(/可在 .* 前回复/)).toBeVisible();
  await accessible(page);

  await followers.getByRole('button', { name: new RegExp(old) }).click();
  await expect(page.getByRole('region', { name: `与 ${old} 的会话` }).getByText('上周的问题')).toBeVisible();
  await expect(page.getByRole('textbox', { name: '回复内容' })).toHaveCount(0);
  await expect(page.getByText('用户超过 48 小时未与公众号互动,无法发送客服消息')).toBeVisible();
});

test('materials: a file WeChat would refuse is stopped in the browser; an image is uploaded and counted', async ({
  page,
}) => {
  await page.goto('/wechat/material/index');
  const usage = page.getByText(/^图片:\d+ \/ 100000$/);
  await expect(usage).toBeVisible();
  const before = Number(/:(\d+)/.exec((await usage.textContent()) ?? '')?.[1]);
  const uploaded: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/wxMaterial/upload')) uploaded.push(r.url());
  });

  // a thumbnail is a jpg of at most 64 KB: a PNG named .jpg is refused by its content, before any request
  await page.getByRole('tab', { name: '缩略图' }).click();
  const thumbPanel = page.getByRole('tabpanel', { name: '缩略图' });
  await expect(thumbPanel.getByText('缩略图不超过 64KB,支持 jpg')).toBeVisible();
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(64),
  ]);
  await thumbPanel
    .locator('input[type=file]')
    .setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: png });
  await expect(thumbPanel.getByRole('alert')).toHaveText('未上传“cover.jpg”:缩略图不超过 64KB,支持 jpg');
  expect(uploaded).toEqual([]);

  // an image: uploaded to WeChat, listed, and counted
  await page.getByRole('tab', { name: '图片' }).click();
  const imagePanel = page.getByRole('tabpanel', { name: '图片' });
  await imagePanel
    .locator('input[type=file]')
    .setInputFiles({ name: 'village.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('素材已上传')).toBeVisible();
  await expect(imagePanel.getByText('village.png')).toBeVisible();
  await expect(page.getByText(`图片:${before + 1} / 100000`)).toBeVisible();
  expect(uploaded).toHaveLength(1);
  await accessible(page);
});

test('WeChat’s refusal of a release chooses the button it points at and says why', async ({ page }) => {
  await openEditor(page);
  await jsonBox(page).fill(
    JSON.stringify({
      button: [
        { type: 'click', name: '短', key: 'A' },
        { type: 'click', name: '长名字菜单', key: 'B' },
      ],
    }),
  );
  await page.getByRole('button', { name: '编辑“短”' }).click();
  // WeChat's 40018 as the server answers it (wechat-mp.test.ts): worded, with the nearest button's path
  await page.route('**/api/dfem-hope-wx/wxMenu/release', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 400,
        success: false,
        msg: '第2个菜单:菜单按钮名字长度不合法(微信错误码 40018)',
        data: { errcode: 40018, errmsg: 'invalid button name size', path: 'button[1].name' },
      }),
    }),
  );
  await releaseButton(page).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: '发布失败:第2个菜单:菜单按钮名字长度不合法(微信错误码 40018)' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: '编辑“长名字菜单”' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByLabel('菜单名称')).toHaveValue('长名字菜单');
  await expect(topButtons(page).nth(1)).toHaveAttribute('aria-invalid', 'true');
  // an edit clears the refusal: the menu is the person's again
  await page.getByLabel('菜单名称').fill('长名');
  await expect(page.getByText('菜单通过检查,可以发布')).toBeVisible();
});
