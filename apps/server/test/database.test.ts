import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayRowsOf, type Database, openDatabase, schema } from '../src/platform/db';
import { notDeleted } from '../src/platform/sql';
import { dbKind, startTestServer, type TestServer } from './harness';

/**
 * On PostgreSQL the pool names every read and write by its text, so each connection plans it once
 * (apps/server/src/platform/db/index.ts). A pool of one connection here, so the session's prepared
 * statements are the ones this test ran.
 */
describe.runIf(dbKind === 'postgres')('prepared statements on PostgreSQL', () => {
  let server: TestServer;
  let database: Database;
  const u = schema.user;
  const page = () =>
    database.db
      .select({ id: u.id, account: u.account })
      .from(u)
      .where(and(eq(u.tenantId, '000000'), notDeleted(u.isDeleted)))
      .orderBy(desc(u.createTime), desc(u.id))
      .limit(10);
  type Prepared = { name: string; statement: string; generic_plans: number };
  const prepared = async () =>
    (
      (await database.db.execute(
        sql`select name, statement, generic_plans from pg_prepared_statements`,
      )) as unknown as { rows: Prepared[] }
    ).rows;

  beforeAll(async () => {
    // the worker's migrated and seeded database, through a pool of its own
    server = await startTestServer();
    database = await openDatabase({ url: server.config.DATABASE_URL, dataDir: 'memory://', poolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await server?.close();
  });

  it('a query run again is one statement of the connection, planned generically once PostgreSQL trusts it', async () => {
    for (let i = 0; i < 8; i++) expect((await page()).length).toBeGreaterThan(0);
    const mine = (await prepared()).filter((p) => p.statement.includes('from "blade_user"'));
    expect(mine).toHaveLength(1);
    expect(mine[0].name).toMatch(/^s_/);
    // `is_deleted = 0` is in the text, not a parameter: the partial index can serve the generic plan
    expect(mine[0].statement).toContain('"is_deleted" = 0');
    expect(Number(mine[0].generic_plans)).toBeGreaterThan(0);
  });

  it("a list page read answers arrays, each value as Drizzle's driver hands it over, under the statement name", async () => {
    const rows = arrayRowsOf(database.db);
    if (!rows) throw new Error('the pool has no array-rows runner');
    const text =
      'select "id", "account", "create_time", 1::int as one, true as yes, null::text as nothing ' +
      'from "blade_user" where "tenant_id" = $1 and "account" = $2';
    for (let i = 0; i < 3; i++) {
      const answered = await rows(text, ['000000', 'admin']);
      expect(answered).toHaveLength(1);
      const [id, account, createTime, one, yes, nothing] = answered[0];
      // a bigint stays its decimal text; a time stamp stays PostgreSQL's text (its column decodes it)
      expect(id).toMatch(/^\d+$/);
      expect(account).toBe('admin');
      expect(createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expect([one, yes, nothing]).toEqual([1, true, null]);
    }
    const mine = (await prepared()).filter((p) => p.statement === text);
    expect(mine).toHaveLength(1);
    expect(mine[0].name).toMatch(/^s_/);
    // a failed read is refused as any Drizzle query's, the database's SQLSTATE kept
    await expect(rows('select 1 / 0 as x', [])).rejects.toMatchObject({ cause: { code: '22012' } });
    expect(await rows('select $1::int + 1 as two', [1])).toEqual([[2]]);
  });

  it('transaction control is never named', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 as one`);
    });
    const statements = (await prepared()).map((p) => p.statement.trim().toLowerCase());
    expect(statements.some((s) => s.startsWith('begin') || s.startsWith('commit'))).toBe(false);
    expect(statements).toContain('select 1 as one');
  });
});

/**
 * A contains search reads its GIN indexes' whole pending lists: every such index (the trigrams, and the
 * characters a term of one or two characters is found by) keeps it at 64 kB (platform/crud/model.ts,
 * indexesOf), so searches stay fast after an import (migration 0030 sets it in place).
 */
describe('contains-search indexes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('merge their pending list every 64 kB, on every table a definition searches by contains', async () => {
    const { rows } = (await server.app.deps.db.execute(
      sql`select c.relname as name, array_to_string(c.reloptions, ',') as options
          from pg_class c join pg_am a on a.oid = c.relam
          where a.amname = 'gin' and (c.relname like '%\\_trgm\\_idx' or c.relname like '%\\_chars\\_idx')`,
    )) as unknown as { rows: { name: string; options: string | null }[] };
    const trigrams = rows
      .filter((r) => r.name.endsWith('_trgm_idx'))
      .map((r) => r.name.replace(/_trgm_idx$/, ''));
    const characters = rows
      .filter((r) => r.name.endsWith('_chars_idx'))
      .map((r) => r.name.replace(/_chars_idx$/, ''));
    // the villager name, the plots, the devices… (55 when this was written); each has both
    expect(trigrams.length).toBeGreaterThanOrEqual(55);
    expect(characters.sort()).toEqual(trigrams.sort());
    expect(rows.filter((r) => r.options !== 'gin_pending_list_limit=64').map((r) => r.name)).toEqual([]);
  });
});
