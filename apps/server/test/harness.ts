import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { WEB_CLIENT_ID, WEB_CLIENT_SECRET } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ExtraResource } from '../src/modules/resources';
import { dropAccessCaches } from '../src/modules/system/caches';
import { type Config, loadConfig } from '../src/platform/config';
import { forgetAllCounts } from '../src/platform/crud/count-cache';
import { type Database, openDatabase } from '../src/platform/db';
import { LocalStorage } from '../src/platform/storage';
import { seed } from '../src/seed';
import { md5Hex } from '../src/seed/system';
import { createServer, type Server } from '../src/server';

/**
 * API tests run the real server in-process against a real database: PGlite (one instance per test worker)
 * or, in the `postgres` project, a PostgreSQL database per worker under TEST_DATABASE_URL. Every test file
 * starts from a freshly seeded database. Shared state goes to Redis when REDIS_URL is set.
 */
export const dbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

let shared: Promise<{ database: Database; url?: string }> | undefined;

async function postgresUrl(): Promise<string> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is required for the postgres project');
  const name = `smart_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function sharedDatabase() {
  shared ??= (async () => {
    const url = dbKind === 'postgres' ? await postgresUrl() : undefined;
    const database = await openDatabase({ url, dataDir: 'memory://', poolSize: 10 });
    await database.migrate();
    return { database, url };
  })();
  return shared;
}

/**
 * Empties every table and seeds again, so each test file sees the first-start state (the seed's files, the
 * demo's photos, written to the test server's data folder).
 */
export async function resetDatabase(database: Database, dataDir: string) {
  const { rows } = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as { rows: { tablename: string }[] };
  const names = rows.map((r) => `"${r.tablename}"`).join(', ');
  if (names) await database.db.execute(sql.raw(`TRUNCATE ${names} RESTART IDENTITY CASCADE`));
  await seed(database.db, { storage: new LocalStorage(dataDir) });
  // the seeded administrator must change its password before the server serves it anything else; the
  // tests act as an administrator who already has (auth.test.ts checks the first sign-in itself)
  await database.db.execute(sql`update blade_user set must_change_password = false where account = 'admin'`);
  // what the previous file's server remembered (grants, totals) belongs to the database just emptied
  dropAccessCaches();
  forgetAllCounts();
}

export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestServer extends Server {
  config: Config;
  logs: string[];
}

/**
 * A server on a freshly seeded database. With `alongside`, a second instance over the same database and
 * shared store as that one (what several instances behind a load balancer share), without resetting it.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  opts: { alongside?: TestServer; extraResources?: ExtraResource[] } = {},
): Promise<TestServer> {
  const { database, url } = await sharedDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'smart-test-'));
  if (!opts.alongside) await resetDatabase(database, dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET,
    CAPTCHA_MODE: 'false',
    LOG_LEVEL: 'info',
    ...(url ? { DATABASE_URL: url } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // FLOW_LIVE_ENGINES=0: every workflow step recovers its engine from the saved state
    ...(process.env.FLOW_LIVE_ENGINES ? { FLOW_LIVE_ENGINES: process.env.FLOW_LIVE_ENGINES } : {}),
    WEB_DIST: '/nonexistent',
    // no MQTT listener unless a test asks for one (many servers run at once)
    MQTT_PORT: '-1',
    // the demo cameras' streams are made only where a test asks for them (ffmpeg at every start is slow)
    DEMO_VIDEO: 'off',
    ...env,
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const server = await createServer(config, {
    database,
    logger: stream,
    kvPrefix: `test:${randomUUID()}:`,
    kv: opts.alongside?.kv,
    extraResources: opts.extraResources,
  });
  await server.app.ready();
  return Object.assign(server, { config, logs });
}

export const basic = (id = WEB_CLIENT_ID, secret = WEB_CLIENT_SECRET) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export { md5Hex };

/** POST /oauth/token with the password grant; returns the raw inject response. */
export function tokenRequest(s: Server, q: Record<string, string>, headers: Record<string, string> = {}) {
  const query = new URLSearchParams({ tenantId: '000000', scope: 'all', type: 'account', ...q });
  return s.app.inject({
    method: 'POST',
    url: `/api/dfem-auth/oauth/token?${query}`,
    headers: { authorization: basic(), ...headers },
  });
}

export async function signIn(s: Server, username = 'admin', password = 'admin') {
  const res = await tokenRequest(s, { grant_type: 'password', username, password: md5Hex(password) });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string; [k: string]: unknown };
}

export const auth = (token: string) => ({ 'blade-auth': `bearer ${token}` });
