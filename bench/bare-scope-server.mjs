// A bare Fastify route running the same SQL as GET /api/dfem-user/page?deptId=<dept> for a caller whose role
// holds a data scope of type 4 (own dept and below) on 'user', to measure what the real server's framework
// layers cost (token check, permission and scope look-ups, envelope, date formatting, drizzle's row mapping).
// No auth, no validation, no envelope. Started by bench/workloads.mjs as its own process:
//   PORT=... DATABASE_URL=postgres://...  node bench/bare-scope-server.mjs   (pg.Pool, max 20, like the server)
//   PORT=... PGLITE_DIR=<DATA_DIR>/pgdata node bench/bare-scope-server.mjs   (PGlite; nobody else may have it open)
// GET /bare/user/scoped-page?current=1&size=10&deptId=<filter dept>&scopeDept=<the caller's dept>
import { createRequire } from 'node:module';

const requireServer = createRequire(new URL('../apps/server/package.json', import.meta.url));
const Fastify = requireServer('fastify');

// KEEP IN SYNC with apps/server/src/modules/user/admin.ts (GET /page: rowSelection, userConstraint with
// dataScopeCondition's SCOPE_DEPT_TREE branch, userListQuery's deptId subtree) and platform/access/scope.ts
// (deptSubtree). This is drizzle's `.toSQL()` of that request, copied verbatim; drizzle leaves out `offset`
// when it is 0. workloads.mjs compares the ids and total this route answers with the real route's.
const SUBTREE = (a, b, c, d) =>
  `select "id" from "blade_dept" where ("blade_dept"."tenant_id" = $${a} and "blade_dept"."is_deleted" = $${b} ` +
  `and ("blade_dept"."id" = $${c} or (',' || "blade_dept"."ancestors" || ',') like $${d}))`;
const WHERE =
  `where (("blade_user"."tenant_id" = $1 and "blade_user"."is_deleted" = $2 and "blade_user"."create_dept" in ` +
  `(${SUBTREE(3, 4, 5, 6)})) and "blade_user"."id" in (select "user_id" from "blade_user_dept" where ` +
  `"blade_user_dept"."dept_id" in (${SUBTREE(7, 8, 9, 10)})))`;
const PAGE_SQL =
  `select "id", "tenant_id", "account", "name", "real_name", "code", "avatar", "email", "phone", "sex", ` +
  `"birthday", "post_id", "user_type", "status", "create_time", "update_time", ` +
  `(select string_agg(ur.role_id::text, ',') from blade_user_role ur where ur.user_id = blade_user.id), ` +
  `(select string_agg(ud.dept_id::text, ',') from blade_user_dept ud where ud.user_id = blade_user.id), ` +
  `(select string_agg(r.role_name, ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id), ` +
  `(select string_agg(d.dept_name, ',') from blade_user_dept ud join blade_dept d on d.id = ud.dept_id where ud.user_id = blade_user.id) ` +
  `from "blade_user" ${WHERE} order by "blade_user"."create_time" desc, "blade_user"."id" desc limit $11`;
const COUNT_SQL = `select count(*) from "blade_user" ${WHERE}`;

const port = Number(process.env.PORT ?? 8091);
const tenantId = '000000';

/** @type {{ query(text: string, values: unknown[]): Promise<{ rows: any[] }>, close(): Promise<void> }} */
let db;
if (process.env.DATABASE_URL) {
  const pg = requireServer('pg');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  db = { query: (text, values) => pool.query(text, values), close: () => pool.end() };
} else if (process.env.PGLITE_DIR) {
  const { PGlite } = requireServer('@electric-sql/pglite');
  const client = await PGlite.create(process.env.PGLITE_DIR);
  // bigint (OID 20) stays the decimal string PostgreSQL sent, as in the server (and as node-postgres does)
  const parsers = { 20: (text) => text };
  db = { query: (text, values) => client.query(text, values, { parsers }), close: () => client.close() };
} else {
  throw new Error('bare-scope-server: set DATABASE_URL or PGLITE_DIR');
}

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

app.get('/ready', async () => 'ok');

app.get('/bare/user/scoped-page', async (req, reply) => {
  const { deptId, scopeDept } = req.query;
  if (!/^\d{1,19}$/.test(deptId ?? '') || !/^\d{1,19}$/.test(scopeDept ?? '')) return reply.code(400).send();
  const current = Number(req.query.current) || 1;
  const size = Number(req.query.size) || 10;
  const offset = (current - 1) * size;
  const where = [
    tenantId,
    0,
    tenantId,
    0,
    scopeDept,
    `%,${scopeDept},%`,
    tenantId,
    0,
    deptId,
    `%,${deptId},%`,
  ];
  const pageSql = offset > 0 ? `${PAGE_SQL} offset $12` : PAGE_SQL;
  const pageParams = offset > 0 ? [...where, size, offset] : [...where, size];
  // the two queries run side by side, as in the real route (Promise.all)
  const [page, total] = await Promise.all([
    db.query(pageSql, pageParams),
    cachedCount(`${deptId}|${scopeDept}`, () =>
      db.query(COUNT_SQL, where).then((r) => Number(r.rows[0].count)),
    ),
  ]);
  return { records: page.rows, total };
});

await app.listen({ port, host: '127.0.0.1' });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    try {
      await app.close();
      await db.close();
      process.exit(0);
    } catch (err) {
      console.error(err);
      process.exit(1);
    }
  });
}
