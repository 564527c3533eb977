import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, signIn, startTestServer, type TestServer } from './harness';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

// the smallest valid PNG: a 1×1 transparent pixel
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function upload(buf: Buffer, name = 'a.png', token_ = token) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(buf)]), name);
  return s.app.inject({
    method: 'POST',
    url: '/api/dfem-resource/file/avatar',
    headers: auth(token_),
    payload: form,
  });
}

describe('avatar upload', () => {
  it('stores a PNG, serves it back, and the profile can point at it', async () => {
    const res = await upload(PNG);
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json().data;
    expect(url).toMatch(/^\/api\/dfem-resource\/file\/avatar\/[0-9a-f-]{36}\.png$/);
    const got = await s.app.inject({ method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    const saved = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-user/update-info',
      headers: auth(token),
      payload: { avatar: url, realName: '管理员', phone: '13800000000' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const info = await s.app.inject({ method: 'GET', url: '/api/dfem-user/info', headers: auth(token) });
    expect(info.json().data.avatar).toBe(url);
  });

  it('refuses a file that only pretends to be an image', async () => {
    const res = await upload(Buffer.from('<svg onload="alert(1)"></svg>'), 'evil.png');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('头像只能是 JPG 或 PNG 图片');
  });

  it('refuses an image over 500 KB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(500 * 1024)]);
    const res = await upload(big);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('头像图片大小不能超过 500KB');
  });

  it('needs a signed-in user to upload, and never serves a path outside the avatars', async () => {
    const anon = await s.app.inject({ method: 'POST', url: '/api/dfem-resource/file/avatar' });
    expect(anon.statusCode).toBe(401);
    for (const name of ['..%2F..%2Fjwt-secret', '..%2Fjwt-secret.png', 'x.png']) {
      const res = await s.app.inject({ method: 'GET', url: `/api/dfem-resource/file/avatar/${name}` });
      expect(res.statusCode).toBe(404);
    }
  });

  it('a profile cannot point its avatar anywhere else', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-user/update-info',
      headers: auth(token),
      payload: { avatar: 'https://evil.example/x.png', realName: '管理员', phone: '13800000000' },
    });
    expect(res.statusCode).toBe(400);
  });
});
