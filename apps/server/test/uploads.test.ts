import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { villagerResource } from '@smart/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../src/modules/resource/tables';
import { schema } from '../src/platform/db';
import { grantCodes, makeRole, otherTenantAdmin, sampleRecord, signedInUser } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Issue 31, item 3: a user with no grants filled the disk with videos. An upload now says what it is for
 * (`?resource=&field=`) and needs that resource's add or edit code; what each user and tenant keeps is
 * written down and held to quotas (system parameters); files no record names are swept after a grace period.
 */

const MANAGE = '/api/dfem-hope-manage';
const KB = 1024;

let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
});
afterAll(() => s?.close());

// the smallest valid PNG (a 1×1 pixel), padded to a size
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const png = (bytes = PNG.length) => Buffer.concat([PNG, Buffer.alloc(Math.max(0, bytes - PNG.length))]);
/** an MP4 by its first box (`ftyp`, brand isom), then `bytes` of anything */
const mp4 = (bytes: number) =>
  Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(bytes)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

function post(
  server: TestServer,
  token: string | undefined,
  url: string,
  buf: Buffer,
  name: string,
  lang = 'zh-CN',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)]), name);
  return server.app.inject({
    method: 'POST',
    url,
    headers: { ...(token ? auth(token) : {}), 'accept-language': lang },
    payload: form,
  });
}
const video = (token: string, buf: Buffer, server = s, lang?: string) =>
  post(server, token, `${MANAGE}/file/video?resource=careVideo&field=videoFile`, buf, 'clip.mp4', lang);
const image = (token: string, buf = png(), server = s, purpose = 'resource=villager&field=photo') =>
  post(server, token, `${MANAGE}/file/image?${purpose}`, buf, 'a.png');

