// A bare Fastify route running the same SQL as GET /api/dfem-user/page?deptId=<dept> for a caller whose role
// holds a data scope of type 4 (own dept and below) on 'user', to measure what the real server's framework
// layers cost (token check, permission and scope look-ups, envelope, date formatting, drizzle's row mapping).
// No auth, no validation, no envelope. Started by bench/workloads.mjs as its own process:
//   PORT=... DATABASE_URL=postgres://...  node bench/bare-scope-server.mjs   (pg.Pool, max 20, like the server)
//   PORT=... PGLITE_DIR=<DATA_DIR>/pgdata node bench/bare-scope-server.mjs   (PGlite; nobody else may have it open)
// GET /bare/user/scoped-page?current=1&size=10&deptId=<filter dept>&scopeDept=<the caller's dept>
import { openBareDb, requireServer, SELECT_USER_ROW, serveBare } from './bare-db.mjs';

const Fastify = requireServer('fastify');

// KEEP IN SYNC with apps/server/src/modules/user/admin.ts (GET /page: rowSelection, userConstraint with
// dataScopeCondition's SCOPE_DEPT_TREE branch, userListQuery's deptId filter) and platform/access/scope.ts
// (deptSubtreeIds: a dept's subtree read first, kept 5 s, and passed as a list). These are the texts the
// server sends (read off PostgreSQL's statement log); drizzle leaves out `offset` when it is 0.
// workloads.mjs compares the ids and total this route answers with the real route's.
const SUBTREE_SQL =
  'select "id" from "blade_dept" where ("blade_dept"."tenant_id" = $1 and "blade_dept"."is_deleted" = 0 ' +
  `and ("blade_dept"."id" = $2 or (',' || "blade_dept"."ancestors" || ',') like $3))`;
const list = (from, n) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');
/** the WHERE for a scope subtree of `s` depts and a filter subtree of `f` depts; the tenant is $1 */
const where = (s, f) =>
  `where (("blade_user"."tenant_id" = $1 and "blade_user"."is_deleted" = 0 and "blade_user"."create_dept" in ` +
  `(${list(2, s)})) and exists (select 1 from "blade_user_dept" where ("blade_user_dept"."user_id" = ` +
  `"blade_user"."id" and "blade_user_dept"."dept_id" in (${list(2 + s, f)}))))`;
const pageSql = (s, f) =>
  `${SELECT_USER_ROW} ` +
  `from "blade_user" ${where(s, f)} order by "blade_user"."create_time" desc, "blade_user"."id" desc ` +
  `limit $${2 + s + f}`;
const countSql = (s, f) => `select count(*) from "blade_user" ${where(s, f)}`;

const tenantId = '000000';

const db = await openBareDb('bare-scope-server');

// the real route remembers a page total for 3 s per query shape (platform/crud/count-cache.ts): so does this
const totals = new Map();
function cachedCount(key, count) {
  const hit = totals.get(key);
  if (hit && Date.now() - hit.at < 3_000) return hit.total;
  const total = count();
  totals.set(key, { at: Date.now(), total });
  total.catch(() => totals.delete(key));
  return total;
}

const app = Fastify({ logger: false });

/** a dept and every dept below it, kept 5 s, as the server does */
const subtrees = new Map();
function subtreeIds(deptId) {
  const hit = subtrees.get(deptId);
  if (hit && Date.now() - hit.at < 5_000) return hit.ids;
  const ids = db.query(SUBTREE_SQL, [tenantId, deptId, `%,${deptId},%`]).then((r) => {
    const found = r.rows.map((row) => String(row.id));
    return found.length ? found : ['0'];
  });
  subtrees.set(deptId, { at: Date.now(), ids });
  return ids;
}

app.get('/bare/user/scoped-page', async (req, reply) => {
  const { deptId, scopeDept } = req.query;
  if (!/^\d{1,19}$/.test(deptId ?? '') || !/^\d{1,19}$/.test(scopeDept ?? '')) return reply.code(400).send();
  const current = Number(req.query.current) || 1;
  const size = Number(req.query.size) || 10;
  const offset = (current - 1) * size;
  const [scope, filter] = await Promise.all([subtreeIds(scopeDept), subtreeIds(deptId)]);
  const params = [tenantId, ...scope, ...filter];
  const page = pageSql(scope.length, filter.length);
  const text = offset > 0 ? `${page} offset $${params.length + 2}` : page;
  // the two queries run side by side, as in the real route (Promise.all)
  const [rows, total] = await Promise.all([
    db.query(text, offset > 0 ? [...params, size, offset] : [...params, size]),
    cachedCount(`${deptId}|${scopeDept}`, () =>
      db.query(countSql(scope.length, filter.length), params).then((r) => Number(r.rows[0].count)),
    ),
  ]);
  return { records: rows.rows, total };
});

await serveBare(app, db, 8091);
