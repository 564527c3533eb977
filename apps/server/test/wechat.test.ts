import { QRCODE_CONTENT_MAX, WECHAT_DEMO } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QR_CONTENT_MAX } from '../src/platform/redeem';
import { areaServer, grantCodes, listedRows, makeRole, serviceCalls, signedInUser } from './fixtures';
import type { TestServer } from './harness';

/**
 * 公众号与小程序: the family's banner calls (page, upsert, del/{id}, set/top/{id}/{flag}) answered by the
 * engine — top banners first, within the caller's tenant, with their own button code — and a QR code's
 * picture as a PNG data URL.
 */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200031', '微信他村', 'wechatOther']));
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

type Banner = { id: string; title: string; isTop: number; sortOrder: number; active: boolean } & Record<
  string,
  unknown
>;
const banners = async (tk = token): Promise<Banner[]> => {
  const res = await get('/carousel/page?current=1&size=100', tk);
  expect(res.statusCode, res.body).toBe(200);
  return listedRows(res.json().data) as Banner[];
};

/** a picture the seed stored, as an upload answers its path */
const image = async () => String((await banners())[0].image);

const banner = async (over: Record<string, unknown> = {}) => ({
  image: await image(),
  title: '测试轮播图',
  position: '1',
  linkKind: '3',
  linkTarget: 'https://www.example.com/a',
  sortOrder: 50,
  enabled: 1,
  ...over,
});

async function added(title: string, over: Record<string, unknown> = {}) {
  const res = await post('/carousel/upsert', await banner({ title, ...over }));
  expect(res.statusCode, res.body).toBe(200);
  const row = (await banners()).find((b) => b.title === title);
  expect(row).toBeDefined();
  return row as Banner;
}