/** every file under the server's uploads, by folder */
function stored(server = s): number {
  const root = join(server.config.DATA_DIR, 'uploads');
  let n = 0;
  for (const folder of ['video', 'village', 'attach', 'avatar'])
    try {
      n += readdirSync(join(root, folder)).length;
    } catch {}
  return n;
}
const rows = async () =>
  Number(
    (
      (await s.database.db.execute(sql`select count(*)::int as n from app_upload`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0].n,
  );
const setParam = async (key: string, value: string) => {
  await s.database.db.delete(schema.param).where(eq(schema.param.paramKey, key));
  await s.database.db.insert(schema.param).values({ paramName: key, paramKey: key, paramValue: value });
};
const served = async (url: string, server = s) =>
  (await server.app.inject({ method: 'GET', url })).statusCode;

/** A user of tenant 000000 holding only these codes. */
async function userWith(account: string, codes: string[]) {
  const role = await makeRole(s.database.db, '000000', account);
  await grantCodes(s.database.db, role, codes);
  return signedInUser(s, account, [role]);
}

describe('an upload needs the permission of the field’s screen', () => {
  it('a user with no grants is refused (403) for every kind, and nothing reaches the disk', async () => {
    const { token } = await userWith('upNobody', []);
    const before = { files: stored(), rows: await rows() };
    // what the attacker did: three videos, one after the other
    for (let i = 0; i < 3; i++) {
      const res = await video(token, mp4(60 * KB));
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await image(token)).statusCode).toBe(403);
    const attach = await post(
      s,
      token,
      `${MANAGE}/file/attach?resource=assistanceSystem&field=documents`,
      PDF,
      'a.pdf',
    );
    expect(attach.statusCode).toBe(403);
    expect({ files: stored(), rows: await rows() }).toEqual(before);
  });

  it('the screen’s view code is not enough; its add or edit code is', async () => {
    const viewer = await userWith('upViewer', ['care_video', 'care_video_view']);
    expect((await video(viewer.token, mp4(KB))).statusCode).toBe(403);
    for (const code of ['care_video_add', 'care_video_edit']) {
      const writer = await userWith(`up_${code}`, ['care_video', code]);
      const res = await video(writer.token, mp4(KB));
      expect(res.statusCode, res.body).toBe(200);
      const { url } = res.json().data;
      expect(url).toMatch(/^\/api\/dfem-hope-manage\/file\/video\/[0-9a-f-]{36}\.mp4$/);
      // written down: who, tenant, path, size
      const [row] = await s.database.db.select().from(upload).where(eq(upload.path, url));
      expect(row).toMatchObject({ tenantId: '000000', userId: writer.id, size: KB + 12 });
    }
  });

  it('the field must be an upload of the route’s kind on that resource; another screen’s field is refused', async () => {
    const writer = await userWith('upCare', ['care_video', 'care_video_add']);
    // the care video's cover is an image: through the image route, not the video route
    expect((await image(writer.token, png(), s, 'resource=careVideo&field=cover')).statusCode).toBe(200);
    for (const purpose of [
      'resource=careVideo&field=title',
      'resource=careVideo&field=videoFile',
      'resource=careVideo&field=nothing',
      'resource=villager&field=photo',
      'resource=nothing&field=photo',
      'resource=__proto__&field=photo',
    ])
      expect((await image(writer.token, png(), s, purpose)).statusCode, purpose).toBe(403);
    // an upload that does not say what it is for is a bad request naming what is missing
    const bare = await post(s, writer.token, `${MANAGE}/file/image`, png(), 'a.png');
    expect(bare.statusCode).toBe(400);
    expect(bare.json().data.field).toBe('resource');
    const noField = await post(s, writer.token, `${MANAGE}/file/image?resource=careVideo`, png(), 'a.png');
    expect(noField.json().data.field).toBe('field');
    // nobody signed in: 401 before anything else
    expect((await post(s, undefined, `${MANAGE}/file/image`, png(), 'a.png')).statusCode).toBe(401);
  });

  it('an avatar is the user’s own: no screen’s code is needed', async () => {
    const { token } = await userWith('upAvatar', []);
    const res = await post(s, token, '/api/dfem-resource/file/avatar', png(), 'me.png');
    expect(res.statusCode, res.body).toBe(200);
    expect(await served(res.json().data.url)).toBe(200);
  });
});

describe('quotas per user and per tenant', () => {
  afterAll(async () => {
    await s.database.db.delete(schema.param).where(sql`${schema.param.paramKey} like 'upload.quota.%'`);
  });

  it('the quotas are system parameters, seeded with their defaults', async () => {
    const params = await s.database.db
      .select({ key: schema.param.paramKey, value: schema.param.paramValue })
      .from(schema.param)
      .where(sql`${schema.param.paramKey} like 'upload.quota.%'`);
    expect(Object.fromEntries(params.map((p) => [p.key, p.value]))).toEqual({
      'upload.quota.user': '1024',
      'upload.quota.tenant': '10240',
    });
  });

  it('past the user’s quota an upload is a 413 in either language, and nothing of it is kept', async () => {
    await setParam('upload.quota.user', String(100 / 1024)); // 100 KB
    const { token } = await userWith('upQuota', ['care_video', 'care_video_add']);
    expect((await video(token, mp4(60 * KB))).statusCode).toBe(200);
    const before = { files: stored(), rows: await rows() };
    const zh = await video(token, mp4(60 * KB));
    expect(zh.statusCode, zh.body).toBe(413);
    expect(zh.json()).toMatchObject({
      code: 413,
      success: false,
      msg: expect.stringContaining('个人的上传空间'),
    });
    const en = await video(token, mp4(60 * KB), s, 'en');
    expect(en.statusCode).toBe(413);
    expect(en.json().msg).toMatch(/your upload quota/);
    // a buffered kind the same way, and the last bytes of room still take a small file
    const big = await image(token, png(50 * KB), s, 'resource=careVideo&field=cover');
    expect(big.statusCode).toBe(413);
    expect({ files: stored(), rows: await rows() }).toEqual(before);
    expect((await image(token, png(10 * KB), s, 'resource=careVideo&field=cover')).statusCode).toBe(200);
    // another user of the tenant has room of their own
    const other = await userWith('upQuota2', ['care_video', 'care_video_add']);
    expect((await video(other.token, mp4(60 * KB))).statusCode).toBe(200);
  });

  it('past the tenant’s quota (its own parameter, else everyone’s) an upload is a 413', async () => {
    await setParam('upload.quota.user', '1024');
    const used = Number(
      (
        await s.database.db
          .select({ n: sql<string>`coalesce(sum(${upload.size}), 0)` })
          .from(upload)
          .where(eq(upload.tenantId, '000000'))
      )[0].n,
    );
    await setParam('upload.quota.tenant.000000', String((used + 80 * KB) / (1024 * 1024)));
    const { token } = await userWith('upTenant', ['care_video', 'care_video_add']);
    expect((await video(token, mp4(60 * KB))).statusCode).toBe(200);
    const before = { files: stored(), rows: await rows() };
    const res = await video(token, mp4(60 * KB));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().msg).toContain('本租户的上传空间');
    expect({ files: stored(), rows: await rows() }).toEqual(before);
    // another tenant is held to the general parameter, not this tenant's
    const other = await otherTenantAdmin(s, '200031', '上传他村', 'upOther');
    expect((await video(other, mp4(60 * KB))).statusCode).toBe(200);
    await setParam('upload.quota.tenant', String(10 / 1024));
    expect((await video(other, mp4(60 * KB))).statusCode).toBe(413);
  });

  it('two uploads at once cannot both take the last room', async () => {
    await s.database.db.delete(schema.param).where(sql`${schema.param.paramKey} like 'upload.quota.tenant%'`);
    await setParam('upload.quota.user', String(100 / 1024));
    const { token } = await userWith('upRace', ['care_video', 'care_video_add']);
    const answers = await Promise.all([video(token, mp4(60 * KB)), video(token, mp4(60 * KB))]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 413]);
  });
});

