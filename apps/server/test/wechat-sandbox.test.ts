import { WECHAT_DEMO, WX_SYNC } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FOLLOWERS } from '../src/modules/wechat/sandbox/demo';
import { freePort, serviceCalls } from './fixtures';
import { signIn, startTestServer, type TestServer } from './harness';

/**
 * What `npm start` does for the public account (WECHAT_SANDBOX=on): the server runs the WeChat sandbox and
 * talks to it, and the seeded demo account works at once — its menu is released and its followers come in.
 */
let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer({ WECHAT_SANDBOX: 'on', WECHAT_SANDBOX_PORT: String(await freePort()) });
  token = (await signIn(s)).access_token;
});
afterAll(() => s?.close());

const { get, post } = serviceCalls(
  () => s,
  '/api/dfem-hope-wx',
  () => token,
);

describe('the demo account against the built-in sandbox', () => {
  it('releases a menu and synchronises the demo followers', async () => {
    const menu = { button: [{ type: 'view', name: '村务公开', url: 'https://www.example.com/affairs' }] };
    const released = await post('/wxMenu/release', menu);
    expect(released.statusCode, released.body).toBe(200);
    expect((await post('/wxUser/synchron', { accountId: WECHAT_DEMO.accountId })).statusCode).toBe(200);
    let p = (await get('/wxUser/synchron/progress')).json().data;
    for (let i = 0; i < 100 && p.state === WX_SYNC.running; i++) {
      await new Promise((r) => setTimeout(r, 100));
      p = (await get('/wxUser/synchron/progress')).json().data;
    }
    expect(p).toMatchObject({ state: WX_SYNC.done, done: DEMO_FOLLOWERS, total: DEMO_FOLLOWERS });
    expect((await get('/wxUser/page?current=1&size=10')).json().data.total).toBe(DEMO_FOLLOWERS);
  });
});
