import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from './config';
import { type Database, PGLITE_EXTENSIONS } from './db';
import { serverRoot } from './paths';

/**
 * Backup and restore (issue 38): `npm run backup` and `npm run restore -- <backup>` (tools/backup.ts,
 * tools/restore.ts).
 *
 * A backup is a folder `backup-<UTC time>` holding
 * - the database: `database.pgdump` (PostgreSQL: pg_dump's custom format, one snapshot however busy the
 *   database is) or `pgdata.tar.gz` (PGlite: its data folder, taken between two statements after a
 *   checkpoint — by the running server when one holds the folder, asked through DATA_DIR and SIGUSR2, else
 *   by this process);
 * - `files/`: what DATA_DIR holds besides the database (uploads, the generated signing key), copied after the
 *   database was dumped, so every file a dumped row names is there (files are written once, never changed);
 * - `manifest.json`: what it is, when, of which database and migrations, with the dump's SHA-256.
 * It is written as `<name>.partial` and renamed when complete: a folder without the suffix is whole.
 *
 * Restore brings an empty DATA_DIR (and, for PostgreSQL, an empty or missing DATABASE_URL database) back to a
 * backup; a non-empty target is refused unless `force`, which empties it first.
 */
export const BACKUP_FORMAT = 'smart-admin-backup/1';
/** the process that holds this DATA_DIR's PGlite folder (main.ts writes it; removed when it stops) */
export const PID_FILE = 'server.pid';
const REQUEST_FILE = '.backup-request.json';
/** not copied: the database (dumped on its own), the demo's videos (made again at start), the lock */
const NOT_FILES = new Set(['pgdata', 'demo-video', PID_FILE, REQUEST_FILE]);
const REQUEST_TIMEOUT_MS = 10 * 60_000;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  app: { version: string };
  database: {
    kind: 'pglite' | 'postgres';
    file: string;
    bytes: number;
    sha256: string;
    /** migrations applied when it was taken (drizzle.__drizzle_migrations) */
    migrations: number | null;
    /** PostgreSQL: the server's and pg_dump's versions */
    serverVersion?: string;
    pgDump?: string;
    /** PGlite: whether the running server took it (else this process, the folder not in use) */
    takenBy?: 'server' | 'backup';
  };
  files: { dir: 'files'; count: number; bytes: number };
}

export class BackupError extends Error {}

type Log = (line: string) => void;
const quiet: Log = () => {};

const sha256Of = (file: string) =>
  new Promise<string>((res, rej) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => hash.update(c))
      .on('end', () => res(hash.digest('hex')))
      .on('error', rej);
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The live process that holds this DATA_DIR's PGlite database, if any. */
export function serverPidOf(dataDir: string): number | undefined {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  // a pid left by a server that died, now another program's, is no holder (Linux tells what runs)
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node')) return undefined;
  } catch {}
  return pid;
}

/** Marks DATA_DIR as held by this process (PID_FILE); the returned function lets it go. */
export function holdDataDir(dataDir: string): () => void {
  const file = join(dataDir, PID_FILE);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {}
  };
}

async function writeBlob(blob: Blob, file: string) {
  writeFileSync(`${file}.part`, Buffer.from(await blob.arrayBuffer()));
  renameSync(`${file}.part`, file);
}

/**
 * The running server's side (main.ts, PGlite only): on SIGUSR2, the request `npm run backup` left in
 * DATA_DIR is answered with the data folder written where it asks, then `<file>.result.json`.
 */
export function serveBackupRequests(database: Database, dataDir: string, log: Log = quiet): () => void {
  const dump = database.dumpDataDir?.bind(database);
  if (!dump) return () => {};
  const onSignal = async () => {
    const requestFile = join(dataDir, REQUEST_FILE);
    let request: { file: string };
    try {
      request = JSON.parse(readFileSync(requestFile, 'utf8'));
      rmSync(requestFile, { force: true });
    } catch {
      return;
    }
    const result = { ok: true, error: undefined as string | undefined, migrations: null as number | null };
    try {
      log(`backup: writing the database to ${request.file}`);
      result.migrations = await migrationsOf(database);
      await writeBlob(await dump(), request.file);
    } catch (e) {
      result.ok = false;
      result.error = (e as Error).message;
    }
    writeFileSync(`${request.file}.result.json`, JSON.stringify(result));
  };
  const handler = () => void onSignal();
  process.on('SIGUSR2', handler);
  return () => process.off('SIGUSR2', handler);
}

