import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/platform/db';
import { probe } from '../src/platform/http/ready';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Issue 38: the readiness endpoint a proxy's health check asks (`GET /api/ready`), and the drain a SIGTERM
 * starts (server.drain: not ready at once, requests in flight answered, then no connection accepted).
 */
const READY = { code: 200, success: true, data: { database: 'up', sharedState: 'up' } };
const REDIS = Boolean(process.env.REDIS_URL);

const never = () => new Promise<never>(() => {});

describe('GET /api/ready', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  }, 180_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answers 200 with the database and the shared state up, without a token', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(READY);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('reads no token: a bad or a good one changes nothing', async () => {
    const bad = await s.app.inject({ method: 'GET', url: '/api/ready', headers: auth('not-a-token') });
    expect(bad.statusCode).toBe(200);
    const { access_token } = await signIn(s);
    const good = await s.app.inject({ method: 'GET', url: '/api/ready', headers: auth(access_token) });
    expect(good.json()).toEqual(READY);
  });

  it('is not logged once per call at info (a health check every second would flood the log)', async () => {
    const before = s.logs.length;
    for (let i = 0; i < 5; i++) await s.app.inject({ method: 'GET', url: '/api/ready' });
    const lines = s.logs.slice(before).join('');
    expect(lines).not.toContain('/api/ready');
    expect(lines).not.toContain('request completed');
  });

  it('answers 503 naming the database when a select 1 does not answer within 1 s', async () => {
    const db = s.database.db as Db & { execute: Db['execute'] };
    const execute = db.execute;
    db.execute = never as unknown as Db['execute'];
    try {
      const started = Date.now();
      const res = await s.app.inject({ method: 'GET', url: '/api/ready' });
      expect(Date.now() - started).toBeLessThan(2500);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 503,
        success: false,
        data: { database: 'down', sharedState: 'up' },
      });
      expect(res.body).not.toMatch(/stack|at .*\.ts/);
      // a failing database (not a hanging one) is down too, and the change is logged once, at warn
      db.execute = (() => Promise.reject(new Error('connection refused'))) as unknown as Db['execute'];
      await new Promise((r) => setTimeout(r, 5100)); // the hung check is let go after 5 s
      const failing = await s.app.inject({ method: 'GET', url: '/api/ready' });
      expect(failing.statusCode).toBe(503);
      expect(s.logs.join('')).toContain('not ready');
    } finally {
      db.execute = execute;
    }
    const back = await s.app.inject({ method: 'GET', url: '/api/ready' });
    expect(back.statusCode).toBe(200);
  }, 20_000);

  it.skipIf(!REDIS)(
    'answers 503 naming the shared state when a Redis PING does not answer within 1 s',
    async () => {
      const ping = s.kv.ping;
      s.kv.ping = never;
      try {
        const res = await s.app.inject({ method: 'GET', url: '/api/ready' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({
          code: 503,
          success: false,
          data: { database: 'up', sharedState: 'down' },
        });
      } finally {
        s.kv.ping = ping;
      }
    },
  );

  it('a hung check is run once, not once per call', async () => {
    let calls = 0;
    const check = probe(() => {
      calls++;
      return never();
    }, 50);
    expect(await Promise.all([check(), check(), check()])).toEqual(['down', 'down', 'down']);
    expect(await check()).toBe('down');
    expect(calls).toBe(1);
    const ok = probe(async () => {}, 50);
    expect(await ok()).toBe('up');
  });
});

/** one HTTP request over its own connection; the body written in two halves, the second `gap` ms later */
function slowPost(port: number, path: string, headers: Record<string, string>, body: string, gap: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    setTimeout(() => req.end(body.slice(half)), gap);
  });
}

function get(port: number, path: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('drain (what SIGTERM runs)', () => {
  it('is not ready at once, answers the requests in flight, then accepts no connection', async () => {
    const s = await startTestServer();
    const { access_token } = await signIn(s);
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = s.app.server.address() as AddressInfo;
    expect((await get(port, '/api/ready')).status).toBe(200);

    // a request in flight: its body still arriving when the drain starts
    const inFlight = slowPost(
      port,
      '/api/dfem-system/dict-biz/submit',
      auth(access_token),
      JSON.stringify({ code: 'drain_probe', dictValue: '排空探测', sort: 1 }),
      600,
    );
    await new Promise((r) => setTimeout(r, 100));
    const draining = s.drain(400);

    // during the drain delay: still serving, but not ready
    const ready = await get(port, '/api/ready');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({
      code: 503,
      success: false,
      data: { database: 'up', sharedState: 'up', draining: true },
    });

    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).success).toBe(true);
    await draining;
    await expect(get(port, '/api/ready')).rejects.toThrow(/ECONNREFUSED/);
  }, 120_000);
});
