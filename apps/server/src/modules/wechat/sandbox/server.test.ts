import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WechatClient, type WechatError } from '../client';
import { openidOf, WechatSandbox } from './server';

/** The sandbox speaks WeChat's documented requests and answers (and its errors) to any HTTP client. */
const APP = 'wx1234567890abcdef';
const SECRET = 'abcdefabcdefabcdefabcdefabcdef12';
const sandbox = new WechatSandbox().addApp(APP, SECRET);
beforeAll(() => sandbox.listen());
afterAll(() => sandbox.close());

const getJson = async (path: string) => (await fetch(`${sandbox.url}/${path}`)).json();
const postJson = async (path: string, body: unknown) =>
  (await fetch(`${sandbox.url}/${path}`, { method: 'POST', body: JSON.stringify(body) })).json();

describe('WeChat sandbox', () => {
  it('cgi-bin/token and stable_token: a token for the right secret, 40013 / 40125 / 40002 otherwise', async () => {
    const ok = await getJson(`cgi-bin/token?grant_type=client_credential&appid=${APP}&secret=${SECRET}`);
    expect(ok).toMatchObject({ expires_in: 7200 });
    expect(String(ok.access_token).length).toBeGreaterThan(20);
    expect(
      await getJson(`cgi-bin/token?grant_type=client_credential&appid=wx0000000000000000&secret=x`),
    ).toEqual({
      errcode: 40013,
      errmsg: 'invalid appid',
    });
    expect(
      (await getJson(`cgi-bin/token?grant_type=client_credential&appid=${APP}&secret=bad`)).errcode,
    ).toBe(40125);
    expect(
      (await postJson('cgi-bin/stable_token', { grant_type: 'x', appid: APP, secret: SECRET })).errcode,
    ).toBe(40002);
    // no token, a wrong one
    expect((await getJson('cgi-bin/menu/get')).errcode).toBe(41001);
    expect((await getJson('cgi-bin/menu/get?access_token=nope')).errcode).toBe(40001);
  });

  it('menu create, get and delete with WeChat’s own checks', async () => {
    const c = new WechatClient(sandbox.url);
    const acct = { appId: APP, appSecret: SECRET };
    await expect(c.call(acct, 'GET', 'cgi-bin/menu/get')).rejects.toMatchObject({ errcode: 46003 });
    const menu = { button: [{ type: 'click', name: '今日', key: 'k' }] };
    await c.call(acct, 'POST', 'cgi-bin/menu/create', menu);
    expect(await c.call(acct, 'GET', 'cgi-bin/menu/get')).toEqual({ menu });
    const refused = (b: unknown) =>
      c.call(acct, 'POST', 'cgi-bin/menu/create', { button: b }).catch((e: WechatError) => e.errcode);
    expect(await refused([1, 2, 3, 4].map(() => menu.button[0]))).toBe(40016);
    expect(await refused([{ type: 'click', name: '名字太长了啊', key: 'k' }])).toBe(40018);
    expect(await refused([{ type: 'shake', name: 'a', key: 'k' }])).toBe(40017);
    expect(await refused([{ name: 'a', sub_button: Array(6).fill(menu.button[0]) }])).toBe(40023);
    await c.call(acct, 'GET', 'cgi-bin/menu/delete');
    await expect(c.call(acct, 'GET', 'cgi-bin/menu/get')).rejects.toMatchObject({ errcode: 46003 });
  });

  it('user/get pages 10 000 by next_openid; batchget takes at most 100; remarks and tags are kept', async () => {
    sandbox.setFollowers(APP, 10_050);
    const c = new WechatClient(sandbox.url);
    const acct = { appId: APP, appSecret: SECRET };
    type Page = { total: number; count: number; data?: { openid: string[] }; next_openid: string };
    const first = await c.call<Page>(acct, 'GET', 'cgi-bin/user/get');
    expect([first.total, first.count, first.next_openid]).toEqual([10_050, 10_000, openidOf(APP, 9_999)]);
    const second = await c.call<Page>(acct, 'GET', 'cgi-bin/user/get', undefined, {
      next_openid: first.next_openid,
    });
    expect([second.count, second.data?.openid[0]]).toEqual([50, openidOf(APP, 10_000)]);
    const third = await c.call<Page>(acct, 'GET', 'cgi-bin/user/get', undefined, {
      next_openid: second.next_openid,
    });
    expect([third.count, third.next_openid]).toEqual([0, '']);
    const list = (n: number) => ({
      user_list: Array.from({ length: n }, (_, i) => ({ openid: openidOf(APP, i) })),
    });
    expect(
      (await c.call<{ user_info_list: unknown[] }>(acct, 'POST', 'cgi-bin/user/info/batchget', list(100)))
        .user_info_list,
    ).toHaveLength(100);
    await expect(c.call(acct, 'POST', 'cgi-bin/user/info/batchget', list(101))).rejects.toMatchObject({
      errcode: 40032,
    });
    await c.call(acct, 'POST', 'cgi-bin/user/info/updateremark', {
      openid: openidOf(APP, 1),
      remark: '张三',
    });
    expect(sandbox.follower(APP, openidOf(APP, 1))?.remark).toBe('张三');
    const { tag } = await c.call<{ tag: { id: number } }>(acct, 'POST', 'cgi-bin/tags/create', {
      tag: { name: '党员' },
    });
    await c.call(acct, 'POST', 'cgi-bin/tags/members/batchtagging', {
      openid_list: [openidOf(APP, 1)],
      tagid: tag.id,
    });
    expect(sandbox.follower(APP, openidOf(APP, 1))?.tagid_list).toEqual([tag.id]);
  });

  it('custom messages only within the 48 hours (45015); forced failures come and go', async () => {
    const c = new WechatClient(sandbox.url);
    const acct = { appId: APP, appSecret: SECRET };
    const send = () =>
      c.call(acct, 'POST', 'cgi-bin/message/custom/send', {
        touser: openidOf(APP, 2),
        msgtype: 'text',
        text: { content: 'hi' },
      });
    await expect(send()).rejects.toMatchObject({ errcode: 45015 });
    sandbox.interacted(APP, openidOf(APP, 2), Date.now() - 47 * 3_600_000);
    await send();
    sandbox.interacted(APP, openidOf(APP, 2), Date.now() - 49 * 3_600_000);
    await expect(send()).rejects.toMatchObject({ errcode: 45015 });
    sandbox.fail('cgi-bin/menu/get', 45009, 1, 1);
    await expect(c.call(acct, 'GET', 'cgi-bin/menu/get')).rejects.toMatchObject({ errcode: 46003 });
    await expect(c.call(acct, 'GET', 'cgi-bin/menu/get')).rejects.toMatchObject({ errcode: 45009 });
    await expect(c.call(acct, 'GET', 'cgi-bin/menu/get')).rejects.toMatchObject({ errcode: 46003 });
  });
});
