// A bare Fastify route running the same SQL as GET /api/dfem-hope-manage/villager/page with the filters a
// clerk uses (village group, sex, a name the clerk types), as the administrator (no data scope), to measure
// what the real server's framework layers cost (token check, permission look-up, query whitelist, envelope,
// date formatting, drizzle's row mapping). No auth, no validation, no envelope. Started by bench/village.mjs
// as its own process:
//   PORT=... DATABASE_URL=postgres://...  node bench/bare-village-server.mjs   (pg.Pool, max 20, like the server)
//   PORT=... PGLITE_DIR=<DATA_DIR>/pgdata node bench/bare-village-server.mjs   (PGlite; nobody else may have it open)
// GET /bare/villager/page?current=1&size=10[&villageGroup=<key>][&sex=<key>][&name=<text>]
import { openBareDb, requireServer, serveBare } from './bare-db.mjs';

const Fastify = requireServer('fastify');

// KEEP IN SYNC with apps/server/src/platform/crud/engine.ts (the list route: `selection`, the constraint
// `is_deleted = 0 and tenant_id`, the default order) and crud/query.ts (a filter per query key, in the query's
// order: `equal` for dictionaries, `ilike '%…%'` for a `like` field). These are the texts the server sends
// (read off PostgreSQL's statement log); drizzle leaves out `offset` when it is 0. village.mjs compares the ids
// and total this route answers with the real route's.
const SELECT_VILLAGER_ROW =
  'select "id", "tenant_id", "status", "create_time", "update_time", "name", "sex", "ethnicity", "id_card", ' +
  '"phone", "birth_date", "household_no", "relation", "village_group", "address", "political_status", ' +
  '"education", "marital_status", "labour_status", "poverty_alleviated", "low_income", "disabled", "veteran", ' +
  '"living_alone", "photo", "remark"';
/** the filters of the list page this route takes: query key → the condition on parameter $n */
const FILTERS = {
  villageGroup: (n) => `"hope_villager"."village_group" = $${n}`,
  sex: (n) => `"hope_villager"."sex" = $${n}`,
  name: (n) => `"hope_villager"."name" ilike $${n}`,
};
/** a LIKE pattern matching the text literally anywhere (apps/server/src/platform/sql.ts, containsPattern) */
const containsPattern = (text) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const tenantId = '000000';

const db = await openBareDb('bare-village-server');

// the real route remembers a page total per query shape (platform/crud/count-cache.ts): 3 s, and up to
// 10 minutes while its tables are unchanged. Nobody writes villagers while this server runs (the bench's
// import is the real server's, after the bare turns), so this keeps each total 10 minutes
const TOTAL_KEPT_MS = 10 * 60_000;
const totals = new Map();
function cachedCount(key, count) {
  const hit = totals.get(key);
  if (hit && Date.now() - hit.at < TOTAL_KEPT_MS) return hit.total;
  const total = count();
  totals.set(key, { at: Date.now(), total });
  total.catch(() => totals.delete(key));
  return total;
}

const app = Fastify({ logger: false });

app.get('/bare/villager/page', async (req, reply) => {
  const current = Number(req.query.current) || 1;
  const size = Number(req.query.size) || 10;
  const offset = (current - 1) * size;
  const conditions = [];
  const params = [tenantId];
  for (const [key, raw] of Object.entries(req.query)) {
    if (!FILTERS[key] || raw === '') continue;
    if (typeof raw !== 'string' || raw.length > 500) return reply.code(400).send();
    if (key === 'name' && [...raw.toLowerCase()].length < 3) {
      // as the engine asks for one or two characters (apps/server/src/platform/crud/query.ts): the
      // characters index's condition, alone for one character, beside the contains pattern for two
      params.push(raw);
      conditions.push(
        `string_to_array(lower("hope_villager"."name"), null) @> string_to_array(lower($${params.length}::text), null)`,
      );
      if ([...raw.toLowerCase()].length === 1) continue;
    }
    params.push(key === 'name' ? containsPattern(raw) : raw);
    conditions.push(FILTERS[key](params.length));
  }
  const where =
    `where (("hope_villager"."is_deleted" = 0 and "hope_villager"."tenant_id" = $1)` +
    conditions.map((c) => ` and ${c}`).join('') +
    ')';
  const page =
    `${SELECT_VILLAGER_ROW} from "hope_villager" ${where} ` +
    `order by "hope_villager"."create_time" desc, "hope_villager"."id" desc limit $${params.length + 1}`;
  const text = offset > 0 ? `${page} offset $${params.length + 2}` : page;
  // the two queries run side by side, as in the real route (Promise.all)
  const [rows, total] = await Promise.all([
    db.query(text, offset > 0 ? [...params, size, offset] : [...params, size]),
    cachedCount(params.slice(1).join('|') + where, () =>
      db.query(`select count(*) from "hope_villager" ${where}`, params).then((r) => Number(r.rows[0].count)),
    ),
  ]);
  return { records: rows.rows, total };
});

await serveBare(app, db, 8092);