describe('files no record names are swept after the grace period', () => {
  /** a server over the same database with no grace: every upload is due for the sweep at once */
  let now: TestServer;
  let nowAdmin: string;
  beforeAll(async () => {
    now = await startTestServer({ UPLOAD_GRACE_MINUTES: '0' }, { alongside: s });
    nowAdmin = (await signIn(now)).access_token;
  });
  afterAll(() => now?.close());

  const submit = (server: TestServer, token: string, url: string, body: object) =>
    server.app.inject({ method: 'POST', url, headers: auth(token), payload: body });
  const villager = async (server: TestServer, token: string, photo: string, n: number) => {
    const res = await submit(server, token, `${MANAGE}/villager/submit`, {
      ...sampleRecord(villagerResource, 9000 + n),
      photo,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as string;
  };

  it('within its grace period an unnamed file is kept', async () => {
    const res = await image(admin);
    const { url } = res.json().data;
    await s.app.uploads.sweep();
    expect(await served(url)).toBe(200);
  });

  it('an unnamed file past its grace is removed, row and all; files records name are kept, in any tenant', async () => {
    const up = async (kind: 'image' | 'avatar') => {
      const res =
        kind === 'image'
          ? await image(nowAdmin, png(), now)
          : await post(now, nowAdmin, '/api/dfem-resource/file/avatar', png(), 'me.png');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.url as string;
    };
    const [photo, inText, otherTenants, avatar, unnamed, unnamedAvatar] = [
      await up('image'),
      await up('image'),
      await up('image'),
      await up('avatar'),
      await up('image'),
      await up('avatar'),
    ];
    await villager(now, nowAdmin, photo, 1);
    const news = await submit(now, nowAdmin, `${MANAGE}/information/submit`, {
      title: '带图新闻',
      category: '1',
      content: `<p>图</p><img src="${inText}">`,
      publishStatus: '1',
    });
    expect(news.statusCode, news.body).toBe(200);
    // a path copied into another tenant's record still names the file
    const other = await otherTenantAdmin(now, '200032', '清扫他村', 'sweepOther');
    await villager(now, other, otherTenants, 2);
    const profile = await submit(now, nowAdmin, '/api/dfem-user/update-info', {
      avatar,
      realName: '管理员',
      phone: '13800000000',
    });
    expect(profile.statusCode, profile.body).toBe(200);

    const result = await now.app.uploads.sweep();
    expect(result.removed).toBeGreaterThanOrEqual(2);
    for (const url of [photo, inText, otherTenants, avatar]) expect(await served(url, now), url).toBe(200);
    for (const url of [unnamed, unnamedAvatar]) {
      expect(await served(url, now), url).toBe(404);
      expect(await now.database.db.select().from(upload).where(eq(upload.path, url))).toEqual([]);
    }
  });

  it('a file kept is looked at again: once its record is removed, the next sweep after a grace period removes it', async () => {
    const { url } = (await image(nowAdmin, png(), now)).json().data;
    const id = await villager(now, nowAdmin, url, 3);
    await now.app.uploads.sweep();
    expect(await served(url, now)).toBe(200);
    const removed = await now.app.inject({
      method: 'POST',
      url: `${MANAGE}/villager/remove?ids=${id}`,
      headers: auth(nowAdmin),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await now.app.uploads.sweep();
    expect(await served(url, now)).toBe(404);
  });

  it('several servers sweeping at once remove each file once, and every one of them', async () => {
    // a second server sharing the first one's storage, as servers behind one load balancer do
    const twin = await startTestServer(
      { UPLOAD_GRACE_MINUTES: '0', DATA_DIR: now.config.DATA_DIR },
      { alongside: s },
    );
    try {
      const urls: string[] = [];
      for (let i = 0; i < 6; i++) urls.push((await image(nowAdmin, png(), now)).json().data.url);
      const [a, b] = await Promise.all([now.app.uploads.sweep(), twin.app.uploads.sweep()]);
      expect(a.removed + b.removed).toBe(urls.length);
      for (const url of urls) expect(await served(url, now)).toBe(404);
    } finally {
      await twin.close();
    }
  });

  it('each server sweeps by itself, every UPLOAD_SWEEP_INTERVAL_MS', async () => {
    const periodic = await startTestServer(
      { UPLOAD_GRACE_MINUTES: '0', UPLOAD_SWEEP_INTERVAL_MS: '50' },
      { alongside: s },
    );
    try {
      const token = (await signIn(periodic)).access_token;
      const { url } = (await image(token, png(), periodic)).json().data;
      const deadline = Date.now() + 10_000;
      while ((await served(url, periodic)) === 200 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(await served(url, periodic)).toBe(404);
    } finally {
      await periodic.close();
    }
  });
});
