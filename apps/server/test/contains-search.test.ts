import { villagerResource } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { villager } from '../src/modules/village/tables';
import { parseListQuery } from '../src/platform/crud/query';
import { containsPattern } from '../src/platform/sql';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Contains searches (a field's `search: 'like'`): the GIN indexes that serve them (trigrams for three
 * characters or more, the characters for one or two: platform/crud/model.ts) and what a short term finds.
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await signIn(s)).access_token;
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const get = (url: string) => s.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth(token) });
const post = (url: string, payload: object) =>
  s.app.inject({ method: 'POST', url: `${API}${url}`, headers: auth(token), payload });
const villagerBody = (over: Record<string, unknown>) => ({
  name: '测试村民',
  sex: '1',
  householdNo: 'T0001',
  relation: '1',
  villageGroup: '1',
  ...over,
});

/**
 * A contains search reads its GIN indexes' whole pending lists: every such index (the trigrams, and the
 * characters a term of one or two characters is found by) keeps it at 64 kB (platform/crud/model.ts,
 * indexesOf), so searches stay fast after an import (migration 0030 sets it in place).
 */
describe('contains-search indexes', () => {
  it('merge their pending list every 64 kB, on every table a definition searches by contains', async () => {
    const { rows } = (await s.app.deps.db.execute(
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

describe('a search of one or two characters', () => {
  /** the villagers whose name holds `term`, read the plain way (ILIKE over every row) */
  const namesHolding = async (term: string) =>
    (
      await s.database.db
        .select({ name: villager.name })
        .from(villager)
        .where(and(eq(villager.isDeleted, 0), sql`${villager.name} ilike ${containsPattern(term)}`))
    )
      .map((r) => r.name)
      .sort();

  it('a term of one or two characters finds what reading every row finds, through the characters index', async () => {
    for (const [i, name] of ['Qa检索', '索检q', '钱赵', '赵钱孙', '百分%号'].entries()) {
      expect((await post('/villager/submit', villagerBody({ name, householdNo: `NS${i}` }))).statusCode).toBe(
        200,
      );
    }
    // case folded as ILIKE folds it, characters in their order, % and _ literal, three characters by trigrams
    for (const term of ['q', '检', '检索', '索检', '赵钱', '钱赵', '%', '%号', '_', '赵钱孙']) {
      const expected = await namesHolding(term);
      const res = await get(`/villager/page?size=100&name=${encodeURIComponent(term)}`);
      const found = res
        .json()
        .data.records.map((r: { name: string }) => r.name)
        .sort();
      expect(found, term).toEqual(expected);
      expect(res.json().data.total, term).toBe(expected.length);
    }
    expect(await namesHolding('q')).toEqual(['Qa检索', '索检q']);
    expect(await namesHolding('钱赵')).toEqual(['钱赵']);

    // the condition the list writes is the index's own expression (the planner matches an index to a
    // condition by its expression, and one written otherwise is never served): as PostgreSQL prints both
    const field = villagerResource.fields.find((f) => f.name === 'name');
    const cols = { byField: new Map([['name', { column: villager.name, field }]]) };
    const text = async (query: ReturnType<typeof sql>) =>
      ((await s.database.db.execute(query)) as unknown as { rows: Record<string, string>[] }).rows
        .map((r) => Object.values(r)[0])
        .join('\n');
    const plan = (term: string) =>
      text(
        sql`explain select ${villager.id} from ${villager} where ${villager.isDeleted} = 0 and ${and(...parseListQuery(villagerResource, cols, { name: term }).where)}`,
      );
    const indexDef = await text(sql`select pg_get_indexdef('hope_villager_name_chars_idx'::regclass)`);
    const expression = /USING gin \((.+)\) WITH/.exec(indexDef)?.[1];
    expect(expression).toContain('string_to_array');
    expect(await plan('检')).toContain(`${expression} @> '{检}'`);
    expect(await plan('检')).not.toContain('~~*'); // one character: that condition alone
    expect(await plan('检索')).toContain(`${expression} @> '{检,索}'`);
    expect(await plan('检索')).toContain(`~~* '%检索%'`);
    expect(await plan('赵钱孙')).not.toContain('string_to_array');
  });

  it('the household view finds households by a member’s name of one or two characters, as ILIKE does', async () => {
    expect(
      (await post('/villager/submit', villagerBody({ name: '户检员', householdNo: 'NSH1' }))).statusCode,
    ).toBe(200);
    for (const term of ['检', '户检', 'q', '员户']) {
      const expected = (
        await s.database.db
          .selectDistinct({ no: villager.householdNo })
          .from(villager)
          .where(and(eq(villager.isDeleted, 0), sql`${villager.name} ilike ${containsPattern(term)}`))
      )
        .map((r) => r.no)
        .sort();
      const res = await get(`/villager/households?size=200&name=${encodeURIComponent(term)}`);
      expect(res.statusCode, res.body).toBe(200);
      const found = res
        .json()
        .data.records.map((r: { householdNo: string }) => r.householdNo)
        .sort();
      expect(found, term).toEqual(expected);
      if (term === '检') expect(found).toContain('NSH1');
    }
  });
});
