import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noticeResource } from '@smart/contracts';
import { like, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
// the recipe `npm run cluster` runs: the instances, their settings and the HAProxy configuration
// @ts-expect-error a plain ES module of the repository's scripts, without types
import { startCluster } from '../../../../scripts/cluster.mjs';
import { rowsOf } from '../../src/modules/telemetry/ingest';
import { type Database, openDatabase, schema } from '../../src/platform/db';
import { deploymentId, kvPrefixOf, RedisKv } from '../../src/platform/kv';
import { makeUser, sampleRecord } from '../fixtures';
import { auth, basic, md5Hex, type TestServer } from '../harness';
import { TcpCut } from './tcp-cut';

/**
 * What the cluster test files share (issue 38): two server processes as production runs them (the built
 * dist/main.js, `npm run cluster`'s recipe) behind HAProxy, on one PostgreSQL, one Redis and one Mosquitto,
 * reached through relays the tests can cut (TcpCut), so the machine's shared services are never stopped.
 * Each file calls `useCluster()`: a cluster and a database of its own, started before its tests (the
 * project runs one file at a time, maxWorkers 1). Then the instances (A, B, the proxy P), the database
 * (testDb) and the helpers below.
 *
 * Runs in the `cluster` project (CLUSTER_TESTS=1, after the production build: scripts/test.mjs), with
 * TEST_DATABASE_URL and REDIS_URL; Mosquitto at MQTT_TEST_URL (else mqtt://127.0.0.1:1883).
 */
export const BASE_DB = process.env.TEST_DATABASE_URL!;
export const REDIS = process.env.REDIS_URL!;
export const MQTT = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export type Reply = {
  statusCode: number;
  body: string;
  rawPayload: Buffer;
  headers: Record<string, string>;
  json(): any;
};
export type InjectOpts = {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
};

/** A request to a real server over HTTP, answered in light-my-request's shape (what the API tests read). */
export async function httpCall(base: string, o: InjectOpts, timeoutMs = 20_000): Promise<Reply> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  let body: BodyInit | undefined;
  if (o.payload instanceof FormData || typeof o.payload === 'string') body = o.payload;
  else if (Buffer.isBuffer(o.payload)) body = new Uint8Array(o.payload);
  else if (o.payload !== undefined) {
    body = JSON.stringify(o.payload);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + o.url, {
    method: o.method ?? 'GET',
    headers,
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const raw = Buffer.from(await res.arrayBuffer());
  const text = raw.toString('utf8');
  return {
    statusCode: res.status,
    body: text,
    rawPayload: raw,
    headers: Object.fromEntries(res.headers),
    json: () => JSON.parse(text),
  };
}

export let testDb: Database;
/** one instance (or the proxy) as the API tests' helpers see a server: inject over HTTP, the database */
export const remote = (base: () => string) =>
  ({
    app: { inject: (o: InjectOpts) => httpCall(base(), o) },
    database: {
      get db() {
        return testDb.db;
      },
    },
  }) as unknown as TestServer;

export const pgCut = new TcpCut(new URL(BASE_DB).hostname, Number(new URL(BASE_DB).port || 5432));
export const redisCut = new TcpCut(new URL(REDIS).hostname, Number(new URL(REDIS).port || 6379));
export const mqttCut = new TcpCut(new URL(MQTT).hostname, Number(new URL(MQTT).port || 1883));

export type Instance = {
  name: string;
  port: number;
  url: string;
  start(): Promise<void>;
  stop(signal?: string): Promise<void>;
};
export let cluster: { proxyUrl: string; instances: Instance[]; stop(): Promise<void> };
export let dbName = '';
export let dbUrl = '';
export let kv: RedisKv;
export const output: string[] = [];
const logFile = join(tmpdir(), `smart-cluster-test-${process.pid}.log`);

export let A: TestServer;
export let B: TestServer;
export let P: TestServer;
/**
 * A client address of its own for each call (documentation ranges): the sign-in lockout counts per address,
 * so two tests, or two calls of one, must never share one by chance (a random one did, 1 time in 250)
 */
let addresses = Math.floor(Math.random() * 750);
export const ADDRESS = () => {
  const n = addresses++ % 750;
  return `${['192.0.2', '198.51.100', '203.0.113'][Math.floor(n / 250)]}.${(n % 250) + 1}`;
};

export function tokenRequest(s: TestServer, q: Record<string, string>, headers: Record<string, string> = {}) {
  const query = new URLSearchParams({ tenantId: '000000', scope: 'all', type: 'account', ...q });
  return s.app.inject({
    method: 'POST',
    url: `/api/dfem-auth/oauth/token?${query}`,
    headers: { authorization: basic(), ...headers },
  }) as unknown as Promise<Reply>;
}
export async function signIn(s: TestServer, username = 'admin', password = 'admin', address = ADDRESS()) {
  const res = await tokenRequest(
    s,
    { grant_type: 'password', username, password: md5Hex(password) },
    { 'x-forwarded-for': address },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}
export const get = (s: TestServer, token: string, url: string) =>
  s.app.inject({ method: 'GET', url, headers: auth(token) }) as unknown as Promise<Reply>;
export const post = (s: TestServer, token: string, url: string, payload?: unknown) =>
  s.app.inject({
    method: 'POST',
    url,
    headers: auth(token),
    payload: payload as never,
  }) as unknown as Promise<Reply>;
export const userInfo = (s: TestServer, token: string) => get(s, token, '/api/dfem-auth/oauth/user-info');

let people = 0;
/** a user holding the seed's administrator role, signed in on `s` */
export async function person(s: TestServer, roleIds?: string[]) {
  const account = `cl${++people}${randomUUID().slice(0, 6)}`;
  const id = await makeUser(testDb.db, { account, roleIds: roleIds ?? [] });
  const t = await signIn(s, account, 'pass');
  return { id, account, ...t };
}

export async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf(await testDb.db.execute(query)) as { n: number | string }[];
  return Number(row.n);
}

/** Starts the cluster before the file's tests (on a database of its own) and stops it after them. */
export function useCluster() {
  beforeAll(async () => {
    // a database of its own (smart_test_<pid>: the postgres globalSetup drops it once this process has ended)
    dbName = `smart_test_${process.pid}`;
    const admin = new pg.Client({ connectionString: BASE_DB });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(BASE_DB);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    await Promise.all([pgCut.open(), redisCut.open(), mqttCut.open()]);
    const started = Date.now();
    cluster = await startCluster({
      instances: 2,
      databaseUrl: pgCut.through(dbUrl),
      redisUrl: redisCut.through(REDIS),
      mqttUrl: mqttCut.through(MQTT),
      env: {
        LOG_LEVEL: 'warn',
        CAPTCHA_MODE: 'false',
        DEMO_VIDEO: 'off',
        WEB_DIST: '/nonexistent',
        FLOW_TIMER_INTERVAL_MS: '100',
        TELEMETRY_OFFLINE_CHECK_MS: '150',
        TELEMETRY_FLUSH_MS: '50',
      },
      output: (name: string, line: string) => {
        output.push(`[${name}] ${line}`);
        appendFileSync(logFile, `[${name}] ${line}\n`);
      },
    });
    console.log(
      `cluster: two instances and HAProxy ready in ${secs(Date.now() - started)}; their output: ${logFile}`,
    );
    testDb = await openDatabase({ url: dbUrl, dataDir: 'memory://', poolSize: 4, readCache: false });
    // the seeded administrator has chosen its password (the first sign-in's change is auth.test.ts's)
    await testDb.db.execute(sql`update blade_user set must_change_password = false where account = 'admin'`);
    kv = new RedisKv(REDIS, kvPrefixOf({}, await deploymentId(testDb.db)));
    const [a, b] = cluster.instances;
    A = remote(() => a.url);
    B = remote(() => b.url);
    P = remote(() => cluster.proxyUrl);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await kv?.close();
    await testDb?.close();
    await Promise.all([pgCut.cut(), redisCut.cut(), mqttCut.cut()]);
    // its database goes with it (the postgres globalSetup's sweep only drops those of ended processes)
    if (dbName) {
      const admin = new pg.Client({ connectionString: BASE_DB });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
    const errors = output.filter((l) => /"level":(50|60)/.test(l)).length;
    console.log(`the instances logged ${errors} errors (the faults' own among them): ${logFile}`);
  }, 60_000);
}

/** Waits until `probe` holds, polling every 50 ms; answers the milliseconds it took (or throws after `ms`). */
export async function timeUntil(what: string, probe: () => Promise<boolean>, ms = 30_000): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      if (await probe()) return Date.now() - t0;
    } catch {
      // not yet
    }
    await sleep(50);
  }
  throw new Error(`${what}: not after ${ms} ms`);
}

