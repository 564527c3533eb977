import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKv } from '../src/platform/kv';
import {
  auth,
  basic,
  JWT_SECRET,
  md5Hex,
  signIn,
  startTestServer,
  type TestServer,
  tokenRequest,
} from './harness';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const userInfo = (token: string) =>
  s.app.inject({ method: 'GET', url: '/api/dfem-auth/oauth/user-info', headers: auth(token) });

describe('password grant', () => {
  it('answers the flat login result with every field of the contract', async () => {
    const res = await tokenRequest(s, {
      grant_type: 'password',
      username: 'admin',
      password: md5Hex('admin'),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    for (const field of [
      'access_token',
      'token_type',
      'refresh_token',
      'expires_in',
      'tenant_id',
      'user_id',
      'dept_id',
      'post_id',
      'role_id',
      'account',
      'user_name',
      'nick_name',
      'real_name',
      'role_name',
      'avatar',
      'client_id',
      'license',
    ]) {
      expect(body, field).toHaveProperty(field);
    }
    expect(body.token_type).toBe('bearer');
    expect(body.tenant_id).toBe('000000');
    expect(body.account).toBe('admin');
    expect(body.role_name).toBe('administrator');
    expect(body.user_id).toMatch(/^\d+$/);
    expect(typeof body.password_change_required).toBe('boolean');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('refuses a wrong password with error_description and no token', async () => {
    const res = await tokenRequest(s, {
      grant_type: 'password',
      username: 'admin',
      password: md5Hex('nope'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_description: '用户名或密码不正确' });
    expect(res.body).not.toContain('access_token');
  });

  it('answers in English when the browser asks for it', async () => {
    const res = await tokenRequest(
      s,
      { grant_type: 'password', username: 'admin', password: md5Hex('nope') },
      { 'accept-language': 'en-US,en;q=0.9' },
    );
    expect(res.json().error_description).toBe('Incorrect username or password');
  });

  it('refuses an unknown user the same way as a wrong password', async () => {
    const res = await tokenRequest(s, { grant_type: 'password', username: 'ghost', password: md5Hex('x') });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('用户名或密码不正确');
  });

  it('locks the account after 5 failures: the 6th attempt fails even with the right password', async () => {
    await createUser('locky', 'right-password');
    for (let i = 0; i < 5; i++) {
      const r = await tokenRequest(s, {
        grant_type: 'password',
        username: 'locky',
        password: md5Hex('wrong'),
      });
      expect(r.json().error_description).toBe('用户名或密码不正确');
    }
    const sixth = await tokenRequest(s, {
      grant_type: 'password',
      username: 'locky',
      password: md5Hex('right-password'),
    });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().error_description).toBe('登录错误次数过多,账号已锁定,请 30 分钟后再试');
    expect(sixth.body).not.toContain('access_token');
    // another account is not affected
    expect((await signIn(s)).access_token).toBeTruthy();
  });

  it('takes the lock count from the account.failCount parameter', async () => {
    await createUser('strict', 'pw');
    await s.database.db.execute(
      (await import('drizzle-orm'))
        .sql`update blade_param set param_value = '2' where param_key = 'account.failCount'`,
    );
    try {
      for (let i = 0; i < 2; i++)
        await tokenRequest(s, { grant_type: 'password', username: 'strict', password: md5Hex('bad') });
      const third = await tokenRequest(s, {
        grant_type: 'password',
        username: 'strict',
        password: md5Hex('pw'),
      });
      expect(third.json().error_description).toContain('锁定');
    } finally {
      await s.database.db.execute(
        (await import('drizzle-orm'))
          .sql`update blade_param set param_value = '5' where param_key = 'account.failCount'`,
      );
    }
  });

  it('refuses a password that is not an md5 hex without checking it', async () => {
    const res = await tokenRequest(s, { grant_type: 'password', username: 'admin', password: 'admin' });
    expect(res.statusCode).toBe(400);
  });
});

describe('client authentication', () => {
  it('refuses a bad client secret with 401', async () => {
    const res = await tokenRequest(
      s,
      { grant_type: 'password', username: 'admin', password: md5Hex('admin') },
      { authorization: basic('saber', 'wrong') },
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().error_description).toBe('客户端认证失败');
  });

  it('refuses a missing or unknown client with 401', async () => {
    const none = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-auth/oauth/token?grant_type=password',
    });
    expect(none.statusCode).toBe(401);
    const unknown = await tokenRequest(
      s,
      { grant_type: 'password', username: 'admin', password: md5Hex('admin') },
      { authorization: basic('intruder', 'saber_secret') },
    );
    expect(unknown.statusCode).toBe(401);
  });

  it('answers a clear "not configured" error for social and SSO grants', async () => {
    for (const grant of ['social', 'authorization_code']) {
      const res = await tokenRequest(s, { grant_type: grant, code: 'x', state: 'y' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_description).toBe('该登录方式未配置');
    }
  });
});

describe('tokens', () => {
  it('refresh works once; replaying the used refresh token is refused and ends its successors', async () => {
    const first = await signIn(s);
    const r1 = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.access_token).not.toBe(first.access_token);
    expect((await userInfo(second.access_token)).statusCode).toBe(200);

    const replay = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_description).toBe('刷新令牌无效或已使用,请重新登录');
    // the replay revoked the whole family: the successor's tokens are dead too
    expect((await userInfo(second.access_token)).statusCode).toBe(401);
    const successor = await tokenRequest(s, {
      grant_type: 'refresh_token',
      refresh_token: second.refresh_token,
    });
    expect(successor.statusCode).toBe(400);
  });

  it('a refresh token from before a restart of a server without Redis still refreshes (its in-process store starts empty by nature), and a signed-out one stays refused', async () => {
    const before = await startTestServer({}, { alongside: s, kv: new MemoryKv() });
    const kept = await signIn(before);
    const ended = await signIn(before);
    const out = await before.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(ended.access_token),
    });
    expect(out.statusCode).toBe(200);
    await before.close();
    // a token's time has whole seconds: the restart comes in a later one
    await new Promise((r) => setTimeout(r, 1100));
    const after = await startTestServer({}, { alongside: s, kv: new MemoryKv() });
    try {
      const refreshed = await tokenRequest(after, {
        grant_type: 'refresh_token',
        refresh_token: kept.refresh_token,
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const again = await tokenRequest(after, {
        grant_type: 'refresh_token',
        refresh_token: ended.refresh_token,
      });
      expect(again.statusCode).not.toBe(200);
    } finally {
      await after.close();
    }
  });

  it('two racing refreshes with one token: exactly one wins', async () => {
    const t = await signIn(s);
    const results = await Promise.all(
      [1, 2].map(() => tokenRequest(s, { grant_type: 'refresh_token', refresh_token: t.refresh_token })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('an access token is not accepted as a refresh token', async () => {
    const t = await signIn(s);
    const res = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: t.access_token });
    expect(res.statusCode).toBe(400);
  });

  it('after logout the old access and refresh tokens are refused', async () => {
    const t = await signIn(s);
    expect((await userInfo(t.access_token)).statusCode).toBe(200);
    const out = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(t.access_token),
    });
    expect(out.statusCode).toBe(200);
    expect((await userInfo(t.access_token)).statusCode).toBe(401);
    const refreshed = await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(refreshed.statusCode).toBe(400);
  });

  it('POST logout ends the session as well', async () => {
    const t = await signIn(s);
    const out = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(t.access_token),
      payload: { type: 'logout' },
    });
    expect(out.statusCode).toBe(200);
    expect((await userInfo(t.access_token)).statusCode).toBe(401);
  });

  it('refuses forged, expired and alg:none tokens with 401', async () => {
    const good = await signIn(s);
    const claims = JSON.parse(Buffer.from(good.access_token.split('.')[1], 'base64url').toString());
    const forged = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('some-other-key-that-is-long-enough-000000000'));
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(JWT_SECRET));
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const tampered = `${good.access_token.split('.')[0]}.${b64({ ...claims, tid: '999999' })}.${good.access_token.split('.')[2]}`;
    for (const token of [forged, expired, none, tampered, 'garbage']) {
      const res = await userInfo(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    }
    expect((await userInfo(good.access_token)).statusCode).toBe(200);
  });

  it('requests without a token get 401 on guarded endpoints', async () => {
    for (const url of [
      '/api/dfem-auth/oauth/user-info',
      '/api/dfem-system/menu/routes',
      '/api/dfem-user/page',
    ]) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 401, success: false, data: null });
    }
  });
});

