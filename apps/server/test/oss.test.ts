import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OSS_DEMO } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../src/modules/resource/tables';
import { areaServer, grantCodes, makeRole, recordedCalls, signedInUser } from './fixtures';
import { auth, type TestServer } from './harness';

/**
 * 对象存储 (issue 35, first slice) against s3rver — a real S3 endpoint in Node, on 127.0.0.1 in a temp
 * directory — and the local disk: uploads through the product, URLs made at read time (public, then signed
 * once the bucket turns private, expiring), one enabled config per tenant, the test's four steps with the
 * provider's own codes, the secret write-only, and what an attacker would try.
 */

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (
  opts: Record<string, unknown>,
) => { run(): Promise<AddressInfo>; close(): Promise<void> };
/** s3rver's accounts: a key pair of our own, so the secret differs from every other value the test sees */
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as {
  DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
};
const ACCESS_KEY = 'SMARTOSSKEY01';
const SECRET = 'Sx9-very-secret-value-Q7w2';
DUMMY_ACCOUNT.createKeyPair(ACCESS_KEY, SECRET);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let s: TestServer;
let token: string;
let other: string;
let s3: { close(): Promise<void> };
let s3dir: string;
let port: number;

const { get, post, answers } = recordedCalls(
  () => s,
  '/api/dfem-resource',
  () => token,
);

beforeAll(async () => {
  s3dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3dir,
    configureBuckets: [{ name: 'smart-a' }, { name: 'smart-b' }],
  });
  port = (await server.run()).port;
  s3 = server;
  ({ s, token, other } = await areaServer(['350001', '对象存储别村', 'oss_other'], { LOG_LEVEL: 'debug' }));
}, 60_000);
afterAll(async () => {
  await s?.close();
  await s3?.close();
  rmSync(s3dir, { recursive: true, force: true });
});

const s3Config = (code: string, over: Record<string, unknown> = {}) => ({
  ossCode: code,
  category: '1',
  endpoint: `http://127.0.0.1:${port}`,
  // the browser's address of the same storage: links are made (and signed) for it, never the internal one
  transformEndpoint: `http://localhost:${port}`,
  bucketName: 'smart-a',
  region: 'us-east-1',
  pathStyle: 1,
  isPublic: 1,
  accessKey: ACCESS_KEY,
  secretKey: SECRET,
  signExpiry: 2,
  ...over,
});

async function create(body: object): Promise<string> {
  const r = await post('/oss/submit', body);
  expect(r.statusCode, r.body).toBe(200);
  return String(r.json().data.id);
}

