// The villagers bench/village.mjs needs, written through a direct connection while no server runs (a PGlite
// folder is locked by the server that has it open). Idempotent: seeded rows have fixed ids and are computed
// from their number alone (ON CONFLICT DO NOTHING), so a run inserts only what is missing and removes what
// lies past VILLAGERS; the rows a previous run imported are removed, so every run starts from the same state.
import { TENANT } from './lib.mjs';
import { openPglite } from './pglite.mjs';

/** villagers seeded in tenant 000000 (VILLAGERS, default 1 000 000) */
export const VILLAGERS = Number(process.env.VILLAGERS ?? 1_000_000);
export const IMPORT_ROWS = 10_000;
/** the household numbers of imported villagers start with it (no seeded or demo household number holds it) */
export const IMPORT_HOUSEHOLD_PREFIX = 'IMP-';

/** Villager n (1…VILLAGERS) has id ID_BASE + n: far above the id sequence's 1.6e18 start and the demo's ids. */
const ID_BASE = 1980000000000000000n;
const ID_LAST = ID_BASE + 99_999_999n;
const SEEDED = `id BETWEEN ${ID_BASE + 1n} AND ${ID_LAST}`;
/** rows per INSERT … SELECT generate_series (PGlite's memory; progress in the log) */
const CHUNK = 100_000;

/** the seed's creator: the administrator, in the root dept (apps/server/src/seed/system.ts) */
const ADMIN_USER = '1123598821738675201';
const ROOT_DEPT = '1123598813738675201';

/**
 * Households of four (head, spouse, child, and a parent of a young head or a second child of an older one),
 * household h in village group 6 when h is a multiple of 10, otherwise in groups 1…5 (20 %, 20 %, 20 %, 20 %,
 * 10 %): group 6 holds exactly a tenth of the villagers (100 000 of 1 000 000), the export's filter.
 * Every villager was registered (create_time) before 2025, so `createTime_datelt=2024-12-31` leaves out the
 * demo village and anything imported.
 */
export const EXPORT_GROUP = '6';
export const EXPORT_FILTER = `villageGroup=${EXPORT_GROUP}&createTime_datelt=2024-12-31`;

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛段雷侯龙史黎贺顾毛郝龚邵万钱覃武戴孔汤';
/** how many distinct queries the mixed load asks for */
export const MIX_QUERIES = 5_000;
/**
 * A morning of clerks on the villager list: MIX_QUERIES distinct queries (the same on every run), each a page
 * 1…20 of 10 rows, filtered on a village group (half of them), a sex (a third) and a surname typed into the
 * name box (a third).
 */
export function mixedQueries() {
  let seed = 20261129;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  // the seed's 31 commonest surnames
  const surnames = [...SURNAMES].slice(0, 31);
  const queries = new Set();
  while (queries.size < MIX_QUERIES) {
    const q = [`current=${1 + Math.floor(next() * 20)}`, 'size=10'];
    if (next() < 0.5) q.push(`villageGroup=${1 + Math.floor(next() * 6)}`);
    if (next() < 1 / 3) q.push(`sex=${1 + Math.floor(next() * 2)}`);
    if (next() < 1 / 3) q.push(`name=${encodeURIComponent(surnames[Math.floor(next() * surnames.length)])}`);
    queries.add(q.join('&'));
  }
  return [...queries];
}
const MALE = '伟强军勇杰涛斌明辉建国华平刚志文海波林浩宇俊磊鹏超春晓东峰德福贵生长永';
const FEMALE = '芳娟敏静丽艳娜秀英霞玲燕红梅兰凤琴桂花春云萍莉婷雪丹慧洁淑珍';
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
/** the GB 11643 check character of the 17-digit text `e`, in SQL */
const checkDigitSql = (e) =>
  `substr('10X98765432', (${ID_WEIGHTS.map((w, i) => `substr(${e}, ${i + 1}, 1)::int * ${w}`).join(' + ')}) % 11 + 1, 1)`;
/** a number 0…2^31−1 from an integer expression, the same on every machine */
const hash = (e) => `(hashint4(${e}) & 2147483647)`;
const pickChar = (chars, e) => `substr('${chars}', ${e} % ${[...chars].length} + 1, 1)`;

