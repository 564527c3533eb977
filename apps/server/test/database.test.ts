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
