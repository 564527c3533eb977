import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WechatClient } from '../client';
import { WechatSandbox } from './server';

/** Drafts, publishing, materials, article images and comments in the sandbox (what the public account's drafts and publishing call). */
const APP = 'wxabcdefabcdef0001';
const SECRET = 'abcdefabcdefabcdefabcdefabcdef34';
const sandbox = new WechatSandbox().addApp(APP, SECRET);
const acct = { appId: APP, appSecret: SECRET };
let c: WechatClient;
let token: string;
beforeAll(async () => {
  await sandbox.listen();
  c = new WechatClient(sandbox.url);
  token = await c.token(acct);
});
afterAll(() => sandbox.close());

/** a multipart upload, as WeChat's media endpoints take it (`media`, and a video's `description`) */
async function upload(path: string, name: string, size: number, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set('media', new Blob([Buffer.alloc(size, 1)]), name);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await fetch(`${sandbox.url}/${path}${path.includes('?') ? '&' : '?'}access_token=${token}`, {
    method: 'POST',
    body: form,
  });
  return res.json();
}

describe('sandbox: materials and article images', () => {
  it('media/uploadimg takes jpg/png up to 1 MB and answers a WeChat image URL', async () => {
    const ok = await upload('cgi-bin/media/uploadimg', 'a.png', 2000);
    expect(ok.url).toMatch(/^http:\/\/mmbiz\.qpic\.cn\//);
    expect((await upload('cgi-bin/media/uploadimg', 'a.webp', 2000)).errcode).toBe(40005);
    expect((await upload('cgi-bin/media/uploadimg', 'a.jpg', 1024 * 1024 + 1)).errcode).toBe(40006);
  });

  it('add_material checks each type’s kind and size; count, batchget, get and del follow', async () => {
    const thumb = await upload('cgi-bin/material/add_material?type=thumb', 't.jpg', 10_000);
    expect(thumb.media_id).toBeTruthy();
    expect((await upload('cgi-bin/material/add_material?type=thumb', 't.jpg', 65 * 1024)).errcode).toBe(
      40006,
    );
    expect((await upload('cgi-bin/material/add_material?type=voice', 'v.ogg', 100)).errcode).toBe(40005);
    expect((await upload('cgi-bin/material/add_material?type=video', 'v.mp4', 100)).errcode).toBe(47001);
    const video = await upload('cgi-bin/material/add_material?type=video', 'v.mp4', 100, {
      description: JSON.stringify({ title: '村容村貌', introduction: '航拍' }),
    });
    expect(
      await c.call(acct, 'POST', 'cgi-bin/material/get_material', { media_id: video.media_id }),
    ).toMatchObject({
      title: '村容村貌',
    });
    expect(await c.call(acct, 'GET', 'cgi-bin/material/get_materialcount')).toMatchObject({ video_count: 1 });
    const list = await c.call<{ total_count: number }>(acct, 'POST', 'cgi-bin/material/batchget_material', {
      type: 'thumb',
      offset: 0,
      count: 20,
    });
    expect(list.total_count).toBe(1);
    await c.call(acct, 'POST', 'cgi-bin/material/del_material', { media_id: video.media_id });
    await expect(
      c.call(acct, 'POST', 'cgi-bin/material/get_material', { media_id: video.media_id }),
    ).rejects.toMatchObject({ errcode: 40007 });
  });
});

describe('sandbox: drafts and publishing', () => {
  let thumb: string;
  let image: string;
  const article = (over: Record<string, unknown> = {}) => ({
    title: '春耕通知',
    author: '村委会',
    content: `<p>请各户做好准备</p><img src="${image}">`,
    thumb_media_id: thumb,
    ...over,
  });
  beforeAll(async () => {
    thumb = (await upload('cgi-bin/material/add_material?type=thumb', 'c.jpg', 1000)).media_id;
    image = (await upload('cgi-bin/media/uploadimg', 'i.png', 1000)).url;
  });

  it('a draft takes 1–8 articles with a cover, content under 20 000 characters, and only WeChat’s images', async () => {
    const refused = (articles: unknown) =>
      c.call(acct, 'POST', 'cgi-bin/draft/add', { articles }).catch((e: { errcode: number }) => e.errcode);
    expect(await refused(Array(9).fill(article()))).toBe(45008);
    expect(await refused([article({ content: 'x'.repeat(20_000) })])).toBe(45002);
    expect(await refused([article({ thumb_media_id: 'nope' })])).toBe(40007);
    expect(await refused([article({ content: '<img src="http://elsewhere/a.webp">' })])).toBe(45166);
    const { media_id } = await c.call<{ media_id: string }>(acct, 'POST', 'cgi-bin/draft/add', {
      articles: [article(), article({ title: '第二篇' })],
    });
    await c.call(acct, 'POST', 'cgi-bin/draft/update', {
      media_id,
      index: 1,
      articles: article({ title: '改过' }),
    });
    const got = await c.call<{ news_item: { title: string }[] }>(acct, 'POST', 'cgi-bin/draft/get', {
      media_id,
    });
    expect(got.news_item.map((n) => n.title)).toEqual(['春耕通知', '改过']);
  });

  it('publishing goes 1 then 0 with the articles’ links, or 1 then 3 with fail_idx', async () => {
    const draft = async () =>
      (await c.call<{ media_id: string }>(acct, 'POST', 'cgi-bin/draft/add', { articles: [article()] }))
        .media_id;
    type Status = {
      publish_status: number;
      article_id?: string;
      article_detail?: { item: { article_url: string }[] };
      fail_idx: number[];
    };
    const { publish_id, msg_data_id } = await c.call<{ publish_id: string; msg_data_id: number }>(
      acct,
      'POST',
      'cgi-bin/freepublish/submit',
      { media_id: await draft() },
    );
    expect(
      (await c.call<Status>(acct, 'POST', 'cgi-bin/freepublish/get', { publish_id })).publish_status,
    ).toBe(1);
    const done = await c.call<Status>(acct, 'POST', 'cgi-bin/freepublish/get', { publish_id });
    expect(done.publish_status).toBe(0);
    expect(done.article_detail?.item[0].article_url).toContain('mp.weixin.qq.com');
    const published = await c.call<{ total_count: number }>(acct, 'POST', 'cgi-bin/freepublish/batchget', {
      offset: 0,
      count: 20,
    });
    expect(published.total_count).toBe(1);

    sandbox.publishing.nextPublish([1, 3], [1]);
    const failing = await c.call<{ publish_id: string }>(acct, 'POST', 'cgi-bin/freepublish/submit', {
      media_id: await draft(),
    });
    await c.call(acct, 'POST', 'cgi-bin/freepublish/get', { publish_id: failing.publish_id });
    const failed = await c.call<Status>(acct, 'POST', 'cgi-bin/freepublish/get', {
      publish_id: failing.publish_id,
    });
    expect([failed.publish_status, failed.fail_idx]).toEqual([3, [1]]);

    // comments on the published article: 88000 without the right; list, mark, reply
    sandbox.publishing.addComment(msg_data_id, 1, 'oReader', '好文章');
    const list = await c.call<{ total: number }>(acct, 'POST', 'cgi-bin/comment/list', {
      msg_data_id,
      index: 1,
      begin: 0,
      count: 50,
      type: 0,
    });
    expect(list.total).toBe(1);
    await c.call(acct, 'POST', 'cgi-bin/comment/markelect', { msg_data_id, index: 1, user_comment_id: 1 });
    await c.call(acct, 'POST', 'cgi-bin/comment/reply/add', {
      msg_data_id,
      index: 1,
      user_comment_id: 1,
      content: '谢谢',
    });
    sandbox.publishing.noComment.add(APP);
    await expect(
      c.call(acct, 'POST', 'cgi-bin/comment/open', { msg_data_id, index: 1 }),
    ).rejects.toMatchObject({
      errcode: 88000,
    });
    await c.call(acct, 'POST', 'cgi-bin/freepublish/delete', { article_id: done.article_id, index: 0 });
    expect(
      (
        await c.call<{ total_count: number }>(acct, 'POST', 'cgi-bin/freepublish/batchget', {
          offset: 0,
          count: 20,
        })
      ).total_count,
    ).toBe(0);
  });
});
