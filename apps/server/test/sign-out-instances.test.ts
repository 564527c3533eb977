import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config';
import { openDatabase } from '../src/platform/db';
import { deploymentId, kvPrefixOf } from '../src/platform/kv';
import { createServer, type Server } from '../src/server';
import { auth, JWT_SECRET, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * Issue 31 item 8, as the attacker did it: two servers started like production (each its own connection
 * pool, its own data folder, no prefix handed in: the shared store's namespace is the one they derive) on one
 * PostgreSQL and one Redis. A sign-out on one must end the access token on the other at once, also when the
 * two name the same database differently (`127.0.0.1` and `localhost`, as two hosts' settings may).
 *
 * Needs TEST_DATABASE_URL (the `api-postgres` project) and REDIS_URL: one PGlite folder can be opened by one
 * process only, and without Redis every instance keeps its shared state in its own memory, so there are
 * never two instances to compare (a single instance's sign-out is auth.test.ts's).
 */
const POSTGRES = process.env.TEST_DB === 'postgres';
const REDIS_URL = process.env.REDIS_URL;
const why = !POSTGRES
  ? 'needs PostgreSQL (TEST_DATABASE_URL, project api-postgres): a PGlite folder opens in one process only'
  : !REDIS_URL
    ? 'needs REDIS_URL: without Redis no two instances share a store'
    : '';
if (why) console.log(`sign-out-instances.test.ts skipped: ${why}`);

/** the same database, named the other way round (localhost ↔ 127.0.0.1) */
function otherSpelling(url: string): string {
  const u = new URL(url);
  u.hostname =
    u.hostname === 'localhost' ? '127.0.0.1' : u.hostname === '127.0.0.1' ? 'localhost' : u.hostname;
  return u.toString();
}

async function production(databaseUrl: string, redisUrl = REDIS_URL): Promise<Server> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'smart-instance-')),
    JWT_SECRET,
    CAPTCHA_MODE: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
    MQTT_PORT: '-1',
  });
  const server = await createServer(config, { logger: false });
  await server.app.ready();
  return server;
}

/**
 * A freshly seeded database of this worker (its administrator no longer has to change its password) for a
 * describe's servers, which are closed after it: `url` once `beforeAll` has run.
 */
function onFreshDatabase() {
  const state = { url: '', servers: [] as Server[] };
  beforeAll(async () => {
    const fresh = await startTestServer();
    state.url = fresh.config.DATABASE_URL!;
    await fresh.close();
  });
  afterAll(async () => {
    for (const s of state.servers) await s.close();
  });
  return state;
}

describe.skipIf(Boolean(why))('a sign-out on one instance, seen by another at once', () => {
  const db = onFreshDatabase();

  const userInfo = (s: Server, token: string) =>
    s.app.inject({ method: 'GET', url: '/api/dfem-auth/oauth/user-info', headers: auth(token) });

  it.each([
    ['the same database URL', (u: string) => u],
    ['the same database spelled differently', otherSpelling],
  ])('%s: logout on A, the token refused by B at once', async (_name, spell) => {
    const a = await production(db.url);
    const b = await production(spell(db.url));
    db.servers.push(a, b);
    const t = await signIn(a);
    expect((await userInfo(a, t.access_token)).statusCode).toBe(200);
    expect((await userInfo(b, t.access_token)).statusCode).toBe(200);
    const out = await a.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(t.access_token),
    });
    expect(out.statusCode).toBe(200);
    expect((await userInfo(a, t.access_token)).statusCode).toBe(401);
    // at once: the very next request on the other instance
    expect((await userInfo(b, t.access_token)).statusCode).toBe(401);
    // and the sign-in's refresh token is dead there too
    const refreshed = await tokenRequest(b, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(refreshed.statusCode).toBe(400);
  });
});

describe('the identity the shared store is named after', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is the database’s own: read alike by every server on it, different for another database', async () => {
    const first = await deploymentId(s.database.db);
    // a second start (or a second server) on this database reads the same, whatever its URL says
    expect(await deploymentId(s.database.db)).toBe(first);
    // another database (its table made as migration 0034 makes it; migrating all of it takes long)
    const other = await openDatabase({ dataDir: 'memory://' });
    try {
      await other.db.execute(
        sql.raw(
          'create table app_identity (name varchar(32) primary key, value varchar(64) not null, create_time timestamptz not null default now())',
        ),
      );
      expect(await deploymentId(other.db)).not.toBe(first);
    } finally {
      await other.close();
    }
    expect(kvPrefixOf({}, first)).not.toBe(kvPrefixOf({}, `${first}x`));
  });
});

describe('a sign-out outlives the shared store', () => {
  it('a server started afresh (its store empty: no Redis and a restart, or an emptied Redis) still refuses it', async () => {
    const before = await startTestServer();
    const out = await signIn(before);
    const kept = await signIn(before);
    const logout = await before.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(out.access_token),
    });
    expect(logout.statusCode).toBe(200);
    await before.close();
    // the same database and settings, a store that never saw the sign-out
    const after = await createServer(before.config, {
      database: before.database,
      logger: false,
      kvPrefix: `test:${randomUUID()}:`,
    });
    try {
      await after.app.ready();
      const info = (token: string) =>
        after.app.inject({ method: 'GET', url: '/api/dfem-auth/oauth/user-info', headers: auth(token) });
      expect((await info(out.access_token)).statusCode).toBe(401);
      const refreshed = await tokenRequest(after, {
        grant_type: 'refresh_token',
        refresh_token: out.refresh_token,
      });
      expect(refreshed.statusCode).toBe(400);
      // the other sign-in of the same account is untouched
      expect((await info(kept.access_token)).statusCode).toBe(200);
    } finally {
      await after.close();
    }
  });
});

describe.skipIf(!POSTGRES)('two instances on one PostgreSQL without Redis', () => {
  const db = onFreshDatabase();

  it('a sign-out on A is refused by B within a few seconds (B copies the sign-outs from the database)', async () => {
    const a = await production(db.url, '');
    const b = await production(otherSpelling(db.url), '');
    db.servers.push(a, b);
    const t = await signIn(a);
    const info = (s: Server) =>
      s.app.inject({ method: 'GET', url: '/api/dfem-auth/oauth/user-info', headers: auth(t.access_token) });
    expect((await info(b)).statusCode).toBe(200);
    const out = await a.app.inject({
      method: 'GET',
      url: '/api/dfem-auth/oauth/logout',
      headers: auth(t.access_token),
    });
    expect(out.statusCode).toBe(200);
    expect((await info(a)).statusCode).toBe(401);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 60_000) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await info(b)).statusCode;
    }
    console.log(`without Redis, B refused the signed-out token after ${Date.now() - started} ms`);
    expect(status).toBe(401);
  });
});
