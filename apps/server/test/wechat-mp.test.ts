import { WECHAT_DEMO } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sha1Signature, wxDecrypt, wxEncrypt } from '../src/modules/wechat/crypto';
import { DEMO_ACCOUNT } from '../src/modules/wechat/sandbox/demo';
import { openidOf } from '../src/modules/wechat/sandbox/server';
import { parseWxXml, wxXml } from '../src/modules/wechat/xml';
import { grantCodes, listedRows, makeRole, signedInUser, uploadFile } from './fixtures';
import { API, APP, contentOf, signed, VALID_MENU, wechatMpServer } from './wechat-mp-kit';

/**
 * 公众号 (dfem-hope-wx) against the WeChat sandbox, a real HTTP server the client talks to as it would to
 * WeChat: the custom menu's limits (refused by the server before WeChat hears of it), a release arriving byte
 * for byte, 40001 → one token refresh and a retry, 45009 and its way out, the account's secrets, the
 * callback's signatures (plain and safe mode), one MsgId answered once, auto-replies and their keyword clash,
 * and materials within WeChat's limits. Followers, replies to their messages and what an attacker tries are
 * wechat-mp-followers.test.ts.
 */

const k = wechatMpServer();
const { sandbox, get, post, callback, textMsg } = k;

describe('custom menu', () => {
  it('a fourth top-level button is refused by the server (400) and never reaches WeChat', async () => {
    sandbox.reset();
    const res = await post('/wxMenu/release', {
      button: [...VALID_MENU.button, { type: 'click', name: '第四个', key: 'k4' }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toBe('一级菜单最多 3 个');
    expect(sandbox.callsOf('cgi-bin/menu/create')).toHaveLength(0);
  });

  it('a 63-byte sub-button name (21 Chinese characters) is refused, naming the button and its bytes', async () => {
    const name = '村'.repeat(21);
    const res = await post('/wxMenu/release', {
      button: [{ name: '服务', sub_button: [{ type: 'click', name, key: 'k' }] }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data.field).toBe('button[0].sub_button[0].name');
    expect(res.json().msg).toBe(
      '第1个菜单的第1个子菜单:菜单名称不能超过 60 个字节(一个汉字 3 个字节,当前 63 个字节)',
    );
    // 20 characters (60 bytes) pass below; a top-level name stops at 16 bytes (5 characters are 15)
    const top = await post(
      '/wxMenu/release',
      { button: [{ type: 'click', name: '村'.repeat(6), key: 'k' }] },
      k.token,
      'en',
    );
    expect(top.statusCode).toBe(400);
    expect(top.json().msg).toBe(
      'Button 1: the name may be at most 16 bytes (a Chinese character is 3; now 18)',
    );
    expect(sandbox.callsOf('cgi-bin/menu/create')).toHaveLength(0);
  });

  it('each action type needs its fields: view a url, miniprogram appid + pagepath + url, a click its key', async () => {
    for (const [b, field] of [
      [{ type: 'view', name: 'a' }, 'url'],
      [
        { type: 'miniprogram', name: 'a', url: 'https://a.example.com', appid: 'wx286b93c14bbf93aa' },
        'pagepath',
      ],
      [{ type: 'click', name: 'a' }, 'key'],
      [{ type: 'article_view_limited', name: 'a' }, 'article_id'],
      [{ type: 'click', name: 'a', key: 'k'.repeat(129) }, 'key'],
      [{ type: 'view', name: 'a', url: `https://a.example.com/${'x'.repeat(1010)}` }, 'url'],
      [{ type: 'view', name: 'a', url: 'javascript:alert(1)' }, 'url'],
      [{ type: 'shake', name: 'a' }, 'type'],
    ] as const) {
      const res = await post('/wxMenu/release', { button: [b] });
      expect(res.statusCode, JSON.stringify(b)).toBe(400);
      expect(res.json().data.field).toBe(`button[0].${field}`);
    }
  });

  it('a valid menu of the ten action types arrives in the sandbox byte for byte, and is listed once released', async () => {
    sandbox.reset();
    const res = await post('/wxMenu/release', { accountId: WECHAT_DEMO.accountId, ...VALID_MENU });
    expect(res.statusCode, res.body).toBe(200);
    const [create] = sandbox.callsOf('cgi-bin/menu/create');
    expect(create.body).toBe(JSON.stringify(VALID_MENU));
    expect(Buffer.from(create.body)).toEqual(Buffer.from(JSON.stringify(VALID_MENU), 'utf8'));
    const list = await get('/wxMenu/list?current=1&size=10');
    expect(list.statusCode, list.body).toBe(200);
    const rows = listedRows(list.json().data);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(String(rows[0].menuJson))).toEqual(VALID_MENU);
  });

  it('WeChat’s refusal (40018) is worded and points at the button; nothing is stored', async () => {
    const before = listedRows((await get('/wxMenu/list?current=1&size=10')).json().data)[0];
    sandbox.fail('cgi-bin/menu/create', 40018);
    const menu = {
      button: [
        { type: 'click', name: '短', key: 'a' },
        { type: 'click', name: '长名字菜单', key: 'b' },
      ],
    };
    const res = await post('/wxMenu/release', menu);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data).toMatchObject({ errcode: 40018, path: 'button[1].name' });
    expect(res.json().msg).toBe('第2个菜单:菜单按钮名字长度不合法(微信错误码 40018)');
    const after = listedRows((await get('/wxMenu/list?current=1&size=10')).json().data)[0];
    expect(after.menuJson).toBe(before.menuJson);
  });

  it('40001 (the token died): one token refresh and a successful retry', async () => {
    await post('/wxMenu/release', VALID_MENU); // a token is cached
    sandbox.reset();
    sandbox.expireTokens(APP);
    const res = await post('/wxMenu/release', VALID_MENU);
    expect(res.statusCode, res.body).toBe(200);
    expect(sandbox.callsOf('cgi-bin/stable_token')).toHaveLength(1);
    expect(sandbox.callsOf('cgi-bin/menu/create')).toHaveLength(2);
    // the same when WeChat says so on a token it issued
    sandbox.reset();
    sandbox.fail('cgi-bin/menu/create', 40001);
    expect((await post('/wxMenu/release', VALID_MENU)).statusCode).toBe(200);
    expect(sandbox.callsOf('cgi-bin/stable_token')).toHaveLength(1);
  });

  it('45009 (the quota) is worded and offers clearing it; 清空调用次数 clears it', async () => {
    sandbox.fail('cgi-bin/menu/create', 45009, 5);
    const res = await post('/wxMenu/release', VALID_MENU);
    expect(res.statusCode).toBe(409);
    expect(res.json().data).toMatchObject({ errcode: 45009, clearQuota: true });
    expect(res.json().msg).toContain('清空调用次数');
    const cleared = await post('/wxAccount/clearQuota', { id: WECHAT_DEMO.accountId });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await post('/wxMenu/release', VALID_MENU)).statusCode).toBe(200);
  });

  it('the AppSecret and the AES key are never answered', async () => {
    const res = await get(`/wxAccount/detail?id=${WECHAT_DEMO.accountId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('appSecret');
    expect(res.json().data).not.toHaveProperty('aesKey');
    expect(res.body).not.toContain(DEMO_ACCOUNT.appSecret);
    expect((await get('/wxAccount/page?current=1&size=10')).body).not.toContain(DEMO_ACCOUNT.aesKey);
  });
});

describe('accounts', () => {
  it('the AppSecret and the AES key reach no answer, no log line and no stored log; a second tenant cannot take the AppID', async () => {
    const secret = 'Zq7Xw2Vb9Nc4Md1Lk8Jh3Gf6Ds5Ap0Oi';
    const aesKey = 'QwErTyUiOpAsDfGhJkLzXcVbNm1234567890QwErTyU';
    const added = await post('/wxAccount/submit', {
      name: '第二个公众号',
      appId: 'wx00112233445566ff',
      appSecret: secret,
      token: 'secondtoken',
      aesKey,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.body).not.toContain(secret);
    const id = String(added.json().data.id);
    // an edit without the secret keeps it; the answers never carry it
    expect(
      (await post('/wxAccount/submit', { id, name: '第二个公众号(改)', appSecret: '' })).statusCode,
    ).toBe(200);
    const answers = [
      (await get(`/wxAccount/detail?id=${id}`)).body,
      (await get('/wxAccount/page?current=1&size=50')).body,
      (await get('/wxAccount/select?keyword=第二')).body,
    ].join('\n');
    expect(answers).not.toContain(secret);
    expect(answers).not.toContain(aesKey);
    // a new account needs its secret; another tenant cannot name the same AppID
    const none = await post('/wxAccount/submit', { name: 'x', appId: 'wx00112233445566aa', token: 'abc' });
    expect([none.statusCode, none.json().data?.field]).toEqual([400, 'appSecret']);
    const taken = await post(
      '/wxAccount/submit',
      { name: '别村', appId: 'wx00112233445566ff', appSecret: secret, token: 'abc' },
      k.other,
    );
    expect([taken.statusCode, taken.json().data?.field]).toEqual([400, 'appId']);
    await k.s.app.auditLog.flush();
    const stored: string[] = [];
    for (const table of ['blade_log_api', 'blade_log_error', 'blade_log_usual']) {
      const { rows } = (await k.s.database.db.execute(sql.raw(`select * from ${table}`))) as unknown as {
        rows: unknown[];
      };
      stored.push(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
    }
    const everything = [...stored, k.s.logs.join('')].join('\n');
    expect(everything).toContain('/wxAccount/submit');
    for (const hidden of [secret, aesKey, DEMO_ACCOUNT.appSecret]) expect(everything).not.toContain(hidden);
    expect((await post(`/wxAccount/remove?ids=${id}`)).statusCode).toBe(200);
  });
});

describe('callback', () => {
  it('GET checks the signature and echoes echostr; a wrong signature is refused', async () => {
    const ok = await callback(signed({ echostr: 'hello123' }));
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('hello123');
    const wrong = await callback(signed({ echostr: 'hello123' }, 'notthetoken'));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).not.toContain('hello123');
    const q = signed({ echostr: 'x' });
    q.set('signature', 'f'.repeat(40));
    expect((await callback(q)).statusCode).toBe(403);
  });

  it('POST with a wrong signature is refused and nothing is kept', async () => {
    const res = await callback(signed({}, 'wrongtoken'), textMsg('办事'));
    expect(res.statusCode).toBe(403);
  });

  it('a text gets the keyword rule’s passive reply; the same MsgId sent twice is answered once and kept once', async () => {
    const xml = textMsg('我想办事', openidOf(APP, 1), '6000000000000000001');
    const t0 = Date.now();
    const first = await callback(signed(), xml);
    // a passive reply is answered at once: WeChat waits 5 seconds
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(first.statusCode).toBe(200);
    expect(contentOf(first.body)).toContain('便民服务大厅');
    expect(parseWxXml(first.body)?.ToUserName).toBe(openidOf(APP, 1));
    const again = await callback(signed(), xml);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe('success');
    const msgs = listedRows(
      (await get(`/wxMsg/page?current=1&size=50&openid=${openidOf(APP, 1)}`)).json().data,
    );
    expect(msgs.filter((m) => m.msgId === '6000000000000000001')).toHaveLength(1);
    expect(msgs.filter((m) => String(m.direction) === '2')).toHaveLength(1);
  });

  it('a text no keyword takes gets the default reply', async () => {
    const res = await callback(signed(), textMsg('你好'));
    expect(contentOf(res.body)).toBe('您的留言已收到,村委会将尽快回复。');
  });

  it('subscribe adds the follower and answers the welcome; unsubscribe marks them unsubscribed', async () => {
    const openid = 'oNEWFOLLOWER0000000000000001';
    const event = (name: string, at: number) =>
      wxXml({ ToUserName: 'gh_demo', FromUserName: openid, CreateTime: at, MsgType: 'event', Event: name });
    const now = Math.floor(Date.now() / 1000);
    const sub = await callback(signed(), event('subscribe', now));
    expect(contentOf(sub.body)).toContain('欢迎关注幸福村公众号');
    const row = async () =>
      listedRows((await get(`/wxUser/page?current=1&size=10&openid=${openid}`)).json().data)[0];
    expect((await row()).subscribe).toBe(1);
    // WeChat's retry of the same event is answered once
    expect((await callback(signed(), event('subscribe', now))).body).toBe('success');
    expect((await callback(signed(), event('unsubscribe', now + 5))).body).toBe('success');
    expect((await row()).subscribe).toBe(0);
  });

  it('safe mode: msg_signature checked, the message decrypted, the reply encrypted and signed', async () => {
    const inner = textMsg('便民服务');
    const encrypted = wxEncrypt(DEMO_ACCOUNT.aesKey, APP, inner);
    const q = signed({ encrypt_type: 'aes' });
    q.set(
      'msg_signature',
      sha1Signature(DEMO_ACCOUNT.token, q.get('timestamp')!, q.get('nonce')!, encrypted),
    );
    const body = wxXml({ ToUserName: 'gh_demo', Encrypt: encrypted });
    const res = await callback(q, body);
    expect(res.statusCode, res.body).toBe(200);
    const outer = parseWxXml(res.body)!;
    expect(outer.MsgSignature).toBe(
      sha1Signature(DEMO_ACCOUNT.token, String(outer.TimeStamp), String(outer.Nonce), String(outer.Encrypt)),
    );
    const reply = wxDecrypt(DEMO_ACCOUNT.aesKey, APP, String(outer.Encrypt));
    expect(contentOf(reply!)).toContain('便民服务大厅');
    // a wrong msg_signature, or a text encrypted with another key, is refused
    const bad = signed({ encrypt_type: 'aes', msg_signature: 'a'.repeat(40) });
    expect((await callback(bad, body)).statusCode).toBe(403);
    const otherKey = wxEncrypt('ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210abcdefg', APP, inner);
    const q2 = signed({ encrypt_type: 'aes' });
    q2.set(
      'msg_signature',
      sha1Signature(DEMO_ACCOUNT.token, q2.get('timestamp')!, q2.get('nonce')!, otherKey),
    );
    expect((await callback(q2, wxXml({ Encrypt: otherKey }))).statusCode).toBe(403);
  });

  it('bad input is a 400 or 404, never a 500', async () => {
    expect((await callback(signed(), 'not xml')).statusCode).toBe(400);
    expect((await callback(signed(), `<xml><A>${'<B>'.repeat(50)}</xml>`)).statusCode).toBe(400);
    const q = signed();
    q.set('timestamp', 'abc');
    expect((await callback(q, textMsg('x'))).statusCode).toBe(403);
    const unknown = await k.s.app.inject({
      method: 'GET',
      url: `${API}/open/wx0000000000000000?${signed({ echostr: 'e' })}`,
    });
    expect(unknown.statusCode).toBe(404);
    const junk = await k.s.app.inject({
      method: 'GET',
      url: `${API}/open/%00..?${signed({ echostr: 'e' })}`,
    });
    expect([400, 404]).toContain(junk.statusCode);
  });
});

describe('auto-replies', () => {
  const rule = (over: Record<string, unknown> = {}) => ({
    accountId: WECHAT_DEMO.accountId,
    kind: '2',
    keywords: '天气,气象',
    matchMode: '1',
    replyContent: '今日晴,气温 18—26 度。',
    enabled: 1,
    ...over,
  });

  it('add, page, update and del/{id} are the engine’s; the test box says which rule a text hits', async () => {
    const added = await post('/wxAutoReply/add', rule());
    expect(added.statusCode, added.body).toBe(200);
    const id = String(added.json().data.id);
    const rows = listedRows((await get('/wxAutoReply/page?current=1&size=50')).json().data);
    expect(rows.some((r) => r.id === id)).toBe(true);
    // full match: 天气 hits, 今天天气 does not (the default answers it)
    expect((await get('/wxAutoReply/test?text=天气')).json().data).toMatchObject({ hit: true, ruleId: id });
    expect((await get(`/wxAutoReply/test?text=${encodeURIComponent('今天天气')}`)).json().data.ruleId).toBe(
      WECHAT_DEMO.replyIds[2],
    );
    const updated = await post('/wxAutoReply/update', { id, matchMode: '2' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await get(`/wxAutoReply/test?text=${encodeURIComponent('今天天气')}`)).json().data.ruleId).toBe(
      id,
    );
    expect((await get('/wxAutoReply/test?event=subscribe')).json().data.ruleId).toBe(WECHAT_DEMO.replyIds[0]);
    expect((await post(`/wxAutoReply/del/${id}`)).statusCode).toBe(200);
    expect((await get(`/wxAutoReply/detail?id=${id}`)).statusCode).toBe(404);
  });

  it('two enabled rules claiming one keyword: 409 with the keyword named; enable refuses it too', async () => {
    const taken = await post('/wxAutoReply/add', rule({ keywords: '报修,办事' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().msg).toBe('关键词“办事”已被另一条启用的关键词回复使用,请修改关键词或先停用那条规则');
    const off = await post('/wxAutoReply/add', rule({ keywords: '报修,办事', enabled: 0 }));
    expect(off.statusCode, off.body).toBe(200);
    const id = String(off.json().data.id);
    const on = await post('/wxAutoReply/enable', { id, enabled: 1 });
    expect(on.statusCode).toBe(409);
    // once the other is disabled, it may be enabled
    expect((await post('/wxAutoReply/enable', { id: WECHAT_DEMO.replyIds[1], enabled: 0 })).statusCode).toBe(
      200,
    );
    expect((await post('/wxAutoReply/enable', { id, enabled: 1 })).statusCode).toBe(200);
    expect((await get('/wxAutoReply/test?text=办事')).json().data.ruleId).toBe(id);
    await post(`/wxAutoReply/del/${id}`);
    await post('/wxAutoReply/enable', { id: WECHAT_DEMO.replyIds[1], enabled: 1 });
  });

  it('eight submits claiming one keyword at once: exactly one is written, the others 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post('/wxAutoReply/add', rule({ keywords: `同时${i},并发词` }))),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes, answers.map((a) => a.body).join('\n')).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const kept = listedRows((await get('/wxAutoReply/page?current=1&size=100')).json().data).filter((r) =>
      String(r.keywords).includes('并发词'),
    );
    expect(kept).toHaveLength(1);
    await post(`/wxAutoReply/del/${kept[0].id}`);
  });

  it('bad input is a 400', async () => {
    for (const [url, body] of [
      ['/wxAutoReply/enable', { id: WECHAT_DEMO.replyIds[0], enabled: 2 }],
      ['/wxAutoReply/enable', { id: 'abc', enabled: 1 }],
      ['/wxAutoReply/add', rule({ keywords: '' })],
      ['/wxAutoReply/add', rule({ replyContent: '' })],
      ['/wxAutoReply/add', rule({ accountId: 'abc' })],
      ['/wxMenu/release', { button: 'x' }],
      ['/wxMenu/release', { button: [], extra: 1 }],
      ['/wxUser/remark', { id: '1', remark: 'x'.repeat(31) }],
      ['/wxUser/synchron', { accountId: 'x' }],
    ] as const) {
      const res = await post(url, body as object);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
    }
    expect((await get('/wxAutoReply/test?text=a&event=subscribe')).statusCode).toBe(400);
    expect((await get('/wxAutoReply/test')).statusCode).toBe(400);
  });
});

describe('materials', () => {
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(2000, 7),
  ]);
  const JPG = (n: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(n, 1)]);
  const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(3000, 2)]);
  const up = (query: string, buf: Buffer, name: string, tk = k.token) =>
    uploadFile(k.s, tk, `${API}/wxMaterial/upload?${query}`, buf, name);

  it('an image goes to WeChat and is kept with its media_id and URL; its file comes back as a blob', async () => {
    sandbox.reset();
    const res = await up('type=1', PNG, '村貌.png');
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data;
    expect(row).toMatchObject({ type: '1', name: '村貌.png', size: PNG.length });
    expect(String(row.url)).toMatch(/^http:\/\/mmbiz\.qpic\.cn\//);
    expect(sandbox.publishing.materials.get(String(row.mediaId))?.data).toEqual(PNG);
    expect(sandbox.callsOf('cgi-bin/material/add_material')[0].query.type).toBe('image');
    const blob = await k.s.app.inject({
      method: 'GET',
      url: `${API}/wxMaterial/materialOther?id=${row.id}`,
      headers: { 'blade-auth': `bearer ${k.token}` },
    });
    expect(blob.statusCode).toBe(200);
    expect(blob.headers['content-type']).toBe('image/png');
    expect(blob.rawPayload).toEqual(PNG);
    const listed = listedRows((await get('/wxMaterial/page?current=1&size=10&type=1')).json().data);
    expect(listed.map((r) => r.id)).toContain(String(row.id));
  });

  it('WeChat’s limits are checked before anything is sent: by content, size and type', async () => {
    sandbox.reset();
    const thumb = await up('type=4', JPG(70 * 1024), 'cover.jpg');
    expect(thumb.statusCode).toBe(400);
    expect(thumb.json().msg).toBe('缩略图不超过 64KB,支持 jpg');
    expect((await up('type=1', Buffer.from('<script>alert(1)</script>'), 'a.png')).statusCode).toBe(400);
    expect((await up('type=2', PNG, 'a.mp3')).statusCode).toBe(400);
    expect((await up('type=3', MP4, 'a.mp4')).json().data.field).toBe('title');
    expect((await up('type=9', PNG, 'a.png')).statusCode).toBe(400);
    expect((await up('type=1&extra=1', PNG, 'a.png')).statusCode).toBe(400);
    expect(sandbox.callsOf('cgi-bin/material/add_material')).toHaveLength(0);
    expect((await up('type=4', JPG(10 * 1024), 'cover.jpg')).statusCode).toBe(200);
  });

  it('a video keeps its title; materialVideo answers its details; del/{id} removes it on WeChat first', async () => {
    const res = await up(
      `type=3&title=${encodeURIComponent('村容村貌')}&introduction=${encodeURIComponent('航拍')}`,
      MP4,
      'v.mp4',
    );
    expect(res.statusCode, res.body).toBe(200);
    const { id, mediaId } = res.json().data;
    const video = await get(`/wxMaterial/materialVideo?id=${id}`);
    expect(video.json().data).toMatchObject({ title: '村容村貌', description: '航拍' });
    expect((await get(`/wxMaterial/materialOther?id=${id}`)).statusCode).toBe(404);
    // another tenant, a user without the button
    expect((await post(`/wxMaterial/del/${id}`, undefined, k.other)).statusCode).toBe(404);
    expect((await get(`/wxMaterial/materialVideo?id=${id}`, k.other)).statusCode).toBe(404);
    const role = await makeRole(k.s.database.db, '000000', 'wxMaterialViewer');
    await grantCodes(k.s.database.db, role, ['wxMaterial', 'wxMaterial_view']);
    const viewer = (await signedInUser(k.s, 'wxMaterialViewer', [role])).token;
    expect((await post(`/wxMaterial/del/${id}`, undefined, viewer)).statusCode).toBe(403);
    expect((await up('type=1', PNG, 'a.png', viewer)).statusCode).toBe(403);
    expect((await get(`/wxMaterial/materialVideo?id=${id}`, viewer)).statusCode).toBe(200);
    // WeChat refuses: the row stays
    sandbox.fail('cgi-bin/material/del_material', 45009);
    expect((await post(`/wxMaterial/del/${id}`)).statusCode).toBe(409);
    expect((await get(`/wxMaterial/detail?id=${id}`)).statusCode).toBe(200);
    expect((await post(`/wxMaterial/del/${id}`)).statusCode).toBe(200);
    expect(sandbox.publishing.materials.has(mediaId)).toBe(false);
    expect((await get(`/wxMaterial/detail?id=${id}`)).statusCode).toBe(404);
    expect((await post('/wxMaterial/del/abc')).statusCode).toBe(400);
  });

  it('count answers WeChat’s own count of the account’s materials (the screen’s usage against the quotas)', async () => {
    sandbox.reset();
    const count = await get('/wxMaterial/count');
    expect(count.statusCode, count.body).toBe(200);
    expect(count.json().data).toEqual({
      image: [...sandbox.publishing.materials.values()].filter((m) => m.type === 'image').length,
      voice: 0,
      video: [...sandbox.publishing.materials.values()].filter((m) => m.type === 'video').length,
      news: 0,
    });
    expect(sandbox.callsOf('cgi-bin/material/get_materialcount')).toHaveLength(1);
    expect((await get('/wxMaterial/count?accountId=abc')).statusCode).toBe(400);
    sandbox.fail('cgi-bin/material/get_materialcount', 45009);
    expect((await get('/wxMaterial/count')).statusCode).toBe(409);
  });
});
