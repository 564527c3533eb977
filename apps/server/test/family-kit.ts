import { afterAll, beforeAll } from 'vitest';
import { basic, md5Hex, signIn, startTestServer, type TestServer } from './harness';

/**
 * What the tests of the family's own console share (family.test.ts, family-screens.test.ts): its calls made
 * the way that client sends them — `Authorization: Basic` always, `Blade-Auth: bearer …` once signed in —
 * and its sign-in on its own path.
 */

/** The family's axios: the Basic client header on every request, the token when there is one. */
export const family = (token?: string, lang?: string) => ({
  authorization: basic(),
  ...(token ? { 'blade-auth': `bearer ${token}` } : {}),
  ...(lang ? { 'accept-language': lang } : {}),
});

export type Node = { code: string; children?: Node[]; hasChildren?: boolean } & Record<string, unknown>;

/**
 * Starts a test file's server (its beforeAll and afterAll) and answers the server `s` and the seeded
 * administrator's token `admin` (set once beforeAll has run), and the family's calls, which read them.
 */
export function familyServer() {
  const k = { s: undefined as unknown as TestServer, admin: '' };
  beforeAll(async () => {
    k.s = await startTestServer();
    k.admin = (await signIn(k.s)).access_token;
  });
  afterAll(() => k.s.close());

  const get = (url: string, token = k.admin, lang?: string) =>
    k.s.app.inject({ method: 'GET', url, headers: family(token, lang) });
  const post = (url: string, payload?: object, token = k.admin) =>
    k.s.app.inject({ method: 'POST', url, headers: family(token), ...(payload ? { payload } : {}) });

  /** `loginByUsername` / `refreshToken` of the family's api/user.js. */
  const familyToken = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    k.s.app.inject({
      method: 'POST',
      url: `/api/dfem-auth/token?${new URLSearchParams(params)}`,
      headers: { ...family(), ...headers },
    });
  const familySignIn = (account = 'admin', password = 'admin', tenantId = '000000') =>
    familyToken({ grantType: 'password', tenantId, account, password: md5Hex(password), type: 'account' });

  return Object.assign(k, { get, post, familyToken, familySignIn });
}