describe('first sign-in with the seeded password', () => {
  it('asks for a new password, and after the change it no longer does', async () => {
    // as seeded (the harness clears the flag for the other tests)
    await s.database.db.execute(
      (await import('drizzle-orm'))
        .sql`update blade_user set must_change_password = true where account = 'admin'`,
    );
    const t = await signIn(s);
    expect(t.password_change_required).toBe(true);
    const info = await userInfo(t.access_token);
    expect(info.json().data.passwordChangeRequired).toBe(true);

    const mismatch = await changePassword(t.access_token, 'admin', 'new-pass-1', 'new-pass-2');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().msg).toBe('两次密码输入不一致');
    const wrongOld = await changePassword(t.access_token, 'bad', 'new-pass-1', 'new-pass-1');
    expect(wrongOld.json().msg).toBe('原密码不正确');

    const done = await changePassword(t.access_token, 'admin', 'new-pass-1', 'new-pass-1');
    expect(done.statusCode).toBe(200);
    const again = await signIn(s, 'admin', 'new-pass-1');
    expect(again.password_change_required).toBe(false);
    // restore for the other tests of this file
    expect((await changePassword(again.access_token, 'new-pass-1', 'admin', 'admin')).statusCode).toBe(200);
  });
});

describe('secrets never leave the server', () => {
  it('no response or log line carries a password hash, an md5 password or a token', async () => {
    const t = await signIn(s);
    const refreshed = (
      await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: t.refresh_token })
    ).json();
    const bodies: string[] = [];
    for (const url of [
      '/api/dfem-auth/oauth/user-info',
      '/api/dfem-user/page?current=1&size=10',
      '/api/dfem-system/menu/routes',
      '/api/dfem-system/menu/buttons',
    ]) {
      bodies.push((await s.app.inject({ method: 'GET', url, headers: auth(refreshed.access_token) })).body);
    }
    await tokenRequest(s, { grant_type: 'password', username: 'admin', password: md5Hex('wrong-once') });
    await s.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(refreshed.access_token),
    });
    const logs = s.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('/api/dfem-auth/oauth/token');
    for (const secret of [
      t.access_token,
      t.refresh_token,
      refreshed.access_token,
      refreshed.refresh_token,
      md5Hex('admin'),
      md5Hex('wrong-once'),
      '$argon2',
      'saber_secret',
    ]) {
      expect(logs).not.toContain(secret);
      for (const b of bodies) expect(b).not.toContain(secret);
    }
    for (const b of bodies) expect(b).not.toMatch(/"password"/);
  });
});

async function changePassword(token: string, oldP: string, newP: string, newP1: string) {
  const q = new URLSearchParams({
    oldPassword: md5Hex(oldP),
    newPassword: md5Hex(newP),
    newPassword1: md5Hex(newP1),
  });
  return s.app.inject({ method: 'POST', url: `/api/dfem-user/update-password?${q}`, headers: auth(token) });
}

async function createUser(account: string, password: string) {
  const { hashSecret } = await import('../src/platform/auth/password');
  const { schema } = await import('../src/platform/db');
  const [u] = await s.database.db
    .insert(schema.user)
    .values({ account, password: await hashSecret(md5Hex(password)), realName: account })
    .returning({ id: schema.user.id });
  await s.database.db.insert(schema.userRole).values({ userId: u.id, roleId: '1123598816738675202' });
  return u.id;
}
