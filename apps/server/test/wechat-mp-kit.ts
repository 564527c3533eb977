import { afterAll, beforeAll } from 'vitest';
import { sha1Signature } from '../src/modules/wechat/crypto';
import { DEMO_ACCOUNT } from '../src/modules/wechat/sandbox/demo';
import { openidOf, WechatSandbox } from '../src/modules/wechat/sandbox/server';
import { parseWxXml, wxXml } from '../src/modules/wechat/xml';
import { areaServer, serviceCalls } from './fixtures';
import type { TestServer } from './harness';

/**
 * What the 公众号 tests share (wechat-mp.test.ts, wechat-mp-followers.test.ts): the WeChat sandbox with the
 * demo account, a server talking to it as it would to WeChat with another tenant's administrator beside, the
 * calls under /api/dfem-hope-wx, a valid menu, and WeChat's side of a callback.
 */

export const APP = DEMO_ACCOUNT.appId;
export const API = '/api/dfem-hope-wx';

export const VALID_MENU = {
  button: [
    { type: 'click', name: '今日歌曲', key: 'V1001_TODAY_MUSIC' },
    {
      name: '办事服务',
      sub_button: [
        { type: 'view', name: '村务公开', url: 'https://www.example.com/affairs' },
        {
          type: 'miniprogram',
          name: '积分超市',
          url: 'https://www.example.com/mall',
          appid: 'wx286b93c14bbf93aa',
          pagepath: 'pages/mall/index',
        },
        { type: 'scancode_push', name: '扫码核销', key: 'rselfmenu_0_1' },
        { type: 'scancode_waitmsg', name: '扫码等待', key: 'rselfmenu_0_0' },
        {
          type: 'article_view_limited',
          name: '村规民约',
          article_id: 'KQb_w_Tiz-nSdVLoTV35Psmty8hGBulGhEdbb9SKs-o',
        },
      ],
    },
    {
      name: '随手拍',
      sub_button: [
        { type: 'pic_sysphoto', name: '拍照上报', key: 'rselfmenu_1_0' },
        { type: 'pic_photo_or_album', name: '拍照或相册', key: 'rselfmenu_1_1' },
        { type: 'pic_weixin', name: '微信相册', key: 'rselfmenu_1_2' },
        { type: 'location_select', name: '发送位置', key: 'rselfmenu_2_0' },
      ],
    },
  ],
};

/** WeChat's query of a callback: its signature over the account's token */
export function signed(extra: Record<string, string> = {}, tk: string = DEMO_ACCOUNT.token) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = String(Math.floor(Math.random() * 1e9));
  return new URLSearchParams({ signature: sha1Signature(tk, timestamp, nonce), timestamp, nonce, ...extra });
}
export const contentOf = (xml: string) => parseWxXml(xml)?.Content;

/**
 * Starts a test file's sandbox and server (its beforeAll and afterAll) and answers the sandbox, the server
 * `s`, the administrator's `token` and the other tenant's `other` (set once beforeAll has run), and the
 * calls, which read them when called.
 */
export function wechatMpServer() {
  const sandbox = new WechatSandbox().addApp(DEMO_ACCOUNT.appId, DEMO_ACCOUNT.appSecret);
  const k = { sandbox, s: undefined as unknown as TestServer, token: '', other: '' };

  beforeAll(async () => {
    await sandbox.listen();
    sandbox.setFollowers(APP, 5);
    ({
      s: k.s,
      token: k.token,
      other: k.other,
    } = await areaServer(['200034', '公众号他村', 'wxOther'], {
      WECHAT_API_BASE: sandbox.url,
    }));
  });
  afterAll(async () => {
    await k.s?.close();
    await sandbox.close();
  });

  const { get, post } = serviceCalls(
    () => k.s,
    API,
    () => k.token,
  );

  /** WeChat calling the demo account's callback: GET without a body, POST with one */
  const callback = (query: URLSearchParams, payload?: string) =>
    k.s.app.inject({
      method: payload === undefined ? 'GET' : 'POST',
      url: `${API}/open/${APP}?${query}`,
      ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'text/xml' } }),
    });
  let msgIds = 7_000_000_000_000_000_000n;
  /** a MsgId not sent before */
  const nextMsgId = () => String(++msgIds);
  const textMsg = (content: string, from = openidOf(APP, 0), msgId = nextMsgId()) =>
    wxXml({
      ToUserName: 'gh_demo',
      FromUserName: from,
      CreateTime: Math.floor(Date.now() / 1000),
      MsgType: 'text',
      Content: content,
      MsgId: msgId,
    });

  return Object.assign(k, { get, post, callback, nextMsgId, textMsg });
}