describe('banners', () => {
  it('the seed’s banners: one on top first, one past its dates answered as not active', async () => {
    const rows = await banners();
    const seeded = rows.filter((r) => (WECHAT_DEMO.carouselIds as readonly string[]).includes(r.id));
    expect(seeded).toHaveLength(3);
    expect(rows[0]).toMatchObject({ id: WECHAT_DEMO.carouselIds[0], isTop: 1, active: true });
    expect(seeded.find((r) => r.id === WECHAT_DEMO.carouselIds[2])?.active).toBe(false);
  });

  it('the seed’s pictures are stored as uploads are, and served as PNG images', async () => {
    for (const b of (await banners()).filter((r) =>
      (WECHAT_DEMO.carouselIds as readonly string[]).includes(r.id),
    )) {
      const res = await s.app.inject({ method: 'GET', url: String(b.image) });
      expect(res.statusCode, String(b.image)).toBe(200);
      expect(res.headers['content-type']).toContain('image/png');
      expect([...res.rawPayload.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
  });

  it('upsert adds without an id and edits with one; isTop is not the form’s to write', async () => {
    const row = await added('新增轮播', { isTop: 1 });
    expect(row.isTop).toBe(0);
    const edit = await post('/carousel/upsert', { id: row.id, title: '改后轮播', isTop: 1 });
    expect(edit.statusCode, edit.body).toBe(200);
    const after = (await banners()).find((b) => b.id === row.id);
    expect(after).toMatchObject({ title: '改后轮播', isTop: 0 });
  });

  it('set/top/{id}/1 puts it first; /0 takes it back to its order', async () => {
    const row = await added('置顶测试', { sortOrder: 9000 });
    const before = await banners();
    expect(before[0].id).not.toBe(row.id);
    const top = await get(`/carousel/set/top/${row.id}/1`);
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json()).toMatchObject({ success: true, data: true });
    const rows = await banners();
    // top ones first (this one the newest among equals), then by order
    expect(rows.filter((r) => r.isTop === 1).map((r) => r.id)).toContain(row.id);
    expect(rows.findIndex((r) => r.id === row.id)).toBeLessThan(rows.findIndex((r) => r.isTop === 0));
    const tops = rows.filter((r) => r.isTop === 1);
    expect(rows.slice(0, tops.length).every((r) => r.isTop === 1)).toBe(true);
    const rest = rows.slice(tops.length).map((r) => r.sortOrder);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
    expect((await get(`/carousel/set/top/${row.id}/0`)).statusCode).toBe(200);
    const cleared = await banners();
    expect(cleared.find((r) => r.id === row.id)?.isTop).toBe(0);
    expect(cleared[cleared.length - 1].id).toBe(row.id);
  });

  it('del/{id} removes it', async () => {
    const row = await added('删除测试');
    const res = await get(`/carousel/del/${row.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await banners()).some((b) => b.id === row.id)).toBe(false);
  });

  it('another tenant’s banner is not found, whatever the call', async () => {
    const id = WECHAT_DEMO.carouselIds[1];
    expect((await get(`/carousel/set/top/${id}/1`, other)).statusCode).toBe(404);
    expect((await get(`/carousel/del/${id}`, other)).statusCode).toBe(404);
    expect((await banners(other)).some((b) => b.id === id)).toBe(false);
    expect((await banners()).find((b) => b.id === id)?.isTop).toBe(0);
  });

  it('setting to top needs carousel_top: without it a 403, whatever the input', async () => {
    const role = await makeRole(s.database.db, '000000', 'wechatEditor');
    await grantCodes(s.database.db, role, ['carousel', 'carousel_view', 'carousel_edit', 'carousel_add']);
    const editor = (await signedInUser(s, 'wechatEditor', [role])).token;
    const id = WECHAT_DEMO.carouselIds[1];
    expect((await get('/carousel/page', editor)).statusCode).toBe(200);
    expect((await get(`/carousel/set/top/${id}/1`, editor)).statusCode).toBe(403);
    expect((await get('/carousel/set/top/abc/2', editor)).statusCode).toBe(403);
    expect((await get(`/carousel/del/${id}`, editor)).statusCode).toBe(403);
    await grantCodes(s.database.db, role, ['carousel', 'carousel_top']);
    expect((await get(`/carousel/set/top/${id}/1`, editor)).statusCode).toBe(200);
    expect((await get(`/carousel/set/top/${id}/0`, editor)).statusCode).toBe(200);
  });

  it('bad input is a 400, never a 500', async () => {
    const id = WECHAT_DEMO.carouselIds[1];
    for (const url of [
      '/carousel/set/top/abc/2',
      `/carousel/set/top/abc/1`,
      `/carousel/set/top/${id}/2`,
      `/carousel/set/top/${id}/yes`,
      '/carousel/set/top/99999999999999999999/1',
      `/carousel/set/top/${id}/1?x=1`,
      '/carousel/del/abc',
    ])
      expect((await get(url)).statusCode, url).toBe(400);
    // an id that names no banner is not found
    expect((await get('/carousel/set/top/1/1')).statusCode).toBe(404);
  });

  it('a link is an http(s) address for 网址, an id or a path otherwise; never javascript:', async () => {
    for (const [linkKind, linkTarget] of [
      ['3', 'javascript:alert(1)'],
      ['1', 'javascript:alert(1)'],
      ['3', '/pages/index'],
      ['2', '//evil.example/x'],
      ['3', ''],
    ]) {
      const res = await post('/carousel/upsert', await banner({ title: '链接测试', linkKind, linkTarget }));
      expect(res.statusCode, `${linkKind} ${linkTarget}`).toBe(400);
      expect(res.json().data.field).toBe('linkTarget');
    }
    // an edit that changes only the kind is judged against the stored target
    const row = await added('文章链接', { linkKind: '1', linkTarget: '12' });
    const res = await post('/carousel/upsert', { id: row.id, linkKind: '3' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      data: { field: 'linkTarget' },
      msg: '网址须以 http:// 或 https:// 开头',
    });
    expect(
      (
        await post(
          '/carousel/upsert',
          await banner({ title: '路径链接', linkKind: '2', linkTarget: '/pages/t?id=3' }),
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('QR codes', () => {
  it('the record’s bound is the picture’s', () => {
    expect(QRCODE_CONTENT_MAX).toBe(QR_CONTENT_MAX);
  });

  it('getQRCodeBase64 answers a PNG data URL of the content', async () => {
    const res = await get(
      `/qrcode/getQRCodeBase64?content=${encodeURIComponent('https://www.example.com/村')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as string;
    expect(data.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(data.slice('data:image/png;base64,'.length), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // 512 characters is the most
    expect((await get(`/qrcode/getQRCodeBase64?content=${'a'.repeat(512)}`)).statusCode).toBe(200);
  });

  it('refuses no content, 513 characters and other keys with a 400', async () => {
    for (const q of ['', 'content=', `content=${'a'.repeat(513)}`, 'content=a&size=9'])
      expect((await get(`/qrcode/getQRCodeBase64?${q}`)).statusCode, q.slice(0, 20)).toBe(400);
  });

  it('needs the QR codes’ view code', async () => {
    const role = await makeRole(s.database.db, '000000', 'qrNoView');
    await grantCodes(s.database.db, role, ['qrcode']);
    const tk = (await signedInUser(s, 'qrNoView', [role])).token;
    expect((await get('/qrcode/getQRCodeBase64?content=x', tk)).statusCode).toBe(403);
    await grantCodes(s.database.db, role, ['qrcode', 'qrcode_view']);
    expect((await get('/qrcode/getQRCodeBase64?content=x', tk)).statusCode).toBe(200);
  });

  it('submit keeps a record; its content is held to 512 characters', async () => {
    const okRes = await post('/qrcode/submit', { purpose: '1', content: 'REDEEM-0001', remark: '核销' });
    expect(okRes.statusCode, okRes.body).toBe(200);
    const long = await post('/qrcode/submit', { purpose: '1', content: 'a'.repeat(513) });
    expect(long.statusCode).toBe(400);
    expect(long.json().data.field).toBe('content');
    const list = await get('/qrcode/page?current=1&size=50');
    expect(listedRows(list.json().data).map((r) => r.content)).toContain('REDEEM-0001');
    // another tenant sees none of them
    const theirs = await get('/qrcode/page?current=1&size=50', other);
    expect(listedRows(theirs.json().data).map((r) => r.content)).not.toContain('REDEEM-0001');
  });
});
