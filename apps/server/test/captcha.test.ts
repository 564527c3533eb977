import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex, startTestServer, type TestServer, tokenRequest } from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ CAPTCHA_MODE: 'true' });
});
afterAll(() => s.close());

async function newCaptcha() {
  const res = await s.app.inject({ method: 'GET', url: '/api/dfem-auth/oauth/captcha' });
  expect(res.statusCode).toBe(200);
  const { key, image } = res.json().data as { key: string; image: string };
  expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
  // the test reads the answer from the shared store, where the server keeps it
  const answer = await s.kv.get(`captcha:${key}`);
  expect(answer).toMatch(/^[a-z0-9]{4}$/i);
  return { key, answer: answer! };
}

const login = (key: string, code: string) =>
  tokenRequest(
    s,
    { grant_type: 'captcha', username: 'admin', password: md5Hex('admin') },
    { 'captcha-key': key, 'captcha-code': code },
  );

describe('captcha mode', () => {
  it('the settings tell the browser that captcha mode is on', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/dfem-auth/oauth/settings' });
    expect(res.json().data).toMatchObject({
      captchaMode: true,
      tenantMode: false,
      switchMode: false,
      tokenTime: 3000,
    });
  });

  it('the web client may not skip the captcha with the password grant', async () => {
    const res = await tokenRequest(s, {
      grant_type: 'password',
      username: 'admin',
      password: md5Hex('admin'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('请输入验证码');
  });

  it('accepts the right answer, case-insensitively', async () => {
    const { key, answer } = await newCaptcha();
    const res = await login(key, answer.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().access_token).toBeTruthy();
  });

  it('refuses a wrong answer, and the key is spent by the attempt', async () => {
    const { key, answer } = await newCaptcha();
    const wrong = await login(key, answer === 'abcd' ? 'abce' : 'abcd');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error_description).toBe('验证码不正确');
    const thenRight = await login(key, answer);
    expect(thenRight.statusCode).toBe(400);
  });

  it('refuses a reused captcha', async () => {
    const { key, answer } = await newCaptcha();
    expect((await login(key, answer)).statusCode).toBe(200);
    const again = await login(key, answer);
    expect(again.statusCode).toBe(400);
    expect(again.json().error_description).toBe('验证码不正确');
  });

  it('refuses an expired captcha (its answer gone from the store)', async () => {
    const { key, answer } = await newCaptcha();
    await s.kv.del(`captcha:${key}`); // what the store's expiry does after five minutes
    const res = await login(key, answer);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('验证码不正确');
  });

  it('refuses a missing captcha key or code', async () => {
    const res = await tokenRequest(s, {
      grant_type: 'captcha',
      username: 'admin',
      password: md5Hex('admin'),
    });
    expect(res.statusCode).toBe(400);
  });
});
