import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistanceSystemResource } from '@smart/contracts';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../src/modules/resource/tables';
import { schema } from '../src/platform/db';
import { grantCodes, makeRole, otherTenantAdmin, sampleRecord, signedInUser } from './fixtures';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Issue 35, attachments (附件管理, `dfem-resource/attach`): an upload checked by content against the
 * tenant's kinds and size, stored once per content (SHA-256), a row a record still names kept (409), image
 * thumbnails, downloads under the original name, and the usual attacker's cases.
 */

const ATTACH = '/api/dfem-resource/attach';

let s: TestServer;
let admin: string;
let otherAdmin: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
  otherAdmin = await otherTenantAdmin(s, '100035', '附件租户', 'attachB');
});
afterAll(async () => {
  if (process.env.ATTACH_DEBUG)
    for (const l of s.logs) if (l.includes('"level":50')) console.log(l.slice(0, 1500));
  await s?.close();
});

let seq = 0;
/** a PDF whose bytes differ per call (or per `tag`) */
const pdf = (tag = `n${++seq}-${Date.now()}`, pad = 0) =>
  Buffer.concat([
    Buffer.from(`%PDF-1.4\n% ${tag}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`),
    Buffer.alloc(pad, 32),
  ]);
/** a Windows program (MZ header) */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

function post(token: string | undefined, url: string, buf: Buffer, name: string, lang = 'zh-CN') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)]), name);
  return s.app.inject({
    method: 'POST',
    url,
    headers: { ...(token ? auth(token) : {}), 'accept-language': lang },
    payload: form,
  });
}
const put = (buf: Buffer, name = 'report.pdf', token = admin, lang?: string) =>
  post(token, `${ATTACH}/upload`, buf, name, lang);
const get = (url: string, token = admin, lang = 'zh-CN') =>
  s.app.inject({ method: 'GET', url, headers: { ...auth(token), 'accept-language': lang } });
const call = (method: 'GET' | 'POST', url: string, token = admin, payload?: object, lang = 'zh-CN') =>
  s.app.inject({ method, url, headers: { ...auth(token), 'accept-language': lang }, payload });

const setParam = async (key: string, value: string | null) => {
  await s.database.db.delete(schema.param).where(eq(schema.param.paramKey, key));
  if (value !== null)
    await s.database.db.insert(schema.param).values({ paramName: key, paramKey: key, paramValue: value });
};
/** the attachments stored on the disk */
const onDisk = () => {
  try {
    return readdirSync(join(s.config.DATA_DIR, 'uploads', 'attach'));
  } catch {
    return [];
  }
};
const uploadRows = async (path: string) => s.database.db.select().from(upload).where(eq(upload.path, path));

async function userWith(account: string, codes: string[]) {
  const role = await makeRole(s.database.db, '000000', account);
  await grantCodes(s.database.db, role, codes);
  return (await signedInUser(s, account, [role])).token;
}

