import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WX_DRAFT_DEMO, WX_PUBLISH_STATE } from '@smart/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT } from '../src/modules/wechat/sandbox/demo';
import { DEMO_PUBLISHING, demoPublishing } from '../src/modules/wechat/sandbox/demo-drafts';
import { WechatSandbox } from '../src/modules/wechat/sandbox/server';
import {
  areaServer,
  grantCodes,
  listedRows,
  makeRole,
  serviceCalls,
  signedInUser,
  uploadFile,
} from './fixtures';
import type { TestServer } from './harness';

/**
 * 公众号's drafts, publishing, articles and comments against the WeChat sandbox: a draft's HTML cleaned and its
 * pictures moved to WeChat (a webp from another host converted and uploaded through media/uploadimg), WeChat's
 * limits (8 articles, a cover, 20 000 characters), publishing followed through WeChat's statuses to success or
 * to a failure naming its article, a published item deleted on WeChat, an article's comments synchronised,
 * hidden and switched; and what an attacker tries: another tenant's ids, a user without the button, bad input.
 */
let s: TestServer;
let token: string;
let other: string;
const sandbox = new WechatSandbox().addApp(DEMO_ACCOUNT.appId, DEMO_ACCOUNT.appSecret);
const API = '/api/dfem-hope-wx';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

/** another host's pictures: a webp, a large png, something that is not a picture */
let elsewhere: Server;
let host = '';
let webp: Buffer;

