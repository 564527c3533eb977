// A bare Fastify route running the same SQL as GET /api/dfem-user/page, to measure what the real server's
// framework layers cost (token check, zod, envelope, date formatting, drizzle's row mapping).
// No auth, no validation, no envelope. Started by bench/run.mjs as its own process:
//   PORT=... DATABASE_URL=postgres://...  node bench/bare-server.mjs   (pg.Pool, max 20, like the server)
//   PORT=... PGLITE_DIR=<DATA_DIR>/pgdata node bench/bare-server.mjs   (PGlite; nobody else may have the folder open)
import { createRequire } from 'node:module';

// resolve the server's own dependencies, so the bare server runs the very same driver versions
const requireServer = createRequire(new URL('../apps/server/package.json', import.meta.url));
const Fastify = requireServer('fastify');

// KEEP IN SYNC with apps/server/src/modules/user/routes.ts (GET /page without filters): this is drizzle's
// output for that query (`.toSQL()`), copied verbatim. Drizzle leaves out `offset` when it is 0.
// run.mjs compares the ids and total this route returns with the real route's, and warns when they differ.
const PAGE_SQL =
  `select "id", "tenant_id", "account", "name", "real_name", "email", "phone", "sex", "status", "create_time", ` +
  `(select string_agg(r.role_name, ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id), ` +
  `(select string_agg(d.dept_name, ',') from blade_user_dept ud join blade_dept d on d.id = ud.dept_id where ud.user_id = blade_user.id) ` +
  `from "blade_user" where ("blade_user"."tenant_id" = $1 and "blade_user"."is_deleted" = $2) ` +
  `order by "blade_user"."create_time" desc, "blade_user"."id" desc limit $3`;
const COUNT_SQL =
  'select count(*) from "blade_user" where ("blade_user"."tenant_id" = $1 and "blade_user"."is_deleted" = $2)';

const port = Number(process.env.PORT ?? 8090);
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
  throw new Error('bare-server: set DATABASE_URL or PGLITE_DIR');
}

const app = Fastify({ logger: false });

app.get('/ready', async () => 'ok');

app.get('/bare/user/page', async (req) => {
  const current = Number(req.query.current) || 1;
  const size = Number(req.query.size) || 10;
  const offset = (current - 1) * size;
  const pageSql = offset > 0 ? `${PAGE_SQL} offset $4` : PAGE_SQL;
  const pageParams = offset > 0 ? [tenantId, 0, size, offset] : [tenantId, 0, size];
  // the two queries run side by side, as in the real route (Promise.all)
  const [page, total] = await Promise.all([
    db.query(pageSql, pageParams),
    db.query(COUNT_SQL, [tenantId, 0]),
  ]);
  return { records: page.rows, total: Number(total.rows[0].count) };
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