describe('upload, list, detail and download', () => {
  it('an upload is a row with the family’s names, listed with its size, downloaded byte for byte', async () => {
    const bytes = pdf();
    const res = await put(bytes, '年度报告.pdf');
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data;
    expect(row).toMatchObject({
      originalName: '年度报告.pdf',
      extension: 'pdf',
      attachSize: bytes.length,
      domain: '',
      reused: false,
      thumb: null,
    });
    expect(row.link).toMatch(/^\/api\/dfem-hope-manage\/file\/attach\/[0-9a-f-]{36}\.pdf$/);
    expect(row.name).toBe(`attach/${row.link.split('/').pop()}`);
    expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);

    const list = await get(`${ATTACH}/list?current=1&size=50&originalName=年度`);
    expect(list.statusCode).toBe(200);
    const listed = list.json().data.records.find((r: { id: string }) => r.id === row.id);
    expect(listed).toMatchObject({ attachSize: bytes.length, link: row.link, originalName: '年度报告.pdf' });

    const detail = await get(`${ATTACH}/detail?id=${row.id}`);
    expect(detail.json().data).toMatchObject({ link: row.link, domain: '', extension: 'pdf' });

    const dl = await get(`${ATTACH}/download?id=${row.id}`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(String(dl.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent('年度报告.pdf')}`,
    );
    expect(Buffer.compare(dl.rawPayload, bytes)).toBe(0);
    // the link itself answers the same bytes
    const linked = await s.app.inject({ method: 'GET', url: row.link });
    expect(Buffer.compare(linked.rawPayload, bytes)).toBe(0);
  });

  it('the same file uploaded twice is stored once: two rows, one object, one quota row', async () => {
    const bytes = pdf('twice');
    const before = onDisk().length;
    const first = (await put(bytes, 'a.pdf')).json().data;
    const second = (await put(bytes, 'b.pdf')).json().data;
    expect(first.reused).toBe(false);
    expect(second.reused).toBe(true);
    expect(second.id).not.toBe(first.id);
    expect(second.link).toBe(first.link);
    expect(second.originalName).toBe('b.pdf');
    expect(onDisk().length).toBe(before + 1);
    expect(await uploadRows(first.link)).toHaveLength(1);

    // one row removed: the other still names the object, which stays
    expect((await call('POST', `${ATTACH}/remove?ids=${first.id}`)).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'GET', url: second.link })).statusCode).toBe(200);
    await s.app.uploads.sweep();
    expect(onDisk()).toContain(second.link.split('/').pop());

    // the last row removed: the object is due at once, and the sweep removes it and its row
    expect((await call('POST', `${ATTACH}/remove?ids=${second.id}`)).statusCode).toBe(200);
    await s.app.uploads.sweep();
    expect(onDisk()).not.toContain(second.link.split('/').pop());
    expect(await uploadRows(second.link)).toHaveLength(0);
    // the same content uploaded now is stored anew
    const third = (await put(bytes, 'c.pdf')).json().data;
    expect(third.reused).toBe(false);
    expect(onDisk()).toContain(third.link.split('/').pop());
  });

  it('the same file uploaded twice at once is still one object', async () => {
    const bytes = pdf('race');
    const before = onDisk().length;
    const both = await Promise.all([put(bytes, 'r1.pdf'), put(bytes, 'r2.pdf')]);
    for (const r of both) expect(r.statusCode, r.body).toBe(200);
    const [x, y] = both.map((r) => r.json().data);
    expect(x.link).toBe(y.link);
    expect([x.reused, y.reused].sort()).toEqual([false, true]);
    expect(onDisk().length).toBe(before + 1);
    expect(await uploadRows(x.link)).toHaveLength(1);
  });

  it('another tenant’s identical file is its own object (nothing is shared across tenants)', async () => {
    const bytes = pdf('tenants');
    const mine = (await put(bytes)).json().data;
    const theirs = (await put(bytes, 'x.pdf', otherAdmin)).json().data;
    expect(theirs.reused).toBe(false);
    expect(theirs.link).not.toBe(mine.link);
  });
});

describe('the reference count', () => {
  it('an attachment a record still names is not removed (409, zh and en), and is once the record lets go', async () => {
    const row = (await put(pdf(), '制度.pdf')).json().data;
    const def = assistanceSystemResource;
    const base = `/api/${def.service}/${def.path}`;
    const record = { ...sampleRecord(def, 35), documents: row.link };
    const saved = await call('POST', `${base}/submit`, admin, record);
    expect(saved.statusCode, saved.body).toBe(200);
    const recordId = saved.json().data.id;

    const zh = await call('POST', `${ATTACH}/remove?ids=${row.id}`);
    expect(zh.statusCode).toBe(409);
    expect(zh.json().msg).toBe('附件「制度.pdf」仍被 1 条记录引用,不能删除');
    const en = await call('POST', `${ATTACH}/remove?ids=${row.id}`, admin, undefined, 'en');
    expect(en.statusCode).toBe(409);
    expect(en.json().msg).toBe(
      'The attachment "制度.pdf" is still used by 1 record(s): it cannot be removed',
    );
    expect((await get(`${ATTACH}/detail?id=${row.id}`)).statusCode).toBe(200);

    expect((await call('POST', `${base}/remove?ids=${recordId}`)).statusCode).toBe(200);
    expect((await call('POST', `${ATTACH}/remove?ids=${row.id}`)).statusCode).toBe(200);
  });
});

describe('limits: kinds by content, size per tenant', () => {
  it('a program renamed .pdf is refused (400) and nothing is stored', async () => {
    const before = onDisk().length;
    const res = await put(EXE, 'invoice.pdf');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('按文件内容识别');
    expect(onDisk().length).toBe(before);
  });

  it('a tenant’s own kinds (attach.types.<tenantId>) refuse what it leaves out', async () => {
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    await setParam('attach.types.000000', 'pdf');
    try {
      const res = await put(image, 'a.png', admin, 'en');
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe('An attachment may only be (recognised by its content): pdf');
      // another tenant keeps the default kinds
      expect((await put(image, 'a.png', otherAdmin)).statusCode).toBe(200);
    } finally {
      await setParam('attach.types.000000', null);
    }
  });

  it('a file past the tenant’s size (attach.maxMb.<tenantId>) is refused with 413, nothing kept', async () => {
    await setParam('attach.maxMb.000000', '0.001'); // about 1 KB
    try {
      const before = onDisk().length;
      const res = await put(pdf('big', 2048), 'big.pdf');
      expect(res.statusCode).toBe(413);
      expect(res.json().msg).toBe('附件大小不能超过 0.001MB');
      expect(onDisk().length).toBe(before);
      expect((await put(pdf('small'), 'small.pdf')).statusCode).toBe(200);
      // the other tenant is held to the default
      expect((await put(pdf('big2', 2048), 'big.pdf', otherAdmin)).statusCode).toBe(200);
    } finally {
      await setParam('attach.maxMb.000000', null);
    }
  });

  it('the tenant’s upload quota holds attachments too (413)', async () => {
    await setParam('upload.quota.tenant.000000', '0.0001');
    try {
      const res = await put(pdf('quota', 512), 'q.pdf');
      expect(res.statusCode).toBe(413);
    } finally {
      await setParam('upload.quota.tenant.000000', null);
    }
  });
});

describe('thumbnails', () => {
  it('an image is answered with a thumbnail at most 240 px; a PDF has none', async () => {
    const image = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#0a6' } })
      .jpeg()
      .toBuffer();
    const row = (await put(image, 'photo.jpg')).json().data;
    expect(row.extension).toBe('jpg');
    expect(row.thumb).toMatch(/^\/api\/dfem-resource\/attach\/thumb\/[0-9a-f-]{36}\.jpg$/);
    const thumb = await s.app.inject({ method: 'GET', url: row.thumb });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.width).toBe(240);
    expect(meta.height).toBe(120);

    const doc = (await put(pdf())).json().data;
    expect(doc.thumb).toBeNull();
    const name = doc.link.split('/').pop().replace('.pdf', '.png');
    expect((await s.app.inject({ method: 'GET', url: `${ATTACH}/thumb/${name}` })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'GET', url: `${ATTACH}/thumb/..%2F..%2Fx.png` })).statusCode).toBe(
      404,
    );
  });
});

describe('submit', () => {
  it('registers a file uploaded for the field, its size and kind from the stored file, never the body', async () => {
    const bytes = pdf();
    const up = await post(
      admin,
      '/api/dfem-hope-manage/file/attach?resource=attach&field=path',
      bytes,
      'form.pdf',
    );
    expect(up.statusCode, up.body).toBe(200);
    const res = await call('POST', `${ATTACH}/submit`, admin, {
      originalName: '表单.pdf',
      path: up.json().data.url,
      attachSize: 1,
      extension: 'exe',
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = (await get(`${ATTACH}/detail?id=${res.json().data.id}`)).json().data;
    expect(row).toMatchObject({ attachSize: bytes.length, extension: 'pdf', originalName: '表单.pdf' });
    // the name is edited; the file stays
    const edit = await call('POST', `${ATTACH}/submit`, admin, { id: row.id, originalName: '新名.pdf' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await get(`${ATTACH}/detail?id=${row.id}`)).json().data).toMatchObject({
      originalName: '新名.pdf',
      link: row.link,
    });
  });
});

describe('attackers', () => {
  it('another tenant’s ids are not found: detail, download, remove, submit (404)', async () => {
    const row = (await put(pdf())).json().data;
    expect((await get(`${ATTACH}/detail?id=${row.id}`, otherAdmin)).statusCode).toBe(404);
    expect((await get(`${ATTACH}/download?id=${row.id}`, otherAdmin)).statusCode).toBe(404);
    expect((await call('POST', `${ATTACH}/remove?ids=${row.id}`, otherAdmin)).statusCode).toBe(404);
    expect(
      (await call('POST', `${ATTACH}/submit`, otherAdmin, { id: row.id, originalName: 'x.pdf' })).statusCode,
    ).toBe(404);
    const list = await get(`${ATTACH}/list?current=1&size=200`, otherAdmin);
    expect(list.body).not.toContain(row.id);
    // and another tenant's stored file cannot be named by a row of this one
    const theirs = (await put(pdf(), 'x.pdf', otherAdmin)).json().data;
    const named = await call('POST', `${ATTACH}/submit`, admin, { originalName: 'x.pdf', path: theirs.link });
    expect(named.statusCode).toBe(400);
    expect(named.json().data.field).toBe('path');
    expect((await get(`${ATTACH}/detail?id=${row.id}`)).json().data.originalName).toBe('report.pdf');
  });

  it('a user without the button is refused (403): upload, download, remove; and nothing is stored', async () => {
    const row = (await put(pdf())).json().data;
    const viewer = await userWith('attachViewer', ['attach', 'attach_view']);
    expect((await get(`${ATTACH}/list?current=1&size=10`, viewer)).statusCode).toBe(200);
    const before = onDisk().length;
    expect((await put(pdf(), 'a.pdf', viewer)).statusCode).toBe(403);
    expect(onDisk().length).toBe(before);
    expect((await get(`${ATTACH}/download?id=${row.id}`, viewer)).statusCode).toBe(403);
    expect((await call('POST', `${ATTACH}/remove?ids=${row.id}`, viewer)).statusCode).toBe(403);
    const nobody = await userWith('attachNobody', []);
    expect((await get(`${ATTACH}/list?current=1&size=10`, nobody)).statusCode).toBe(403);
    const uploader = await userWith('attachUploader', ['attach', 'attach_upload', 'attach_download']);
    const mine = await put(pdf(), 'u.pdf', uploader);
    expect(mine.statusCode, mine.body).toBe(200);
    expect((await get(`${ATTACH}/download?id=${mine.json().data.id}`, uploader)).statusCode).toBe(200);
  });

  it('bad input is a 400, never a 500', async () => {
    const cases = [
      await call('POST', `${ATTACH}/upload`, admin, { file: 'x' }),
      await put(Buffer.alloc(0), 'empty.pdf'),
      await call('POST', `${ATTACH}/upload?x=1`, admin, { file: 'x' }),
      await get(`${ATTACH}/download?id=abc`),
      await get(`${ATTACH}/download`),
      await get(`${ATTACH}/download?id=1&x=2`),
      await get(`${ATTACH}/detail?id=abc`),
      await call('POST', `${ATTACH}/remove?ids=abc`),
      await call('POST', `${ATTACH}/submit`, admin, {
        originalName: 'x.pdf',
        path: 'https://evil.example/a.pdf',
      }),
      await call('POST', `${ATTACH}/submit`, admin, {
        originalName: 'x.pdf',
        path: '/api/dfem-hope-manage/file/attach/../../x.pdf',
      }),
      await call('POST', `${ATTACH}/submit`, admin, {
        originalName: 'x.pdf',
        path: '/api/dfem-hope-manage/file/image/0b9e6f9e-0000-4000-8000-000000000001.png',
      }),
      await call('POST', `${ATTACH}/submit`, admin, { originalName: '', path: '' }),
      await get(`${ATTACH}/list?current=1&size=10&nosuchkey=x`),
      await get(`${ATTACH}/list?current=1&size=10&sort=nope`),
    ];
    for (const res of cases) expect(res.statusCode, `${res.raw.req.url} ${res.body}`).toBe(400);
  });

  it('a program is refused even when every kind is allowed by name', async () => {
    await setParam('attach.types.000000', 'pdf,exe,docx');
    try {
      expect((await put(EXE, 'a.exe')).statusCode).toBe(400);
    } finally {
      await setParam('attach.types.000000', null);
    }
  });
});

describe('the stored checksum', () => {
  it('is the SHA-256 of the bytes', async () => {
    const bytes = pdf();
    const row = (await put(bytes)).json().data;
    const { createHash } = await import('node:crypto');
    expect(row.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const [u] = await uploadRows(row.link);
    expect(u.sha256).toBe(row.sha256);
    const n = await s.database.db.execute(
      sql`select count(*)::int as n from blade_attach where path = ${row.link}`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
  });
});

describe('in a bucket (s3rver), another tenant’s', () => {
  const require = createRequire(import.meta.url);
  const S3rver = require('s3rver') as new (
    opts: Record<string, unknown>,
  ) => { run(): Promise<AddressInfo>; close(): Promise<void> };
  let s3: { close(): Promise<void> } | undefined;
  let dir = '';
  let port = 0;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 's3rver-attach-'));
    const server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'attach-b' }],
    });
    port = (await server.run()).port;
    s3 = server;
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a private bucket: domain answered, links signed at read time, download and thumbnail from the bucket', async () => {
    const config = await call('POST', '/api/dfem-resource/oss/submit', otherAdmin, {
      ossCode: 'attach-s3',
      category: '1',
      endpoint: `http://127.0.0.1:${port}`,
      transformEndpoint: `http://localhost:${port}`,
      bucketName: 'attach-b',
      region: 'us-east-1',
      pathStyle: 1,
      isPublic: 0,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      signExpiry: 600,
    });
    expect(config.statusCode, config.body).toBe(200);
    const enabled = await call('POST', '/api/dfem-resource/oss/enable', otherAdmin, {
      id: config.json().data.id,
    });
    expect(enabled.statusCode, enabled.body).toBe(200);

    const bytes = pdf('bucket');
    const row = (await put(bytes, '桶.pdf', otherAdmin)).json().data;
    expect(row.domain).toBe(`http://localhost:${port}`);
    expect(row.link).toMatch(/^\/api\/dfem-hope-manage\/file\/attach\//);
    expect(readdirSync(join(s.config.DATA_DIR, 'uploads', 'attach'))).not.toContain(
      row.link.split('/').pop(),
    );
    // the link and the download are redirects to URLs made now, signed for the public domain
    const linked = await s.app.inject({ method: 'GET', url: row.link });
    expect(linked.statusCode).toBe(302);
    const dl = await get(`${ATTACH}/download?id=${row.id}`, otherAdmin);
    expect(dl.statusCode).toBe(302);
    const url = new URL(String(dl.headers.location));
    expect(url.origin).toBe(`http://localhost:${port}`);
    expect(url.searchParams.get('X-Amz-Signature')).toBeTruthy();
    expect(url.searchParams.get('response-content-disposition')).toContain(encodeURIComponent('桶.pdf'));
    const got = await fetch(url.toString().replace('localhost', '127.0.0.1'));
    expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), bytes)).toBe(0);
    // the same file again is not stored again in the bucket either
    expect((await put(bytes, '桶2.pdf', otherAdmin)).json().data).toMatchObject({
      reused: true,
      link: row.link,
    });

    const image = await sharp({ create: { width: 300, height: 600, channels: 3, background: '#06c' } })
      .png()
      .toBuffer();
    const photo = (await put(image, 'p.png', otherAdmin)).json().data;
    const thumb = await s.app.inject({ method: 'GET', url: photo.thumb });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 120, height: 240 });
  });
});