beforeAll(async () => {
  await sandbox.listen();
  demoPublishing(sandbox);
  webp = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
    .webp()
    .toBuffer();
  elsewhere = createServer((req, res) => {
    if (req.url === '/a.webp') res.writeHead(200, { 'content-type': 'image/webp' }).end(webp);
    else if (req.url === '/not-a-picture.png')
      res.writeHead(200, { 'content-type': 'image/png' }).end('<script>alert(1)</script>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
  host = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  ({ s, token, other } = await areaServer(['200035', '草稿他村', 'wxDraftOther'], {
    WECHAT_API_BASE: sandbox.url,
    // the pictures' server is on 127.0.0.1: inside the network the default refuses (article-html.test.ts)
    WECHAT_IMAGE_FETCH: 'any',
  }));
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sandbox.close();
  await new Promise((r) => elsewhere?.close(r));
});

/** a cover: an image material uploaded through the materials path */
let cover = '';
const PNG = async () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
async function coverId() {
  if (cover) return cover;
  const res = await uploadFile(s, token, `${API}/wxMaterial/upload?type=1`, await PNG(), '封面.png');
  expect(res.statusCode, res.body).toBe(200);
  cover = String(res.json().data.mediaId);
  return cover;
}

const article = (over: Record<string, unknown> = {}) => ({
  title: '村里修路了',
  author: '村委会',
  digest: '好消息',
  content: '<p>新路通车。</p>',
  needOpenComment: 1,
  ...over,
});

describe('drafts', () => {
  it('a picture from elsewhere is moved to WeChat (webp → jpg through media/uploadimg); scripts, handlers and javascript: go', async () => {
    sandbox.reset();
    const content = [
      '<style>p.lead { color: #c00 }</style>',
      '<p class="lead" onclick="steal()">春耕开始了<script>alert(1)</script></p>',
      `<p><img src="${host}/a.webp" alt="田野"><a href="javascript:alert(1)">点我</a></p>`,
      '<iframe src="http://evil.example"></iframe>',
    ].join('');
    const res = await post('/wxDraft/add', {
      articles: [article({ content, thumbMediaId: await coverId() })],
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data;
    expect(row).toMatchObject({ title: '村里修路了', articleCount: 1 });
    const detail = (await get(`/wxDraft/detail?id=${row.id}`)).json().data;
    const stored = JSON.parse(detail.articles)[0].content as string;
    expect(stored).not.toContain('127.0.0.1');
    expect(stored).not.toMatch(/script|onclick|javascript:|iframe|<style/i);
    expect(stored).toContain('color:#c00'); // the style rule inlined
    const [upload] = sandbox.callsOf('cgi-bin/media/uploadimg');
    expect(upload).toBeDefined();
    const wxUrl = [...sandbox.publishing.images.keys()][0];
    expect(wxUrl).toMatch(/^http:\/\/mmbiz\.qpic\.cn\/sz_mmbiz_jpg\//);
    expect(stored).toContain(`src="${wxUrl}"`);
    expect((sandbox.publishing.images.get(wxUrl) as Buffer).subarray(0, 3)).toEqual(
      Buffer.from([0xff, 0xd8, 0xff]),
    );
    // WeChat holds the draft as it was stored
    expect(sandbox.publishing.drafts.get(row.mediaId)?.news_item[0].content).toBe(stored);
  });

  it('WeChat’s limits: a 9th article, no cover, 20 001 characters are 400s that never reach WeChat', async () => {
    sandbox.reset();
    const thumbMediaId = await coverId();
    const nine = await post('/wxDraft/add', {
      articles: Array.from({ length: 9 }, (_, i) => article({ title: `第${i}篇`, thumbMediaId })),
    });
    expect(nine.statusCode).toBe(400);
    expect(nine.json().msg).toBe('一篇草稿最多 8 篇文章(当前 9 篇)');
    const noCover = await post('/wxDraft/add', { articles: [article(), article()] }, token, 'en');
    expect(noCover.statusCode).toBe(400);
    expect(noCover.json().msg).toBe('Article 1: Choose a cover image');
    expect(noCover.json().data.field).toBe('articles[0].thumbMediaId');
    const long = await post('/wxDraft/add', {
      articles: [article({ thumbMediaId, content: `<p>${'字'.repeat(20_001 - 7)}</p>` })],
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe('第1篇:正文须少于 2 万字符且小于 1MB(当前 20001 字符,59KB)');
    // a cover that is not one of the account's materials
    const unknown = await post('/wxDraft/add', { articles: [article({ thumbMediaId: 'nope' })] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().data.field).toBe('articles[0].thumbMediaId');
    expect(sandbox.callsOf('cgi-bin/draft/add')).toHaveLength(0);
  });

  it('a picture that is none, or cannot be fetched, is a 400 naming it — never a 500', async () => {
    const thumbMediaId = await coverId();
    for (const src of [`${host}/not-a-picture.png`, `${host}/missing.png`, 'ftp://example.com/a.png']) {
      const res = await post('/wxDraft/add', {
        articles: [article({ thumbMediaId, content: `<p><img src="${src}"></p>` })],
      });
      if (src.startsWith('ftp')) {
        // not http(s): the cleaner drops the picture itself
        expect(res.statusCode, res.body).toBe(200);
        continue;
      }
      expect(res.statusCode, src).toBe(400);
      expect(res.json().msg).toContain(src);
    }
    for (const body of [
      { articles: 'x' },
      { articles: [{ title: 1 }] },
      { articles: [article({ thumbMediaId, extra: 1 })] },
      { articles: [article({ thumbMediaId })], evil: true },
      {},
    ])
      expect((await post('/wxDraft/add', body)).statusCode, JSON.stringify(body)).toBe(400);
  });

  it('update edits WeChat’s draft in place; another number of articles makes a new one', async () => {
    const thumbMediaId = await coverId();
    const row = (await post('/wxDraft/add', { articles: [article({ thumbMediaId })] })).json().data;
    sandbox.reset();
    const res = await post('/wxDraft/update', {
      id: row.id,
      articles: [article({ thumbMediaId, title: '村里修路了(更新)' })],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(sandbox.callsOf('cgi-bin/draft/update')).toHaveLength(1);
    expect(sandbox.publishing.drafts.get(row.mediaId)?.news_item[0].title).toBe('村里修路了(更新)');
    const two = await post('/wxDraft/update', {
      id: row.id,
      articles: [article({ thumbMediaId }), article({ thumbMediaId, title: '第二篇' })],
    });
    expect(two.statusCode, two.body).toBe(200);
    expect(two.json().data.mediaId).not.toBe(row.mediaId);
    expect(sandbox.publishing.drafts.has(row.mediaId)).toBe(false);
    expect(two.json().data.articleCount).toBe(2);
    // del/{id}: WeChat first
    expect((await post(`/wxDraft/del/${row.id}`)).statusCode).toBe(200);
    expect(sandbox.publishing.drafts.has(two.json().data.mediaId)).toBe(false);
    expect((await get(`/wxDraft/detail?id=${row.id}`)).statusCode).toBe(404);
  });
});

describe('publishing', () => {
  const status = async (id: string) => (await get(`/freePublish/status?id=${id}`)).json().data;

  it('is followed through WeChat’s statuses: 已提交 → 发布中 → 成功 with its permanent link and articles', async () => {
    const thumbMediaId = await coverId();
    const draft = (
      await post('/wxDraft/add', { articles: [article({ thumbMediaId, title: '秋收通知' })] })
    ).json().data;
    sandbox.publishing.nextPublish([1, 0]);
    const res = await post(`/wxDraft/publish/${draft.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const pub = res.json().data;
    expect(pub).toMatchObject({ state: WX_PUBLISH_STATE.submitted, title: '秋收通知', stateName: '已提交' });
    // a second publish of the same draft while this one runs is refused
    expect((await post(`/wxDraft/publish/${draft.id}`)).statusCode).toBe(409);
    expect(await status(pub.id)).toMatchObject({ state: WX_PUBLISH_STATE.publishing, stateName: '发布中' });
    const done = await status(pub.id);
    expect(done).toMatchObject({ state: WX_PUBLISH_STATE.success, stateName: '成功', title: '秋收通知' });
    expect(done.url).toMatch(/^http:\/\/mp\.weixin\.qq\.com\/s\?/);
    expect(done.articleId).toBeTruthy();
    // final: WeChat is not asked again
    const asked = sandbox.callsOf('cgi-bin/freepublish/get').length;
    await status(pub.id);
    expect(sandbox.callsOf('cgi-bin/freepublish/get')).toHaveLength(asked);
    // unless asked to look again: WeChat may have banned it since (6)
    const publish = [...sandbox.publishing.publishes.values()].find((p) => p.article_id === done.articleId);
    publish!.statuses = [6];
    const banned = (await get(`/freePublish/status?id=${pub.id}&recheck=1`)).json().data;
    expect(banned).toMatchObject({ state: WX_PUBLISH_STATE.banned, url: done.url });
    publish!.statuses = [0];
    expect((await get(`/freePublish/status?id=${pub.id}&recheck=1`)).json().data.state).toBe(
      WX_PUBLISH_STATE.banned,
    );
    // listed with the shared fields; the draft is gone as on WeChat; its article is listed (POST article/page)
    const page = (await get('/freePublish/page?current=1&size=50')).json().data;
    const listed = page.records.find((r: { id: string }) => r.id === pub.id);
    expect(listed).toMatchObject({
      accountId: expect.any(String),
      articleId: done.articleId,
      title: '秋收通知',
      url: done.url,
    });
    expect((await get(`/wxDraft/detail?id=${draft.id}`)).statusCode).toBe(404);
    const articles = await post('/article/page', { current: 1, size: 10, title: '秋收通知' });
    expect(articles.statusCode, articles.body).toBe(200);
    expect(listedRows(articles.json().data)[0]).toMatchObject({ title: '秋收通知', url: done.url });
  });

  it('a publish WeChat fails (3, fail_idx [1]) ends 常规失败 naming the failed article', async () => {
    const thumbMediaId = await coverId();
    const draft = (
      await post('/wxDraft/add', {
        articles: [article({ thumbMediaId, title: '违规测试' }), article({ thumbMediaId, title: '第二篇' })],
      })
    ).json().data;
    sandbox.publishing.nextPublish([1, 3], [1]);
    const pub = (await post(`/wxDraft/publish/${draft.id}`)).json().data;
    await status(pub.id);
    const failed = await status(pub.id);
    expect(failed).toMatchObject({ state: WX_PUBLISH_STATE.fail, stateName: '常规失败', failIdx: '1' });
    expect(failed.failed).toBe('第1篇《违规测试》');
    expect(failed.url ?? null).toBeNull();
    // the draft stays for another try
    expect((await get(`/wxDraft/detail?id=${draft.id}`)).statusCode).toBe(200);
  });

  it('freePublish/del removes the published item on WeChat, then here with its articles', async () => {
    const thumbMediaId = await coverId();
    const draft = (
      await post('/wxDraft/add', { articles: [article({ thumbMediaId, title: '待删除' })] })
    ).json().data;
    sandbox.publishing.nextPublish([0]);
    const pub = (await post(`/wxDraft/publish/${draft.id}`)).json().data;
    const done = await status(pub.id);
    expect(sandbox.publishing.articles.has(done.articleId)).toBe(true);
    expect((await post(`/freePublish/del/${pub.id}`, undefined, other)).statusCode).toBe(404);
    const res = await post(`/freePublish/del/${pub.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(sandbox.callsOf('cgi-bin/freepublish/delete').at(-1)?.body).toContain(done.articleId);
    expect(sandbox.publishing.articles.has(done.articleId)).toBe(false);
    expect((await get(`/freePublish/detail?id=${pub.id}`)).statusCode).toBe(404);
    const left = listedRows((await post('/article/page', { title: '待删除' })).json().data);
    expect(left).toHaveLength(0);
  });
});

describe('articles and comments', () => {
  const A = WX_DRAFT_DEMO.articleId;

  it('comments are synchronised from WeChat; hiding one unmarks it there, ?hidden=0 elects it again', async () => {
    sandbox.reset();
    const sync = await post('/comment/synchron', { articleId: A });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json().data.total).toBe(DEMO_PUBLISHING.comments.length);
    expect(sandbox.callsOf('cgi-bin/comment/list')).toHaveLength(1);
    const rows = listedRows((await get(`/comment/page?current=1&size=10&articleRowId=${A}`)).json().data);
    expect(rows.map((r) => r.content).sort()).toEqual(DEMO_PUBLISHING.comments.map((c) => c.content).sort());
    const c = rows.find((r) => Number(r.userCommentId) === 1) as { id: string };
    expect((await get(`/comment/hide/${c.id}`)).json().data.elected).toBe(0);
    expect(JSON.parse(sandbox.callsOf('cgi-bin/comment/unmarkelect')[0].body)).toMatchObject({
      msg_data_id: DEMO_PUBLISHING.msgDataId,
      index: 0,
      user_comment_id: 1,
    });
    expect((await get(`/comment/hide/${c.id}?hidden=0`)).json().data.elected).toBe(1);
    expect(sandbox.callsOf('cgi-bin/comment/markelect')).toHaveLength(1);
    // a new comment on WeChat arrives with the next synchronisation
    sandbox.publishing.addComment(DEMO_PUBLISHING.msgDataId, 0, 'o6_new', '新留言');
    expect((await post('/comment/synchron', { articleId: A })).json().data).toEqual({ total: 3, added: 1 });
    expect((await get(`/article/detail/${A}`)).json().data.commentCount).toBe(3);
  });

  it('open and close comments reach WeChat; article hide is local and not a toggle', async () => {
    sandbox.reset();
    expect((await post('/article/closeComment', { id: A })).statusCode).toBe(200);
    expect(sandbox.callsOf('cgi-bin/comment/close')).toHaveLength(1);
    expect((await get(`/article/detail/${A}`)).json().data).toMatchObject({
      commentOpen: 0,
      content: DEMO_PUBLISHING.published.content,
    });
    expect((await post('/article/openComment', { id: A })).statusCode).toBe(200);
    expect(sandbox.callsOf('cgi-bin/comment/open')).toHaveLength(1);
    expect((await get(`/article/hide/${A}`)).json().data.hidden).toBe(1);
    expect((await get(`/article/hide/${A}`)).json().data.hidden).toBe(1);
    expect(listedRows((await post('/article/page', { hidden: 1 })).json().data).map((r) => r.id)).toContain(
      A,
    );
    expect((await get(`/article/hide/${A}?hidden=0`)).json().data.hidden).toBe(0);
    // WeChat refuses comments to an account without the right (88000): a clear refusal
    sandbox.publishing.noComment.add(DEMO_ACCOUNT.appId);
    const refused = await post('/article/closeComment', { id: A });
    sandbox.publishing.noComment.clear();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toContain('没有留言权限');
  });
});

describe('what an attacker tries', () => {
  it('another tenant’s ids are not found (404), whatever the call', async () => {
    const D = WX_DRAFT_DEMO.draftId;
    const A = WX_DRAFT_DEMO.articleId;
    const C = WX_DRAFT_DEMO.commentIds[0];
    expect((await post(`/wxDraft/publish/${D}`, undefined, other)).statusCode).toBe(404);
    expect((await post(`/wxDraft/del/${D}`, undefined, other)).statusCode).toBe(404);
    expect(
      (await post('/wxDraft/update', { id: D, articles: [article({ thumbMediaId: 'x' })] }, other))
        .statusCode,
    ).toBe(404);
    expect((await get(`/freePublish/status?id=${WX_DRAFT_DEMO.publishId}`, other)).statusCode).toBe(404);
    expect((await get(`/article/detail/${A}`, other)).statusCode).toBe(404);
    expect((await get(`/article/hide/${A}`, other)).statusCode).toBe(404);
    expect((await post('/article/openComment', { id: A }, other)).statusCode).toBe(404);
    expect((await get(`/comment/hide/${C}`, other)).statusCode).toBe(404);
    expect((await post('/comment/synchron', { articleId: A }, other)).statusCode).toBe(404);
    expect(listedRows((await post('/article/page', {}, other)).json().data)).toHaveLength(0);
    expect((await get('/freePublish/page?current=1&size=50', other)).json().data.total).toBe(0);
  });

  it('a user without the button is refused (403); viewing still works', async () => {
    const role = await makeRole(s.database.db, '000000', 'wxDraftViewer');
    await grantCodes(s.database.db, role, [
      'wxDraft',
      'wxDraft_view',
      'freePublish',
      'freePublish_view',
      'wxArticle',
      'wxArticle_view',
      'wxComment',
      'wxComment_view',
    ]);
    const viewer = (await signedInUser(s, 'wxDraftViewer', [role])).token;
    const D = WX_DRAFT_DEMO.draftId;
    const A = WX_DRAFT_DEMO.articleId;
    expect((await get('/wxDraft/page?current=1&size=10', viewer)).statusCode).toBe(200);
    expect((await post('/article/page', {}, viewer)).statusCode).toBe(200);
    expect((await get(`/article/detail/${A}`, viewer)).statusCode).toBe(200);
    expect((await post('/wxDraft/add', { articles: [] }, viewer)).statusCode).toBe(403);
    expect((await post('/wxDraft/update', { id: D, articles: [] }, viewer)).statusCode).toBe(403);
    expect((await post(`/wxDraft/del/${D}`, undefined, viewer)).statusCode).toBe(403);
    expect((await post(`/wxDraft/publish/${D}`, undefined, viewer)).statusCode).toBe(403);
    expect((await post(`/freePublish/del/${WX_DRAFT_DEMO.publishId}`, undefined, viewer)).statusCode).toBe(
      403,
    );
    expect((await get(`/article/hide/${A}`, viewer)).statusCode).toBe(403);
    expect((await post('/article/closeComment', { id: A }, viewer)).statusCode).toBe(403);
    expect((await get(`/comment/hide/${WX_DRAFT_DEMO.commentIds[0]}`, viewer)).statusCode).toBe(403);
    expect((await post('/comment/synchron', { articleId: A }, viewer)).statusCode).toBe(403);
    // the engine's own write routes of these server-written rows are refused to everyone
    expect((await post('/wxDraft/submit', { title: 'x' })).statusCode).toBe(403);
    expect((await post('/freePublish/remove?ids=1')).statusCode).toBe(403);
  });

  it('bad input is a 400, never a 500', async () => {
    for (const [method, url, body] of [
      ['POST', '/wxDraft/del/abc', undefined],
      ['POST', '/wxDraft/publish/1;drop', undefined],
      ['GET', '/article/hide/x', undefined],
      ['GET', `/article/hide/${WX_DRAFT_DEMO.articleId}?hidden=2`, undefined],
      ['GET', '/article/detail/abc', undefined],
      ['GET', '/comment/hide/%00', undefined],
      ['GET', '/freePublish/status?id=abc', undefined],
      ['POST', '/article/page', { size: 100000 }],
      ['POST', '/article/page', { evil: 'x' }],
      ['POST', '/article/openComment', { id: 'x' }],
      ['POST', '/comment/synchron', {}],
      ['POST', '/wxDraft/update', { id: WX_DRAFT_DEMO.draftId }],
    ] as const) {
      const res = method === 'GET' ? await get(url) : await post(url, body as object | undefined);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(400);
    }
  });
});