export type Outcome = { status: number; ms: number; at: number; write: boolean; title?: string; via: string };

/**
 * Load on the instances (and the proxy) until `stop()`: list reads, every third request a new notice with a
 * title of its own. Each request is given 10 s; one that takes longer counts as hung (status -1).
 */
export function load(token: string, tag: string, targets: [string, TestServer][]) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  let n = 0;
  const record = sampleRecord(noticeResource, 2);
  const loop = async (via: string, s: TestServer) => {
    while (!stopped) {
      const write = ++n % 3 === 0;
      const title = write ? `${tag}-${n}` : undefined;
      const at = Date.now();
      let status: number;
      try {
        const r = write
          ? await httpCall(
              via === 'proxy'
                ? cluster.proxyUrl
                : via === 'A'
                  ? cluster.instances[0].url
                  : cluster.instances[1].url,
              {
                method: 'POST',
                url: '/api/dfem-desk/notice/submit',
                headers: auth(token),
                payload: { ...record, title },
              },
              10_000,
            )
          : await httpCall(
              via === 'proxy'
                ? cluster.proxyUrl
                : via === 'A'
                  ? cluster.instances[0].url
                  : cluster.instances[1].url,
              { url: '/api/dfem-desk/notice/list?current=1&size=20', headers: auth(token) },
              10_000,
            );
        status = r.statusCode;
        if (status === 500) console.log(`500 from ${via}: ${r.body}`);
      } catch (e) {
        status = (e as Error).name === 'TimeoutError' ? -1 : -2;
        // which connection failed, and how (a failure here fails the PostgreSQL test)
        if (status === -2)
          console.log(`-2 from ${via}: ${String((e as Error & { cause?: unknown }).cause ?? e)}`);
      }
      outcomes.push({ status, ms: Date.now() - at, at, write, title, via });
      if (status !== 200) await sleep(50);
    }
    void s;
  };
  const loops = targets.flatMap(([via, s]) => [loop(via, s), loop(via, s)]);
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