async function migrationsOf(database: Database): Promise<number | null> {
  try {
    // drizzle's own table, in its own schema
    const res = (await database.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { n: number }[] };
    return Number(res.rows[0]?.n ?? 0);
  } catch {
    return null;
  }
}

async function pgliteMigrations(client: PGlite): Promise<number | null> {
  try {
    const res = await client.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    return res.rows[0].n;
  } catch {
    return null;
  }
}

/** PGlite: the data folder, from the server that holds it or, when none does, opened here. */
async function dumpPglite(dataDir: string, file: string, log: Log) {
  const pid = serverPidOf(dataDir);
  if (pid) {
    log(`the server (pid ${pid}) holds ${dataDir}: asking it for a consistent copy`);
    rmSync(`${file}.result.json`, { force: true });
    writeFileSync(join(dataDir, REQUEST_FILE), JSON.stringify({ file: resolve(file) }));
    process.kill(pid, 'SIGUSR2');
    const until = Date.now() + REQUEST_TIMEOUT_MS;
    while (!existsSync(`${file}.result.json`)) {
      if (Date.now() > until || !alive(pid))
        throw new BackupError(`the server (pid ${pid}) did not write the database within 10 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const result = JSON.parse(readFileSync(`${file}.result.json`, 'utf8'));
    rmSync(`${file}.result.json`, { force: true });
    if (!result.ok) throw new BackupError(`the server could not write the database: ${result.error}`);
    return { migrations: result.migrations as number | null, takenBy: 'server' as const };
  }
  const folder = join(dataDir, 'pgdata');
  if (!existsSync(join(folder, 'PG_VERSION')))
    throw new BackupError(`no PGlite database in ${folder} (DATA_DIR=${dataDir}; DATABASE_URL unset)`);
  const client = await PGlite.create(folder, { extensions: PGLITE_EXTENSIONS });
  try {
    await client.exec('CHECKPOINT');
    const migrations = await pgliteMigrations(client);
    await writeBlob(await client.dumpDataDir('gzip'), file);
    return { migrations, takenBy: 'backup' as const };
  } finally {
    await client.close();
  }
}

/** libpq's variables for a URL: the password never appears on a command line (ps shows those). */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.hostname) env.PGHOST = decodeURIComponent(u.hostname.replace(/^\[|\]$/g, ''));
  if (u.port) env.PGPORT = u.port;
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  env.PGDATABASE = decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres';
  const ssl = u.searchParams.get('sslmode');
  if (ssl) env.PGSSLMODE = ssl;
  return env;
}

/** The major version of a PostgreSQL client tool on PATH, or a clear error. */
function toolVersion(tool: 'pg_dump' | 'pg_restore'): { text: string; major: number } {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (r.error)
    throw new BackupError(
      `${tool} is not on PATH: install the PostgreSQL client tools of the server's major version ` +
        `(Debian/Ubuntu: apt-get install postgresql-client; or the PGDG package postgresql-client-<major>)`,
    );
  const text = r.stdout.trim();
  const m = /(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) throw new BackupError(`cannot read ${tool}'s version from "${text}"`);
  return { text, major: Number(m[1]) };
}

async function serverVersion(url: string): Promise<{ text: string; major: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string; n: string }>(
      "select current_setting('server_version') as v, current_setting('server_version_num') as n",
    );
    return { text: rows[0].v, major: Math.floor(Number(rows[0].n) / 10000) };
  } finally {
    await client.end();
  }
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((res, rej) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', rej);
    child.on('close', (code) =>
      code === 0 ? res() : rej(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

async function dumpPostgres(url: string, file: string) {
  const tool = toolVersion('pg_dump');
  const server = await serverVersion(url);
  if (tool.major < server.major)
    throw new BackupError(
      `${tool.text} cannot dump PostgreSQL ${server.text} (older than the server): install ` +
        `postgresql-client-${server.major} and put its pg_dump first on PATH`,
    );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let migrations: number | null = null;
  try {
    migrations = (await client.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]
      .n;
  } catch {}
  await client.end();
  // one snapshot of the whole database, however busy (pg_dump's own transaction, repeatable read)
  await run('pg_dump', ['--format=custom', '--compress=6', `--file=${file}`], libpqEnv(url));
  return { migrations, serverVersion: server.text, pgDump: tool.text };
}

/** Copies DATA_DIR's files (not the database, the demo videos, the lock, nor the backups themselves). */
function copyFiles(dataDir: string, target: string, skip: string[]): { count: number; bytes: number } {
  mkdirSync(target, { recursive: true });
  let count = 0;
  let bytes = 0;
  if (!existsSync(dataDir)) return { count, bytes };
  const root = resolve(dataDir);
  for (const name of readdirSync(root)) {
    if (NOT_FILES.has(name) || name.startsWith('.backup-')) continue;
    const from = join(root, name);
    if (skip.some((s) => s === from || s.startsWith(from + sep))) continue;
    cpSync(from, join(target, name), {
      recursive: true,
      filter: (src) => {
        if (skip.some((s) => src === s || src.startsWith(s + sep))) return false;
        const st = statSync(src);
        if (st.isFile()) {
          count++;
          bytes += st.size;
        }
        return true;
      },
    });
  }
  return { count, bytes };
}

const appVersion = () => {
  try {
    return JSON.parse(readFileSync(join(serverRoot, 'package.json'), 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
};

/** Writes a backup of DATABASE_URL (or DATA_DIR's PGlite) and DATA_DIR's files into `outDir`. */
export async function takeBackup(opts: {
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>;
  outDir: string;
  log?: Log;
}): Promise<{ dir: string; manifest: Manifest }> {
  const log = opts.log ?? quiet;
  const { DATABASE_URL: url, DATA_DIR: dataDir } = opts.config;
  const createdAt = new Date().toISOString();
  const name = `backup-${createdAt.replace(/[:.]/g, '-')}`;
  const dir = resolve(opts.outDir, name);
  const partial = `${dir}.partial`;
  mkdirSync(partial, { recursive: true });
  try {
    const file = url ? 'database.pgdump' : 'pgdata.tar.gz';
    const dbFile = join(partial, file);
    log(`dumping the ${url ? 'PostgreSQL' : 'PGlite'} database`);
    const taken = url ? await dumpPostgres(url, dbFile) : await dumpPglite(dataDir, dbFile, log);
    log(`copying the files of ${dataDir}`);
    const files = copyFiles(dataDir, join(partial, 'files'), [resolve(opts.outDir)]);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      createdAt,
      app: { version: appVersion() },
      database: {
        kind: url ? 'postgres' : 'pglite',
        file,
        bytes: statSync(dbFile).size,
        sha256: await sha256Of(dbFile),
        ...taken,
      },
      files: { dir: 'files', ...files },
    };
    writeFileSync(join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(partial, dir);
    return { dir, manifest };
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
}

/** Reads and checks a backup folder's manifest and its dump's checksum. */
export async function readBackup(from: string): Promise<Manifest> {
  const file = join(from, 'manifest.json');
  if (!existsSync(file)) throw new BackupError(`${from} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`${from}: unknown backup format ${JSON.stringify(manifest.format)}`);
  const dump = join(from, manifest.database.file);
  if (!existsSync(dump) || (await sha256Of(dump)) !== manifest.database.sha256)
    throw new BackupError(`${dump} is missing or damaged (its SHA-256 differs from the manifest's)`);
  return manifest;
}

const dbNameOf = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));

/** Connects to the target database, creating it first when it does not exist. */
async function targetClient(url: string, log: Log): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return client;
  } catch (e) {
    if ((e as { code?: string }).code !== '3D000') throw e;
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const a = new pg.Client({ connectionString: admin.toString() });
  await a.connect();
  try {
    const name = dbNameOf(url);
    log(`creating the database ${name}`);
    await a.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await a.end();
  }
  const created = new pg.Client({ connectionString: url });
  await created.connect();
  return created;
}

/** What already is where a restore would write (empty: nothing). */
function dataDirContents(dataDir: string): string[] {
  return existsSync(dataDir) ? readdirSync(dataDir) : [];
}

/**
 * Restores a backup into DATA_DIR (and DATABASE_URL for a PostgreSQL backup). Refuses a non-empty target
 * unless `force`, and always while a server holds DATA_DIR or other sessions use the database.
 */
export async function restoreBackup(opts: {
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>;
  from: string;
  force?: boolean;
  log?: Log;
}): Promise<Manifest> {
  const log = opts.log ?? quiet;
  const from = resolve(opts.from);
  const manifest = await readBackup(from);
  const { DATABASE_URL: url, DATA_DIR: dataDir } = opts.config;
  const kind = manifest.database.kind;
  if (kind === 'postgres' && !url)
    throw new BackupError(
      'this backup is of a PostgreSQL database: set DATABASE_URL to the database to restore it into',
    );
  if (kind === 'pglite' && url)
    throw new BackupError(
      `this backup is of PGlite: unset DATABASE_URL (it is restored into ${dataDir}/pgdata)`,
    );
  const pid = serverPidOf(dataDir);
  if (pid) throw new BackupError(`a server (pid ${pid}) is running on ${dataDir}: stop it first`);
  const target = resolve(dataDir);
  if (target === from || target.startsWith(from + sep) || from.startsWith(target + sep))
    throw new BackupError('the backup and DATA_DIR must not be inside one another');

  const inUse: string[] = [];
  const present = dataDirContents(target);
  if (present.length)
    inUse.push(
      `${target} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''})`,
    );
  let client: pg.Client | undefined;
  try {
    if (url) {
      const tool = toolVersion('pg_restore');
      client = await targetClient(url, log);
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')",
      );
      if (rows[0].n) inUse.push(`the database ${dbNameOf(url)} has ${rows[0].n} tables`);
      const others = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      if (others.rows[0].n)
        throw new BackupError(
          `the database ${dbNameOf(url)} is in use by ${others.rows[0].n} other sessions: stop every server first`,
        );
      if (manifest.database.pgDump) {
        const made = Number(/(\d+)/.exec(manifest.database.pgDump)?.[1] ?? 0);
        if (tool.major < made)
          throw new BackupError(
            `${tool.text} cannot read an archive made by ${manifest.database.pgDump}: install a newer pg_restore`,
          );
      }
    }
    if (inUse.length && !opts.force)
      throw new BackupError(`refusing to overwrite: ${inUse.join('; ')}. Pass --force to replace it.`);
    if (inUse.length) log(`--force: replacing ${inUse.join('; ')}`);

    for (const name of present) rmSync(join(target, name), { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    const dump = join(from, manifest.database.file);
    if (url && client) {
      await client.query('drop schema if exists drizzle cascade');
      await client.query('drop schema if exists public cascade');
      await client.query('create schema public');
      await client.end();
      client = undefined;
      log(`restoring ${basename(dump)} into ${dbNameOf(url)}`);
      await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${dbNameOf(url)}`,
          dump,
        ],
        libpqEnv(url),
      );
    } else {
      log(`restoring ${basename(dump)} into ${join(target, 'pgdata')}`);
      const pgdata = join(target, 'pgdata');
      const restored = await PGlite.create(pgdata, {
        loadDataDir: new Blob([readFileSync(dump)]),
        extensions: PGLITE_EXTENSIONS,
      });
      try {
        await restored.query('select 1');
      } finally {
        await restored.close();
      }
    }
    const files = join(from, manifest.files.dir);
    if (existsSync(files)) {
      log(`copying ${manifest.files.count} files into ${target}`);
      cpSync(files, target, { recursive: true });
    }
    return manifest;
  } finally {
    await client?.end().catch(() => {});
  }
}

/** For messages: a path as the operator typed it, relative when below the working folder. */
export const shown = (p: string) => {
  const r = relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
};