/** Villagers from..to (inclusive). */
function villagersSql(from, to) {
  return `
INSERT INTO hope_villager (id, tenant_id, name, sex, ethnicity, id_card, phone, birth_date, household_no, relation,
                           village_group, address, political_status, education, marital_status, labour_status,
                           poverty_alleviated, low_income, disabled, veteran, living_alone,
                           create_user, create_dept, create_time, update_time)
SELECT ${ID_BASE} + n, '${TENANT}',
       CASE WHEN member = 1 THEN ${pickChar(SURNAMES, 's')} ELSE ${pickChar(SURNAMES, 'hr')} END
         || CASE WHEN sex = 1 THEN ${pickChar(MALE, 'r')} ELSE ${pickChar(FEMALE, 'r')} END
         || CASE WHEN (r / 7) % 10 >= 6 THEN ''
                 WHEN sex = 1 THEN ${pickChar(MALE, 's')} ELSE ${pickChar(FEMALE, 's')} END,
       sex,
       CASE WHEN hr % 100 < 6 THEN '15' WHEN hr % 100 < 9 THEN '6' ELSE '1' END,
       id17 || ${checkDigitSql('id17')},
       CASE WHEN age BETWEEN 18 AND 75 THEN '1' || (3 + s % 7) || lpad((r % 1000000000)::text, 9, '0') END,
       birth, household_no,
       CASE member WHEN 0 THEN '1' WHEN 1 THEN '2' WHEN 2 THEN '3' ELSE CASE WHEN head_age < 55 THEN '4' ELSE '3' END END,
       grp::text, '青山村' || grp || '组' || h || '号',
       CASE WHEN age >= 22 AND r % 100 < 9 THEN '2' WHEN age >= 22 AND r % 100 < 10 THEN '3'
            WHEN age BETWEEN 14 AND 28 AND r % 2 = 0 THEN '4' ELSE '1' END,
       CASE WHEN age < 6 THEN '1' WHEN age < 12 THEN '2' WHEN age > 70 THEN (ARRAY['7', '2', '2'])[s % 3 + 1]
            ELSE (ARRAY['2', '3', '3', '3', '4', '4', '5', '6'])[s % 8 + 1] END,
       CASE WHEN age < 22 THEN '1' WHEN age > 72 AND s % 10 < 3 THEN '4' WHEN s % 100 < 6 THEN '3' ELSE '2' END,
       CASE WHEN age < 16 THEN '4' WHEN age > 75 THEN '3' WHEN age > 60 THEN '2' WHEN s % 100 < 4 THEN '3' ELSE '1' END,
       CASE WHEN hr % 10 = 3 THEN 1 ELSE 0 END,
       CASE WHEN hr % 16 = 0 THEN 1 ELSE 0 END,
       CASE WHEN r % 33 = 0 THEN 1 ELSE 0 END,
       CASE WHEN sex = 1 AND age BETWEEN 35 AND 70 AND s % 16 = 0 THEN 1 ELSE 0 END,
       0,
       ${ADMIN_USER}, ${ROOT_DEPT}, at, at
FROM generate_series(${from}, ${to}) AS n
CROSS JOIN LATERAL (SELECT (n - 1) / 4 + 1 AS h, (n - 1) % 4 AS member, ${hash('n')} AS r, ${hash('-n')} AS s,
                           timestamptz '2023-01-01 00:00:00+08' + n * interval '50 seconds' AS at) AS a
CROSS JOIN LATERAL (SELECT ${hash('h + 1000000000')} AS hr, 'V' || lpad(h::text, 7, '0') AS household_no,
                           CASE WHEN h % 10 = 0 THEN 6 ELSE (h % 10 - 1) % 5 + 1 END AS grp) AS hh
CROSS JOIN LATERAL (SELECT CASE WHEN hr % 10 = 0 THEN 2 ELSE 1 END AS head_sex, 28 + hr % 50 AS head_age) AS hd
CROSS JOIN LATERAL (SELECT CASE member WHEN 0 THEN head_sex WHEN 1 THEN 3 - head_sex ELSE r % 2 + 1 END AS sex,
                           greatest(0, CASE member WHEN 0 THEN head_age WHEN 1 THEN greatest(20, head_age + r % 9 - 5)
                                                   WHEN 2 THEN head_age - 23 - r % 12
                                                   ELSE CASE WHEN head_age < 55 THEN head_age + 24 + r % 8
                                                             ELSE head_age - 26 - r % 14 END END) AS age) AS m
CROSS JOIN LATERAL (SELECT date '2025-12-31' - (age * 365 + s % 365) AS birth) AS b
-- unique per villager: the region's last four digits and the sequence number spell n − 1 (45: 广西; the demo
-- village is 430181, imports are 44…); the sequence's parity is the sex
CROSS JOIN LATERAL (SELECT '45' || lpad(((n - 1) / 500)::text, 4, '0') || to_char(birth, 'YYYYMMDD')
                           || lpad((((n - 1) % 500) * 2 + 2 - sex)::text, 3, '0') AS id17) AS i
ON CONFLICT DO NOTHING
`;
}

