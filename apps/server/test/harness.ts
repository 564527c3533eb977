import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
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
import type { KvStore } from '../src/platform/kv';
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

/** where a worker keeps its first seeded state: the tables' rows, beside the product's schema */
const SNAPSHOT_SCHEMA = 'test_seed';

/** The first-start state of a worker's database, kept once it was seeded: restoring it is a copy. */
interface Seeded {
  /** the tables that had rows, with the columns a restore writes (not the generated ones) */
  tables: { name: string; columns: string }[];
  sequences: { name: string; value: string }[];
  /** the seed's files (the demo's photos), copied into each new server's data folder */
  files: string;
}

let seeded: Seeded | undefined;

const rowsOf = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * Every test file sees the first-start state (the seed's rows, and its files in the test server's data
 * folder). The first time in a worker the tables are emptied and seeded, and the result kept in a schema of
 * its own; after that they are emptied and copied back from it, which takes a fraction of seeding.
 */
export async function resetDatabase(database: Database, dataDir: string) {
  const tables = await rowsOf<{ tablename: string }>(
    database,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  const names = tables.map((r) => `"${r.tablename}"`).join(', ');
  if (seeded) {
    const { tables: kept, sequences, files } = seeded;
    await database.db.transaction(async (tx) => {
      // as a replica applies rows: no foreign key checks or triggers while the tables fill in any order
      await tx.execute(sql`set local session_replication_role = replica`);
      if (names) await tx.execute(sql.raw(`TRUNCATE ${names} RESTART IDENTITY CASCADE`));
      for (const t of kept)
        await tx.execute(
          sql.raw(
            `INSERT INTO public."${t.name}" (${t.columns}) OVERRIDING SYSTEM VALUE SELECT ${t.columns} FROM ${SNAPSHOT_SCHEMA}."${t.name}"`,
          ),
        );
      // a sequence the TRUNCATE restarted goes back to where the seed left it; one it did not (the one id
      // sequence of every table) goes on, so no id is handed out twice in a worker: what a server keeps in
      // memory by id (a deployment, an engine) must not meet another file's row under the same id
      for (const q of sequences)
        await tx.execute(
          sql`select setval(${q.name}::regclass, greatest(${q.value}::bigint, coalesce(
                (select last_value from pg_sequences where format('%I.%I', schemaname, sequencename) = ${q.name}), 0)))`,
        );
    });
    // rows written as a replica fire no change trigger: whatever a server remembers of the tables is stale
    database.changes.changedAll();
    cpSync(files, dataDir, { recursive: true });
  } else {
    if (names) await database.db.execute(sql.raw(`TRUNCATE ${names} RESTART IDENTITY CASCADE`));
    await seed(database.db, { storage: new LocalStorage(dataDir) });
    // the seeded administrator must change its password before the server serves it anything else; the
    // tests act as an administrator who already has (auth.test.ts checks the first sign-in itself)
    await database.db.execute(
      sql`update blade_user set must_change_password = false where account = 'admin'`,
    );
    seeded = await keepSeeded(database, dataDir);
  }
  // what the previous file's server remembered (grants, totals) belongs to the database just emptied
  dropAccessCaches();
  forgetAllCounts();
}

async function keepSeeded(database: Database, dataDir: string): Promise<Seeded> {
  await database.db.execute(sql.raw(`DROP SCHEMA IF EXISTS ${SNAPSHOT_SCHEMA} CASCADE`));
  await database.db.execute(sql.raw(`CREATE SCHEMA ${SNAPSHOT_SCHEMA}`));
  const columns = await rowsOf<{ table_name: string; columns: string }>(
    database,
    // tables and partitioned tables, not their partitions (a parent's rows are its partitions')
    sql`select c.table_name, string_agg(format('%I', c.column_name), ', ' order by c.ordinal_position) as columns
        from information_schema.columns c
        join pg_class t on t.relname = c.table_name and t.relnamespace = 'public'::regnamespace
        where c.table_schema = 'public' and c.is_generated = 'NEVER'
          and t.relkind in ('r', 'p') and not t.relispartition
        group by c.table_name`,
  );
  const tables: Seeded['tables'] = [];
  for (const { table_name: name, columns: cols } of columns) {
    const [{ filled }] = await rowsOf<{ filled: boolean }>(
      database,
      sql.raw(`select exists (select 1 from public."${name}") as filled`),
    );
    if (!filled) continue;
    await database.db.execute(
      sql.raw(`CREATE TABLE ${SNAPSHOT_SCHEMA}."${name}" AS SELECT ${cols} FROM public."${name}"`),
    );
    tables.push({ name, columns: cols });
  }
  const sequences = await rowsOf<{ name: string; value: string }>(
    database,
    sql`select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
        from pg_sequences where schemaname = 'public' and last_value is not null`,
  );
  const files = mkdtempSync(join(tmpdir(), 'smart-test-seed-'));
  cpSync(dataDir, files, { recursive: true });
  return {
    tables,
    // a sequence the seed never used is restarted by the TRUNCATE already
    sequences,
    files,
  };
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
  /** alongside: on the same database (not reset), sharing its store unless given `kv` */
  opts: { alongside?: TestServer; kv?: KvStore; extraResources?: ExtraResource[] } = {},
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
    kv: opts.kv ?? opts.alongside?.kv,
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

/** Signs in with the password grant (in `tenantId` when given); throws when refused. */
export async function signIn(s: Server, username = 'admin', password = 'admin', tenantId?: string) {
  const res = await tokenRequest(s, {
    grant_type: 'password',
    username,
    password: md5Hex(password),
    ...(tenantId ? { tenantId } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string; [k: string]: unknown };
}

export const auth = (token: string) => ({ 'blade-auth': `bearer ${token}` });

/** PostgreSQL's notifications arrive a moment after their commit: lets those of earlier writes arrive */
export const notificationsSettled = () =>
  dbKind === 'postgres' ? new Promise((r) => setTimeout(r, 300)) : Promise.resolve();

/**
 * Runs `body` while `server` hears of no table change: what it answers then comes from what it kept
 * (platform/crud/answers.ts). The notifications of its own writes arrive while it is still deaf.
 */
export async function whileDeaf(server: Server, body: () => Promise<void>) {
  const changes = server.database.changes;
  const { changed, changedAll } = changes;
  changes.changed = () => {};
  changes.changedAll = () => {};
  try {
    await body();
    await notificationsSettled();
  } finally {
    changes.changed = changed;
    changes.changedAll = changedAll;
  }
}