async function putAvatar(tk = token): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)]), 'a.png');
  const r = await s.app.inject({
    method: 'POST',
    url: '/api/dfem-resource/oss/endpoint/put-file',
    headers: auth(tk),
    payload: form,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.link as string;
}

/** A record's file of another kind: a video (written as it arrives) or a PDF attachment. */
async function putRecordFile(kind: 'video' | 'attach', buf: Buffer, name: string): Promise<string> {
  const purpose =
    kind === 'video' ? 'resource=careVideo&field=videoFile' : 'resource=assistanceSystem&field=documents';
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)]), name);
  const r = await s.app.inject({
    method: 'POST',
    url: `/api/dfem-hope-manage/file/${kind}?${purpose}`,
    headers: auth(token),
    payload: form,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.url as string;
}
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isommp41', 'latin1'),
  Buffer.alloc(4096, 7),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');

async function putImage(): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)]), 'photo.png');
  const r = await s.app.inject({
    method: 'POST',
    url: '/api/dfem-hope-manage/file/image?resource=villager&field=photo',
    headers: auth(token),
    payload: form,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.url as string;
}

/** Where the product sends a browser for a stored path: the disk (200) or a bucket's URL (302). */
async function follow(path: string) {
  const r = await s.app.inject({ method: 'GET', url: path });
  return { status: r.statusCode, location: r.headers.location as string | undefined, body: r.rawPayload };
}

const uploadRow = async (path: string) =>
  (await s.database.db.select().from(upload).where(eq(upload.path, path)))[0];

let a = '';
let b = '';
const onDisk: string[] = [];
const inA: string[] = [];

describe('object storage configs', () => {
  it('the seeded local disk is enabled: an upload is served from the disk', async () => {
    const list = await get('/oss/list');
    expect(list.statusCode, list.body).toBe(200);
    const local = list.json().data.records.find((r: { id: string }) => r.id === OSS_DEMO.localId);
    expect(local).toMatchObject({ ossCode: 'local', enabled: 1 });
    const path = await putAvatar();
    onDisk.push(path);
    expect((await uploadRow(path)).ossId).toBe(OSS_DEMO.localId);
    const r = await follow(path);
    expect(r.status).toBe(200);
    expect(Buffer.compare(r.body, PNG)).toBe(0);
  });

  it('the test of the local disk passes its four steps', async () => {
    const r = await post('/oss/test', { id: OSS_DEMO.localId });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.ok).toBe(true);
    expect(r.json().data.steps.map((x: { step: string; ok: boolean }) => [x.step, x.ok])).toEqual([
      ['put', true],
      ['head', true],
      ['get', true],
      ['delete', true],
    ]);
  });

  it('an S3 config against s3rver: the test passes put, head, get and delete', async () => {
    a = await create(s3Config('s3-a'));
    const r = await post('/oss/test', { id: a });
    expect(r.statusCode, r.body).toBe(200);
    const { ok, steps } = r.json().data;
    expect(steps.map((x: { step: string }) => x.step)).toEqual(['put', 'head', 'get', 'delete']);
    expect(steps.every((x: { ok: boolean; code: string | null }) => x.ok && x.code === null)).toBe(true);
    expect(ok).toBe(true);
  });

  it('a wrong access key or bucket: the test says the provider’s own code, and stops after the put', async () => {
    const badKey = await create(s3Config('s3-badkey', { accessKey: 'NOSUCHKEY123' }));
    const r = (await post('/oss/test', { id: badKey })).json().data;
    expect(r.ok).toBe(false);
    expect(r.steps[0]).toMatchObject({ step: 'put', ok: false, code: 'InvalidAccessKeyId', status: 403 });
    expect(r.steps[0].message).toMatch(/Access Key Id/);
    expect(r.steps.slice(1).map((x: { code: string }) => x.code)).toEqual(['Skipped', 'Skipped', 'Skipped']);
    const badBucket = await create(s3Config('s3-nobucket', { bucketName: 'no-such-bucket' }));
    const n = (await post('/oss/test', { id: badBucket })).json().data;
    expect(n.steps[0]).toMatchObject({ ok: false, code: 'NoSuchBucket', status: 404 });
    // neither can be enabled: the tenant's uploads would start failing
    for (const id of [badKey, badBucket]) {
      const refused = await post('/oss/enable', { id });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().data.steps[0].ok).toBe(false);
    }
    const rows = (await get('/oss/list?size=50')).json().data.records as { id: string; enabled: number }[];
    expect(rows.filter((x) => x.enabled === 1).map((x) => x.id)).toEqual([OSS_DEMO.localId]);
  });

  it('enabling A disables the local disk: exactly one enabled config', async () => {
    const r = await post('/oss/enable', { id: a });
    expect(r.statusCode, r.body).toBe(200);
    const rows = (await get('/oss/list?size=50')).json().data.records as { id: string; enabled: number }[];
    expect(rows.filter((x) => x.enabled === 1).map((x) => x.id)).toEqual([a]);
  });

  it('uploads go to the bucket; a public bucket’s URL is its public domain, made at read time', async () => {
    inA.push(await putAvatar(), await putImage());
    for (const path of inA) {
      expect((await uploadRow(path)).ossId).toBe(a);
      const r = await follow(path);
      expect(r.status).toBe(302);
      const url = new URL(r.location as string);
      expect(url.origin).toBe(`http://localhost:${port}`);
      expect(url.pathname).toMatch(/^\/smart-a\/(avatar|village)\/[0-9a-f-]{36}\.png$/);
      expect(url.search).toBe('');
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), PNG)).toBe(0);
    }
    // the file the disk held before is still served from the disk
    expect((await follow(onDisk[0])).status).toBe(200);
  });

  it('a video (streamed) and an attachment go to the bucket too; the attachment downloads as a file', async () => {
    const video = await putRecordFile('video', MP4, 'care.mp4');
    const pdf = await putRecordFile('attach', PDF, 'rules.pdf');
    for (const [path, bytes] of [
      [video, MP4],
      [pdf, PDF],
    ] as const) {
      expect((await uploadRow(path)).ossId).toBe(a);
      expect((await uploadRow(path)).size).toBe(bytes.length);
      const r = await follow(path);
      expect(r.status).toBe(302);
      const got = await fetch(r.location as string);
      expect(got.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), bytes)).toBe(0);
    }
    inA.push(video, pdf);
  });

  it('the bucket turns private: every URL becomes a signed one, no row changes, and the link expires', async () => {
    const before = await Promise.all(inA.map(uploadRow));
    // an edit that leaves the secret empty keeps it
    const edit = await post('/oss/submit', { ...s3Config('s3-a'), id: a, isPublic: 0, secretKey: '' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await Promise.all(inA.map(uploadRow))).toEqual(before);
    const links: URL[] = [];
    for (const path of inA) {
      const r = await follow(path);
      expect(r.status).toBe(302);
      expect(r.location).toBeDefined();
      const url = new URL(r.location as string);
      expect(url.origin).toBe(`http://localhost:${port}`);
      expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(url.searchParams.get('X-Amz-Expires')).toBe('2');
      expect(url.searchParams.get('X-Amz-Credential')).toMatch(new RegExp(`^${ACCESS_KEY}/`));
      expect(r.location).not.toContain(SECRET);
      const got = await fetch(url);
      expect(got.status).toBe(200);
      links.push(url);
    }
    await new Promise((done) => setTimeout(done, 3500));
    for (const url of links) {
      const late = await fetch(url);
      expect(late.status).toBe(403);
      expect(await late.text()).toMatch(/Request has expired/);
    }
    // a fresh read makes a fresh link
    const again = await follow(inA[0]);
    expect((await fetch(again.location as string)).status).toBe(200);
  });

  it('enabling B disables A; old files stay readable in A, new ones go to B', async () => {
    b = await create(s3Config('s3-b', { bucketName: 'smart-b', isPublic: 1 }));
    // the family's clients name it in the query (`enable?id=`), the console in the body
    const r = await post(`/oss/enable?id=${b}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.disabled).toEqual([a]);
    const rows = (await get('/oss/list?size=50')).json().data.records as { id: string; enabled: number }[];
    expect(rows.filter((x) => x.enabled === 1).map((x) => x.id)).toEqual([b]);
    const path = await putAvatar();
    expect((await uploadRow(path)).ossId).toBe(b);
    expect(new URL((await follow(path)).location as string).pathname).toMatch(/^\/smart-b\//);
    const old = await follow(inA[0]);
    expect(new URL(old.location as string).pathname).toMatch(/^\/smart-a\//);
    expect((await fetch(old.location as string)).status).toBe(200);
  });

  it('the sweep removes a file no record names from the bucket it lives in', async () => {
    const path = await putAvatar();
    const row = await uploadRow(path);
    expect(row.ossId).toBe(b);
    const url = (await follow(path)).location as string;
    expect((await fetch(url)).status).toBe(200);
    await s.database.db
      .update(upload)
      .set({ dueAt: new Date(Date.now() - 60_000) })
      .where(eq(upload.id, row.id));
    const swept = await s.app.uploads.sweep();
    expect(swept.removed).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(path)).toBeUndefined();
    expect((await fetch(url)).status).toBe(404);
  });

  it('a config files live in keeps its place and is never removed; the enabled one is not removed', async () => {
    const moved = await post('/oss/submit', {
      ...s3Config('s3-a'),
      id: a,
      bucketName: 'smart-b',
      secretKey: '',
    });
    expect(moved.statusCode, moved.body).toBe(409);
    expect((await post(`/oss/remove?ids=${a}`)).statusCode).toBe(409);
    expect((await post(`/oss/remove?ids=${b}`)).statusCode).toBe(409);
  });

  it('the secret is never answered (list, detail, submit, enable, test) nor logged', async () => {
    const detail = await get(`/oss/detail?id=${a}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).not.toHaveProperty('secretKey');
    expect(detail.json().data.accessKey).toBe(ACCESS_KEY);
    await get('/oss/list');
    expect(answers.length).toBeGreaterThan(10);
    for (const body of answers) expect(body).not.toContain(SECRET);
    const logs = s.logs.join('\n');
    expect(logs.length).toBeGreaterThan(1000);
    expect(logs).not.toContain(SECRET);
  });
});

