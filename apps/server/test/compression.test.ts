import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateEncoding } from '../src/platform/http/compress';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * API answers are compressed as the client asks (platform/http/compress.ts): the same bytes once decoded,
 * the encoding said, Vary set.
 */
/** a long answer (compressed in zlib's thread pool) and a short one (compressed inline) */
const PAGE = '/api/dfem-system/menu/list?current=1&size=200';
const SHORT_PAGE = '/api/dfem-system/dict/parent-list?current=1&size=50';

describe('compressed answers', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await signIn(server)).access_token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (encoding?: string, url = PAGE) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: { ...auth(token), ...(encoding ? { 'accept-encoding': encoding } : {}) },
    });

  it('answers gzip or br as asked, the same JSON once decoded, with its length and Vary', async () => {
    const plain = await get('identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const gz = await get('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('accept-encoding');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.payload);
    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.payload);
    const none = await get();
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.payload).toBe(plain.payload);
    expect(plain.rawPayload.length).toBeGreaterThan(32 * 1024);
  });

  it('compresses a short answer the same way', async () => {
    const plain = await get('identity', SHORT_PAGE);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.rawPayload.length).toBeLessThan(32 * 1024);
    const gz = await get('gzip', SHORT_PAGE);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.payload);
    const br = await get('br', SHORT_PAGE);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.payload);
  });

  it('leaves small answers and x-no-compression alone', async () => {
    const small = await server.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/settings',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const asked = await server.app.inject({
      method: 'GET',
      url: PAGE,
      headers: { ...auth(token), 'accept-encoding': 'gzip', 'x-no-compression': '1' },
    });
    expect(asked.headers['content-encoding']).toBeUndefined();
  });

  it('negotiates as the plugin does: the higher q, br on a tie, never q=0, * and x-gzip as gzip', () => {
    expect(negotiateEncoding(undefined)).toBeUndefined();
    expect(negotiateEncoding('identity')).toBeUndefined();
    expect(negotiateEncoding('deflate')).toBeUndefined();
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=0')).toBeUndefined();
    expect(negotiateEncoding('*')).toBe('gzip');
    expect(negotiateEncoding('X-GZIP')).toBe('gzip');
  });
});
