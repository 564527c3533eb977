import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { holdDataDir, type Manifest, serveBackupRequests } from '../src/platform/backup';
import { type Database, openDatabase } from '../src/platform/db';
import { runTool } from './fixtures';
import { dbKind } from './harness';

/**
 * Issue 38: `npm run backup` taken while the database is being written, then `npm run restore` into a fresh
 * folder (and, on PostgreSQL, a fresh database): every row committed before the backup began is there, and
 * what is there is one moment's state — the sequence of single inserts has no gap, and every two-row
 * transaction is whole. PGlite in the `api` project (the backup asked of the process holding the folder, as
 * of a running server), PostgreSQL in `api-postgres` (pg_dump / pg_restore on PATH, scratch databases).
 */
function tool(name: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  delete childEnv.REDIS_URL;
  return runTool(name, args, childEnv);
}

const root = mkdtempSync(join(tmpdir(), 'smart-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes until stopped: single inserts numbered 1, 2, 3 … and, beside them, two-row transactions. */
function writeUnderway(database: Database) {
  let committed = 0;
  let pairs = 0;
  let running = true;
  // each write lets the event loop turn (PGlite answers without one: a bare loop would starve the timers and
  // the signal the backup sends, as no server's request stream does)
  const turn = () => new Promise((r) => setImmediate(r));
  const singles = (async () => {
    for (let n = 1; running; n++) {
      await database.db.execute(sql`insert into backup_probe (n) values (${n})`);
      committed = n;
      await turn();
    }
  })();
  const twos = (async () => {
    for (let n = 1; running; n++) {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into backup_pair (n, half) values (${n}, 1)`);
        await tx.execute(sql`insert into backup_pair (n, half) values (${n}, 2)`);
      });
      pairs = n;
      await turn();
    }
  })();
  return {
    committed: () => committed,
    pairs: () => pairs,
    async stop() {
      running = false;
      await Promise.all([singles, twos]);
    },
  };
}

async function createProbeTables(database: Database) {
  await database.db.execute(sql`create table backup_probe (n integer primary key)`);
  await database.db.execute(sql`create table backup_pair (n integer, half integer, primary key (n, half))`);
}

/** the checks on a restored database: everything committed before, one moment's state, pairs whole */
function expectConsistent(
  singles: number[],
  pairs: { n: number; halves: number }[],
  before: { committed: number; pairs: number },
  after: { committed: number; pairs: number },
) {
  expect(singles.length).toBeGreaterThanOrEqual(before.committed);
  expect(singles.length).toBeLessThanOrEqual(after.committed);
  expect(singles).toEqual(Array.from({ length: singles.length }, (_, i) => i + 1));
  expect(pairs.length).toBeGreaterThanOrEqual(before.pairs);
  expect(pairs.every((p) => p.halves === 2)).toBe(true);
}

async function waitFor(cond: () => boolean) {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

/**
 * `npm run backup` into `out` while `database` is written (writeUnderway, stopped afterwards): its answer and
 * the writes counted before it began and after.
 */
async function backupUnderWrites(database: Database, out: string, env: Record<string, string>) {
  const writes = writeUnderway(database);
  let taken: { backup: Awaited<ReturnType<typeof tool>>; before: { committed: number; pairs: number } };
  try {
    await waitFor(() => writes.committed() >= 50 && writes.pairs() >= 20);
    const before = { committed: writes.committed(), pairs: writes.pairs() };
    taken = { before, backup: await tool('backup', ['--out', out], env) };
  } finally {
    await writes.stop();
  }
  return { ...taken, after: { committed: writes.committed(), pairs: writes.pairs() } };
}

function backupIn(dir: string): string {
  const names = readdirSync(dir).filter((n) => n.startsWith('backup-') && !n.endsWith('.partial'));
  expect(names).toHaveLength(1);
  return join(dir, names[0]);
}

describe.runIf(dbKind === 'pglite')('backup and restore: PGlite', () => {
  it('a backup taken while the server writes restores every committed row, whole', async () => {
    const dataDir = join(root, 'pglite-data');
    const database = await openDatabase({ dataDir, readCache: false });
    await database.migrate();
    await createProbeTables(database);
    mkdirSync(join(dataDir, 'uploads/probe'), { recursive: true });
    writeFileSync(join(dataDir, 'uploads/probe/a.txt'), 'stored file');
    // this process stands for the running server: it holds DATA_DIR and answers the backup's request
    const release = holdDataDir(dataDir);
    const stopServing = serveBackupRequests(database, dataDir);
    const { backup, before, after } = await backupUnderWrites(database, join(root, 'pglite-backups'), {
      DATA_DIR: dataDir,
    }).finally(() => {
      stopServing();
      release();
    });
    await database.close();
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain('asking it for a consistent copy');
    expect(after.committed).toBeGreaterThan(before.committed); // the writes went on during the backup

    const dir = backupIn(join(root, 'pglite-backups'));
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.database).toMatchObject({ kind: 'pglite', file: 'pgdata.tar.gz', takenBy: 'server' });
    expect(manifest.database.migrations).toBeGreaterThan(40);
    expect(manifest.files.count).toBe(1);

    const restoredDir = join(root, 'pglite-restored');
    const restore = await tool('restore', [dir], { DATA_DIR: restoredDir });
    expect(restore.code, restore.err).toBe(0);
    expect(readFileSync(join(restoredDir, 'uploads/probe/a.txt'), 'utf8')).toBe('stored file');
    const restored = await openDatabase({ dataDir: restoredDir, readCache: false });
    try {
      const singles = (await restored.db.execute(sql`select n from backup_probe order by n`)) as unknown as {
        rows: { n: number }[];
      };
      const pairs = (await restored.db.execute(
        sql`select n, count(*)::int as halves from backup_pair group by n order by n`,
      )) as unknown as { rows: { n: number; halves: number }[] };
      expectConsistent(
        singles.rows.map((r) => r.n),
        pairs.rows,
        before,
        after,
      );
      // the restored folder is a working database: migrating again finds nothing to do
      await restored.migrate();
    } finally {
      await restored.close();
    }

    // a non-empty target is refused, unless --force
    const again = await tool('restore', [dir], { DATA_DIR: restoredDir });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/refusing to overwrite: .*pglite-restored is not empty.*--force/);
    writeFileSync(join(restoredDir, 'stray.txt'), 'not in the backup');
    const forced = await tool('restore', [dir, '--force'], { DATA_DIR: restoredDir });
    expect(forced.code, forced.err).toBe(0);
    expect(existsSync(join(restoredDir, 'stray.txt'))).toBe(false);

    // and the folder not held by a server is copied by the backup itself
    const offline = await tool('backup', ['--out', join(root, 'pglite-offline')], { DATA_DIR: restoredDir });
    expect(offline.code, offline.err).toBe(0);
    const m2 = JSON.parse(
      readFileSync(join(backupIn(join(root, 'pglite-offline')), 'manifest.json'), 'utf8'),
    );
    expect(m2.database.takenBy).toBe('backup');
  }, 480_000);

  it('a damaged backup and a PostgreSQL target are refused with a clear message', async () => {
    const dir = backupIn(join(root, 'pglite-backups'));
    const other = join(root, 'damaged');
    rmSync(other, { recursive: true, force: true });
    mkdirSync(other);
    writeFileSync(join(other, 'manifest.json'), readFileSync(join(dir, 'manifest.json')));
    writeFileSync(join(other, 'pgdata.tar.gz'), 'not a tar');
    const damaged = await tool('restore', [other], { DATA_DIR: join(root, 'never') });
    expect(damaged.code).toBe(1);
    expect(damaged.err).toContain('damaged');
    const wrongKind = await tool('restore', [dir], {
      DATA_DIR: join(root, 'never'),
      DATABASE_URL: 'postgres://127.0.0.1:1/none',
    });
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.err).toContain('this backup is of PGlite');
    expect(existsSync(join(root, 'never'))).toBe(false);
  }, 60_000);
});

describe.runIf(dbKind === 'postgres' && process.env.TEST_DATABASE_URL)(
  'backup and restore: PostgreSQL',
  () => {
    const base = process.env.TEST_DATABASE_URL ?? '';
    const stamp = `${process.pid}_${Date.now()}`;
    const source = `smart_backup_${stamp}`;
    const target = `smart_restore_${stamp}`;
    const urlOf = (name: string) => {
      const u = new URL(base);
      u.pathname = `/${name}`;
      return u.toString();
    };
    async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        return await fn(c);
      } finally {
        await c.end();
      }
    }
    afterAll(async () => {
      await admin(async (c) => {
        for (const name of [source, target]) await c.query(`drop database if exists "${name}" with (force)`);
      });
    });

    it('a backup taken under writes restores every committed row, whole, into a new database', async () => {
      await admin((c) => c.query(`create database "${source}"`));
      const dataDir = join(root, 'pg-data');
      mkdirSync(join(dataDir, 'uploads/probe'), { recursive: true });
      writeFileSync(join(dataDir, 'uploads/probe/a.txt'), 'stored file');
      const database = await openDatabase({ url: urlOf(source), dataDir, readCache: false, poolSize: 4 });
      await database.migrate();
      await createProbeTables(database);
      const { backup, before, after } = await backupUnderWrites(database, join(root, 'pg-backups'), {
        DATA_DIR: dataDir,
        DATABASE_URL: urlOf(source),
      });
      await database.close();
      expect(backup.code, backup.err).toBe(0);
      expect(after.committed).toBeGreaterThan(before.committed);
      const dir = backupIn(join(root, 'pg-backups'));
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.database).toMatchObject({ kind: 'postgres', file: 'database.pgdump' });
      expect(manifest.database.pgDump).toMatch(/pg_dump/);

      // the target database does not exist yet: restore creates it
      const restoredDir = join(root, 'pg-restored');
      const env = { DATA_DIR: restoredDir, DATABASE_URL: urlOf(target) };
      const restore = await tool('restore', [dir], env);
      expect(restore.code, restore.err).toBe(0);
      expect(readFileSync(join(restoredDir, 'uploads/probe/a.txt'), 'utf8')).toBe('stored file');
      const read = async () => {
        const c = new pg.Client({ connectionString: urlOf(target) });
        await c.connect();
        try {
          const singles = await c.query<{ n: number }>('select n from backup_probe order by n');
          const pairs = await c.query<{ n: number; halves: number }>(
            'select n, count(*)::int as halves from backup_pair group by n order by n',
          );
          const users = await c.query<{ n: number }>('select count(*)::int as n from blade_user');
          return { singles: singles.rows.map((r) => r.n), pairs: pairs.rows, users: users.rows[0].n };
        } finally {
          await c.end();
        }
      };
      const restored = await read();
      expectConsistent(restored.singles, restored.pairs, before, after);

      // the restored database is what the server opens: migrating it again finds nothing to do
      const check = await openDatabase({
        url: urlOf(target),
        dataDir: restoredDir,
        readCache: false,
        poolSize: 2,
      });
      await check.migrate();
      await check.close();

      const again = await tool('restore', [dir], env);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/refusing to overwrite: .*tables.*--force/);
      const forced = await tool('restore', [dir, '--force'], env);
      expect(forced.code, forced.err).toBe(0);
      expect((await read()).singles).toEqual(restored.singles);
    }, 480_000);
  },
);