describe('what an attacker would try', () => {
  it('another tenant’s config: 404 to detail, enable, test; its list does not show it', async () => {
    expect((await get(`/oss/detail?id=${a}`, other)).json().data ?? null).toBeNull();
    expect((await post('/oss/enable', { id: a }, other)).statusCode).toBe(404);
    expect((await post('/oss/test', { id: a }, other)).statusCode).toBe(404);
    const list = (await get('/oss/list', other)).json().data.records as { id: string }[];
    expect(list.map((r) => r.id)).not.toContain(a);
    // its uploads stay on its own default (the local disk), whatever tenant 000000 enabled
    const path = await putAvatar(other);
    expect((await uploadRow(path)).ossId).toBeNull();
    expect((await follow(path)).status).toBe(200);
  });

  it('a user without the enable or test button: 403', async () => {
    const role = await makeRole(s.database.db, '000000', 'oss_viewer');
    await grantCodes(s.database.db, role, ['resource', 'oss', 'oss_view', 'oss_edit']);
    const { token: viewer } = await signedInUser(s, 'oss_viewer', [role]);
    expect((await get('/oss/list', viewer)).statusCode).toBe(200);
    expect((await post('/oss/enable', { id: a }, viewer)).statusCode).toBe(403);
    expect((await post('/oss/test', { id: a }, viewer)).statusCode).toBe(403);
    const rows = (await get('/oss/list?size=50')).json().data.records as { id: string; enabled: number }[];
    expect(rows.filter((x) => x.enabled === 1).map((x) => x.id)).toEqual([b]);
  });

  it('bad input is a 400, never a 500', async () => {
    const cases: [object, string][] = [
      [s3Config('bad-1', { endpoint: 'ftp://127.0.0.1:21' }), 'endpoint'],
      [s3Config('bad-2', { endpoint: 'http://127.0.0.1:9000/path?x=1' }), 'endpoint'],
      [s3Config('bad-3', { bucketName: '' }), 'bucketName'],
      [s3Config('bad-4', { bucketName: 'Upper_Case' }), 'bucketName'],
      [s3Config('bad-5', { secretKey: '' }), 'secretKey'],
      [s3Config('bad-6', { signExpiry: 0 }), 'signExpiry'],
      [s3Config('bad 7'), 'ossCode'],
    ];
    for (const [body, field] of cases) {
      const r = await post('/oss/submit', body);
      expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
      expect(JSON.stringify(r.json())).toContain(field);
    }
    expect((await post('/oss/enable', { id: 'abc' })).statusCode).toBe(400);
    expect((await post('/oss/test', {})).statusCode).toBe(400);
    expect((await post('/oss/test', { id: '1', extra: 1 })).statusCode).toBe(400);
    expect((await post('/oss/enable?id=1%27%20or%201=1')).statusCode).toBe(400);
    expect((await post('/oss/enable', { id: '999999999999' })).statusCode).toBe(404);
  });
});