const COUNT_SQL = `SELECT count(*)::int AS n, coalesce(max(id) - ${ID_BASE}, 0)::int AS last FROM hope_villager
  WHERE ${SEEDED} AND tenant_id = '${TENANT}' AND is_deleted = 0`;

/** What earlier runs added or changed: imported villagers, seeded ones past VILLAGERS or removed through the UI. */
const resetSql = () => `
BEGIN;
DELETE FROM hope_villager WHERE tenant_id = '${TENANT}' AND household_no LIKE '${IMPORT_HOUSEHOLD_PREFIX}%';
DELETE FROM hope_villager WHERE id BETWEEN ${ID_BASE + BigInt(VILLAGERS) + 1n} AND ${ID_LAST};
UPDATE hope_villager SET is_deleted = 0 WHERE ${SEEDED} AND is_deleted <> 0;
COMMIT;
`;

/**
 * Seeds through `q` (a function running one SQL text, answering rows). Returns what it did, for the log.
 */
async function seedWith(q, log, label) {
  const t0 = performance.now();
  await q(resetSql());
  let [have] = await q(COUNT_SQL);
  let wrote = false;
  if (have.n !== VILLAGERS) {
    log(`${label}: inserting ${VILLAGERS - have.n} of ${VILLAGERS} villagers (${have.n} were there)…`);
    // the missing ones are past the last one there, unless a row was deleted by hand: then all are tried
    const start = have.n === have.last ? have.n + 1 : 1;
    for (let from = start; from <= VILLAGERS; from += CHUNK) {
      const to = Math.min(VILLAGERS, from + CHUNK - 1);
      const t = performance.now();
      await q(villagersSql(from, to));
      log(`${label}: villagers ${from}…${to} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    [have] = await q(COUNT_SQL);
    if (have.n !== VILLAGERS)
      throw new Error(`${label}: ${have.n} seeded villagers after seeding, ${VILLAGERS} expected`);
    wrote = true;
  }
  await q('VACUUM ANALYZE hope_villager'); // a settled table, as autovacuum leaves it on PostgreSQL
  log(
    `${label}: seed ${wrote ? `wrote villagers` : 'already there'} (${VILLAGERS}); earlier runs' rows removed, ` +
      `vacuumed (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

export async function seedPglite(pgdata, log) {
  const client = await openPglite(pgdata);
  try {
    // exec runs several statements (simple protocol); the last result set is the one that answers
    await seedWith(
      async (text) => {
        const results = await client.exec(text);
        return results.at(-1)?.rows ?? [];
      },
      log,
      'PGlite',
    );
  } finally {
    await client.close();
  }
}

export async function seedPostgres(client, log) {
  // compiling the seed's expressions costs more than it saves on chunks of this size
  await client.query('SET jit = off');
  await seedWith(
    async (text) => {
      const r = await client.query(text);
      return (Array.isArray(r) ? r.at(-1) : r)?.rows ?? [];
    },
    log,
    'PostgreSQL',
  );
}
