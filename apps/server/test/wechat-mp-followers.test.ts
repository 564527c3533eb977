import { WECHAT_DEMO, WX_NO_ACCOUNT, WX_SYNC } from '@smart/contracts';
import { describe, expect, it } from 'vitest';
import { openidOf } from '../src/modules/wechat/sandbox/server';
import { wxXml } from '../src/modules/wechat/xml';
import { grantCodes, listedRows, makeRole, signedInUser } from './fixtures';
import { APP, signed, VALID_MENU, wechatMpServer } from './wechat-mp-kit';

/**
 * 公众号 (dfem-hope-wx) against the WeChat sandbox, a real HTTP server the client talks to as it would to
 * WeChat: 23 000 followers in 3 pages and 230 detail calls, an interrupted synchronisation resumed at its
 * page, one token refresh however many calls need one, tags and remarks; what an attacker tries: another
 * tenant's ids, a tenant without an account, a user without the button, bad input; and replies to the
 * followers' messages within the 48 hours. The menu, the callback, auto-replies and materials are
 * wechat-mp.test.ts.
 */

const k = wechatMpServer();
const { sandbox, get, post, callback, nextMsgId, textMsg } = k;

describe('followers', () => {
  it('23 000 followers synchronised in 3 pages of user/get and 230 batchget calls, progress n of total', async () => {
    sandbox.setFollowers(APP, 23_000);
    sandbox.reset();
    const started = await post('/wxUser/synchron', {});
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data.state).toBe(WX_SYNC.running);
    let p: { state: string; done: number; total: number } = started.json().data;
    const seen = new Set<number>();
    for (let i = 0; i < 600 && p.state === WX_SYNC.running; i++) {
      await new Promise((r) => setTimeout(r, 200));
      p = (await get('/wxUser/synchron/progress')).json().data;
      seen.add(p.done);
    }
    expect(p).toMatchObject({ state: WX_SYNC.done, done: 23_000, total: 23_000 });
    // the progress moved through the hundreds
    expect([...seen].some((n) => n > 0 && n < 23_000)).toBe(true);
    expect(sandbox.callsOf('cgi-bin/user/get')).toHaveLength(3);
    expect(sandbox.callsOf('cgi-bin/user/get').map((c) => c.query.next_openid ?? '')).toEqual([
      '',
      openidOf(APP, 9_999),
      openidOf(APP, 19_999),
    ]);
    const details = sandbox.callsOf('cgi-bin/user/info/batchget');
    expect(details).toHaveLength(230);
    expect(details.every((c) => JSON.parse(c.body).user_list.length === 100)).toBe(true);
    const page = (await get('/wxUser/page?current=1&size=10')).json().data;
    expect(page.total).toBeGreaterThanOrEqual(23_000);
  }, 180_000);

  /** the progress once the running synchronisation has stopped */
  const settled = async () => {
    let p = (await get('/wxUser/synchron/progress')).json().data;
    for (let i = 0; i < 600 && p.state === WX_SYNC.running; i++) {
      await new Promise((r) => setTimeout(r, 200));
      p = (await get('/wxUser/synchron/progress')).json().data;
    }
    return p as { state: string; done: number; total: number };
  };

  it('an interrupted synchronisation says why, refuses a second start while running, and resumes at its page', async () => {
    sandbox.setFollowers(APP, 12_000);
    sandbox.reset();
    // WeChat's quota runs out on the 106th detail call: halfway through the second page
    sandbox.fail('cgi-bin/user/info/batchget', 45009, 1, 105);
    const started = await post('/wxUser/synchron', { restart: true });
    expect(started.statusCode, started.body).toBe(200);
    const twice = await post('/wxUser/synchron', {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().msg).toBe('粉丝同步正在进行中,请等待其完成');
    const stopped = await settled();
    expect(stopped).toMatchObject({ state: WX_SYNC.interrupted, done: 10_500, total: 12_000 });
    const account = (await get(`/wxAccount/detail?id=${WECHAT_DEMO.accountId}`)).json().data;
    expect(String(account.syncError)).toContain('45009');
    sandbox.reset();
    const resumed = await post('/wxUser/synchron', {});
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect((await settled()).state).toBe(WX_SYNC.done);
    expect((await get('/wxUser/synchron/progress')).json().data).toMatchObject({
      done: 12_000,
      total: 12_000,
    });
    // it took up the second page again, not the first
    expect(sandbox.callsOf('cgi-bin/user/get').map((c) => c.query.next_openid)).toEqual([
      openidOf(APP, 9_999),
    ]);
    expect(sandbox.callsOf('cgi-bin/user/info/batchget')).toHaveLength(20);
  }, 120_000);

  it('one token refresh however many calls need one at once (single flight)', async () => {
    const rows = [];
    for (let i = 10; i < 15; i++)
      rows.push(
        listedRows((await get(`/wxUser/page?current=1&size=1&openid=${openidOf(APP, i)}`)).json().data)[0],
      );
    sandbox.expireTokens(APP);
    sandbox.reset();
    const answers = await Promise.all(
      rows.map((r, i) => post('/wxUser/remark', { id: r.id, remark: `备注${i}` })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(sandbox.callsOf('cgi-bin/stable_token')).toHaveLength(1);
  });

  it('a tag is made on WeChat when new, given to the followers there, then kept on them', async () => {
    const rows = [];
    for (const i of [20, 21])
      rows.push(
        listedRows((await get(`/wxUser/page?current=1&size=1&openid=${openidOf(APP, i)}`)).json().data)[0],
      );
    sandbox.reset();
    const res = await post('/wxUser/tag', { ids: rows.map((r) => r.id), tagName: '党员' });
    expect(res.statusCode, res.body).toBe(200);
    const { tagId } = res.json().data;
    expect(sandbox.callsOf('cgi-bin/tags/create')).toHaveLength(1);
    expect(sandbox.follower(APP, openidOf(APP, 20))?.tagid_list).toEqual([tagId]);
    expect((await get(`/wxUser/detail?id=${rows[1].id}`)).json().data.tagIds).toBe(String(tagId));
    // the same tag again: no second tag on WeChat, no second id on the row
    expect((await post('/wxUser/tag', { ids: [rows[0].id], tagName: '党员' })).statusCode).toBe(200);
    expect(sandbox.callsOf('cgi-bin/tags/create')).toHaveLength(1);
    expect((await get(`/wxUser/detail?id=${rows[0].id}`)).json().data.tagIds).toBe(String(tagId));
    expect((await post('/wxUser/tag', { ids: [rows[0].id], tagName: '村'.repeat(11) })).statusCode).toBe(400);
    expect((await post('/wxUser/tag', { ids: [], tagName: 'a' })).statusCode).toBe(400);
    expect((await post('/wxUser/tag', { ids: [rows[0].id], tagName: 'a' }, k.other)).statusCode).toBe(404);
  });

  it('a remark is pushed to WeChat first, then stored; WeChat’s refusal stores nothing', async () => {
    const [row] = listedRows(
      (await get(`/wxUser/page?current=1&size=1&openid=${openidOf(APP, 3)}`)).json().data,
    );
    const res = await post('/wxUser/remark', { id: row.id, remark: '村医张' });
    expect(res.statusCode, res.body).toBe(200);
    expect(sandbox.follower(APP, openidOf(APP, 3))?.remark).toBe('村医张');
    expect((await get(`/wxUser/detail?id=${row.id}`)).json().data.remark).toBe('村医张');
    sandbox.fail('cgi-bin/user/info/updateremark', 45009);
    const refused = await post('/wxUser/remark', { id: row.id, remark: '另一个' });
    expect(refused.statusCode).toBe(409);
    expect((await get(`/wxUser/detail?id=${row.id}`)).json().data.remark).toBe('村医张');
  });
});

describe('what an attacker tries', () => {
  it('another tenant’s ids are not found (404), whatever the call', async () => {
    const [follower] = listedRows((await get('/wxUser/page?current=1&size=1')).json().data);
    expect((await post('/wxUser/remark', { id: follower.id, remark: 'x' }, k.other)).statusCode).toBe(404);
    expect(
      (await post('/wxAutoReply/enable', { id: WECHAT_DEMO.replyIds[0], enabled: 0 }, k.other)).statusCode,
    ).toBe(404);
    expect((await post(`/wxAutoReply/del/${WECHAT_DEMO.replyIds[0]}`, undefined, k.other)).statusCode).toBe(
      404,
    );
    expect(
      (await post('/wxMenu/release', { accountId: WECHAT_DEMO.accountId, ...VALID_MENU }, k.other))
        .statusCode,
    ).toBe(404);
    expect((await post('/wxUser/synchron', { accountId: WECHAT_DEMO.accountId }, k.other)).statusCode).toBe(
      404,
    );
    expect((await post('/wxAccount/clearQuota', { id: WECHAT_DEMO.accountId }, k.other)).statusCode).toBe(
      404,
    );
    expect((await get(`/wxAccount/detail?id=${WECHAT_DEMO.accountId}`, k.other)).statusCode).toBe(404);
    expect(
      (await get(`/wxAutoReply/test?text=a&accountId=${WECHAT_DEMO.accountId}`, k.other)).statusCode,
    ).toBe(404);
  });

  it('without an account every WeChat action says what to configure (400)', async () => {
    const res = await post('/wxMenu/release', VALID_MENU, k.other);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(WX_NO_ACCOUNT.zh);
    expect(res.json().data).toEqual({ configure: 'wxAccount' });
    expect((await post('/wxUser/synchron', {}, k.other, 'en')).json().msg).toBe(WX_NO_ACCOUNT.en);
    // local data still works
    expect((await get('/wxUser/page?current=1&size=10', k.other)).statusCode).toBe(200);
  });

  it('a user without the button is refused (403), whatever the input', async () => {
    const role = await makeRole(k.s.database.db, '000000', 'wxViewer');
    await grantCodes(k.s.database.db, role, [
      'wxMenu',
      'wxMenu_view',
      'wxUser',
      'wxUser_view',
      'wxAutoReply',
      'wxAutoReply_view',
    ]);
    const viewer = (await signedInUser(k.s, 'wxViewer', [role])).token;
    expect((await get('/wxMenu/list?current=1&size=10', viewer)).statusCode).toBe(200);
    expect((await post('/wxMenu/release', VALID_MENU, viewer)).statusCode).toBe(403);
    expect((await post('/wxMenu/release', { button: 'bad' }, viewer)).statusCode).toBe(403);
    expect((await post('/wxUser/synchron', {}, viewer)).statusCode).toBe(403);
    expect((await post('/wxUser/remark', { id: '1', remark: 'x' }, viewer)).statusCode).toBe(403);
    expect(
      (await post('/wxAutoReply/enable', { id: WECHAT_DEMO.replyIds[0], enabled: 0 }, viewer)).statusCode,
    ).toBe(403);
    expect((await post('/wxAutoReply/add', {}, viewer)).statusCode).toBe(403);
    expect((await post(`/wxAutoReply/del/${WECHAT_DEMO.replyIds[0]}`, undefined, viewer)).statusCode).toBe(
      403,
    );
    expect((await post('/wxAccount/clearQuota', {}, viewer)).statusCode).toBe(403);
  });
});

describe('messages', () => {
  const received = async (openid: string) =>
    listedRows((await get(`/wxMsg/page?current=1&size=1&openid=${openid}&direction=1`)).json().data)[0];

  it('a reply goes out within the 48 hours through WeChat and is kept; outside them it is refused before WeChat is asked', async () => {
    sandbox.setFollowers(APP, 10);
    const openid = openidOf(APP, 2);
    await callback(signed(), textMsg('请问低保怎么申请', openid));
    sandbox.interacted(APP, openid);
    const msg = await received(openid);
    const res = await post('/wxMsg/reply', { id: msg.id, content: '请带身份证到村委会办理。' });
    expect(res.statusCode, res.body).toBe(200);
    expect(sandbox.sent.get(APP)?.at(-1)).toEqual({
      touser: openid,
      msgtype: 'text',
      text: { content: '请带身份证到村委会办理。' },
    });
    const rows = listedRows(
      (await get(`/wxMsg/page?current=1&size=10&openid=${openid}&direction=2`)).json().data,
    );
    expect(rows.some((r) => r.content === '请带身份证到村委会办理。')).toBe(true);

    // a follower who last wrote three days ago
    const old = openidOf(APP, 4);
    await callback(
      signed(),
      wxXml({
        ToUserName: 'gh_demo',
        FromUserName: old,
        CreateTime: Math.floor(Date.now() / 1000) - 3 * 86_400,
        MsgType: 'text',
        Content: '三天前的留言',
        MsgId: nextMsgId(),
      }),
    );
    sandbox.reset();
    const late = await post('/wxMsg/reply', { id: (await received(old)).id, content: '迟到的回复' });
    expect(late.statusCode).toBe(409);
    expect(late.json().msg).toContain('48 小时');
    expect(sandbox.calls).toHaveLength(0);

    // WeChat's own 45015 is worded the same
    const fresh = openidOf(APP, 5);
    await callback(signed(), textMsg('你好', fresh));
    const refused = await post('/wxMsg/reply', { id: (await received(fresh)).id, content: '您好' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().data).toMatchObject({ errcode: 45015 });
  });

  it('another tenant’s message is not found; without the button 403; bad input 400', async () => {
    const msg = await received(openidOf(APP, 2));
    expect((await post('/wxMsg/reply', { id: msg.id, content: 'x' }, k.other)).statusCode).toBe(404);
    expect((await post('/wxMsg/reply', { id: msg.id, content: '' })).statusCode).toBe(400);
    expect((await post('/wxMsg/reply', { id: msg.id, content: 'x'.repeat(601) })).statusCode).toBe(400);
    const role = await makeRole(k.s.database.db, '000000', 'wxMsgViewer');
    await grantCodes(k.s.database.db, role, ['wxMsg', 'wxMsg_view']);
    const viewer = (await signedInUser(k.s, 'wxMsgViewer', [role])).token;
    expect((await get('/wxMsg/page?current=1&size=1', viewer)).statusCode).toBe(200);
    expect((await post('/wxMsg/reply', { id: msg.id, content: 'x' }, viewer)).statusCode).toBe(403);
  });
});
