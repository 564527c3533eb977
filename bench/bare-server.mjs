// A bare Fastify route running the same SQL as GET /api/dfem-user/page, to measure what the real server's
// framework layers cost (token check, zod, envelope, date formatting, drizzle's row mapping).
// No auth, no validation, no envelope. Started by bench/run.mjs as its own process:
//   PORT=... DATABASE_URL=postgres://...  node bench/bare-server.mjs   (pg.Pool, max 20, like the server)
//   PORT=... PGLITE_DIR=<DATA_DIR>/pgdata node bench/bare-server.mjs   (PGlite; nobody else may have the folder open)
import { openBareDb, requireServer, SELECT_USER_ROW, serveBare } from './bare-db.mjs';

const Fastify = requireServer('fastify');

// KEEP IN SYNC with apps/server/src/modules/user/admin.ts (GET /page without filters): this is the text the
// server sends for that query (read off PostgreSQL's statement log), copied verbatim. Drizzle leaves out
// `offset` when it is 0. run.mjs compares the ids and total this route returns with the real route's, and
// warns when they differ.
const PAGE_SQL =
  `${SELECT_USER_ROW} ` +
  'from "blade_user" where ("blade_user"."tenant_id" = $1 and "blade_user"."is_deleted" = 0) ' +
  'order by "blade_user"."create_time" desc, "blade_user"."id" desc limit $2';
const COUNT_SQL =
  'select count(*) from "blade_user" where ("blade_user"."tenant_id" = $1 and "blade_user"."is_deleted" = 0)';
/** the real route keeps a list's total for 3 s (apps/server/src/platform/crud/count-cache.ts): so does this one */
const COUNT_KEPT_MS = 3000;

const tenantId = '000000';

const db = await openBareDb('bare-server');

const app = Fastify({ logger: false });

app.get('/bare/user/page', async (req) => {
  const current = Number(req.query.current) || 1;
  const size = Number(req.query.size) || 10;
  const offset = (current - 1) * size;
  const pageSql = offset > 0 ? `${PAGE_SQL} offset $3` : PAGE_SQL;
  const pageParams = offset > 0 ? [tenantId, size, offset] : [tenantId, size];
  // the two run side by side, as in the real route (Promise.all)
  const [page, total] = await Promise.all([db.query(pageSql, pageParams), countOf(tenantId)]);
  return { records: page.rows, total };
});

const counts = new Map();
function countOf(tenant) {
  const hit = counts.get(tenant);
  if (hit && Date.now() - hit.at < COUNT_KEPT_MS) return hit.total;
  const total = db.query(COUNT_SQL, [tenant]).then((r) => Number(r.rows[0].count));
  counts.set(tenant, { at: Date.now(), total });
  return total;
}

await serveBare(app, db, 8090);
