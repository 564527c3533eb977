import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { md5Hex } from '../md5';
import { BASIC_AUTH, buildUrl, configureHttp, HttpError, request } from './client';
import { setErrorToast } from './toast';

/**
 * The client's reading of responses (spec §8), against a real local HTTP server that answers with fixed
 * status/body pairs and echoes the request headers.
 */
type Canned = { status: number; body?: unknown; delayMs?: number };
const CANNED: Record<string, Canned> = {
  '/ok': { status: 200, body: { code: 200, success: true, data: { a: 1 }, msg: '操作成功' } },
  '/flat-ok': { status: 200, body: { access_token: 't' } },
  '/code-400-in-200': { status: 200, body: { code: 400, success: false, data: null, msg: '参数错误' } },
  '/flat-400': { status: 400, body: { error_code: 400, error_description: '用户名或密码不正确' } },
  '/no-message': { status: 500, body: { code: 500 } },
  '/unauthorized': { status: 401, body: { code: 401, success: false, data: null, msg: '请求未授权' } },
  '/teapot': { status: 418, body: { code: 418, msg: 'whitelisted' } },
  '/bad-gateway': { status: 502, body: 'Bad Gateway' },
  '/slow': { status: 200, body: { code: 200 }, delayMs: 2_000 },
};

let server: Server;
let base = '';
const toasts: string[] = [];
let unauthorized = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/echo') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 200, data: { headers: req.headers, url: req.url } }));
      return;
    }
    const canned = CANNED[path] ?? { status: 404, body: { code: 404, msg: 'nope' } };
    setTimeout(() => {
      res.writeHead(canned.status, { 'content-type': 'application/json' });
      res.end(typeof canned.body === 'string' ? canned.body : JSON.stringify(canned.body));
    }, canned.delayMs ?? 0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  toasts.length = 0;
  unauthorized = 0;
  setErrorToast((text) => toasts.push(text));
  configureHttp({
    getToken: () => 'tok',
    getLanguage: () => 'en',
    translate: (key) => `t:${key}`,
    onUnauthorized: () => {
      unauthorized += 1;
    },
    silentCodes: [418],
  });
});

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('expected the request to fail');
}

describe('http client', () => {
  it('resolves a code-200 envelope and a flat 200 body', async () => {
    expect(await request(`${base}/ok`)).toMatchObject({ code: 200, data: { a: 1 } });
    expect(await request(`${base}/flat-ok`)).toEqual({ access_token: 't' });
    expect(toasts).toEqual([]);
  });

  it('sends the Basic client header, the bearer token, the language and the query', async () => {
    const res = await request<{ data: { headers: Record<string, string>; url: string } }>(`${base}/echo`, {
      params: { a: 'x y', b: [1, 2], skip: undefined },
      headers: { 'Tenant-Id': '000000', Empty: '' },
    });
    const { headers, url } = res.data;
    expect(headers.authorization).toBe(BASIC_AUTH);
    expect(BASIC_AUTH).toBe(`Basic ${Buffer.from('saber:saber_secret').toString('base64')}`);
    expect(headers['blade-auth']).toBe('bearer tok');
    expect(headers['accept-language']).toBe('en');
    expect(headers['tenant-id']).toBe('000000');
    expect(headers.empty).toBeUndefined();
    expect(url).toBe('/echo?a=x+y&b=1%2C2');
  });

  it('leaves out Blade-Auth when auth is false or signed out', async () => {
    const res = await request<{ data: { headers: Record<string, string> } }>(`${base}/echo`, { auth: false });
    expect(res.data.headers['blade-auth']).toBeUndefined();
  });

  it('rejects a body code other than 200 even with HTTP 200, toasting msg', async () => {
    const error = await failure(request(`${base}/code-400-in-200`));
    expect(error.code).toBe(400);
    expect(error.message).toBe('参数错误');
    expect(toasts).toEqual(['参数错误']);
  });

  it('uses the HTTP status when the body has no code, and error_description as the message', async () => {
    const error = await failure(request(`${base}/flat-400`));
    expect(error.code).toBe(400);
    expect(error.message).toBe('用户名或密码不正确');
    expect(toasts).toEqual(['用户名或密码不正确']);
  });

  it('falls back to the translated unknown-error message', async () => {
    const error = await failure(request(`${base}/no-message`));
    expect(error.message).toBe('t:http.unknownError');
  });

  it('logs out on 401 and still rejects', async () => {
    const error = await failure(request(`${base}/unauthorized`));
    expect(error.code).toBe(401);
    expect(unauthorized).toBe(1);
    expect(toasts).toEqual(['请求未授权']);
  });

  it('rejects whitelisted codes silently', async () => {
    const error = await failure(request(`${base}/teapot`));
    expect(error.code).toBe(418);
    expect(toasts).toEqual([]);
    expect(unauthorized).toBe(0);
  });

  it('does not pass statuses above 500 to the handler', async () => {
    const error = await failure(request(`${base}/bad-gateway`));
    expect(error.status).toBe(502);
    expect(error.message).toBe('t:http.status');
  });

  it('does not toast when the call is silent', async () => {
    await failure(request(`${base}/flat-400`, { silent: true }));
    expect(toasts).toEqual([]);
  });

  it('times out', async () => {
    const error = await failure(request(`${base}/slow`, { timeout: 100 }));
    expect(error.message).toBe('t:http.timeout');
    expect(toasts).toEqual(['t:http.timeout']);
  });

  it('builds query strings', () => {
    expect(buildUrl('/a', { x: 1, y: null, z: true })).toBe('/a?x=1&z=true');
    expect(buildUrl('/a?b=1', { x: 'é' })).toBe('/a?b=1&x=%C3%A9');
    expect(buildUrl('/a', {})).toBe('/a');
  });
});

describe('md5', () => {
  it('is the lower-case hex md5 of the UTF-8 text', () => {
    expect(md5Hex('admin')).toBe('21232f297a57a5a743894a0e4a801fc3');
    expect(md5Hex('密码')).toMatch(/^[0-9a-f]{32}$/);
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });
});