export async function storedTitles(tag: string): Promise<Set<string>> {
  const rows = await testDb.db
    .select({ title: schema.notice.title })
    .from(schema.notice)
    .where(like(schema.notice.title, `${tag}-%`));
  return new Set(rows.map((r) => r.title));
}

/**
 * A weather device made through `server` (reporting every 10 s, its serial `<prefix>-<n>`): its id and
 * secret, and the topic it publishes its readings on.
 */
export async function makeDevice(server: TestServer, token: string, name: string, prefix: string) {
  const serial = `${prefix}-${Date.now() % 100000}`;
  const made = await post(server, token, '/api/dfem-hope-manage/smartPlant/deviceManage/submit', {
    name,
    kind: '1',
    serial,
    reportInterval: 10,
  });
  expect(made.statusCode, made.body).toBe(200);
  const { id, secret } = made.json().data as { id: string; secret: string };
  return { id, secret, topic: `000000/1/${serial}/up` };
}

/** Waits until instance A's (smart-s1) connections are gone: PostgreSQL has rolled back what it left open. */
export async function connectionsOfAGone() {
  await timeUntil(
    'the killed instance’s connections are gone',
    async () =>
      (await count(
        sql`select count(*)::int as n from pg_stat_activity where datname = ${dbName} and application_name = 'smart-s1'`,
      )) === 0,
    20_000,
  );
}
