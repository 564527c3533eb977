// What the bare servers (bare-server.mjs, bare-scope-server.mjs) share: the server's own drivers, the
// database the environment names, statements named by their text as the server's pool names them, a
// Fastify started and stopped the way the server is.
import { createRequire } from 'node:module';
import { openPglite } from './pglite.mjs';

// resolve the server's own dependencies, so the bare servers run the very same driver versions
export const requireServer = createRequire(new URL('../apps/server/package.json', import.meta.url));

/**
 * The users page's select list as the server sends it (apps/server/src/modules/user/admin.ts, rowSelection;
 * read off PostgreSQL's statement log). KEEP IN SYNC: the bench warns when a bare answer differs.
 */
export const SELECT_USER_ROW =
  'select "id", "tenant_id", "account", "name", "real_name", "code", "avatar", "email", "phone", "sex", ' +
  '"birthday", "post_id", "user_type", "status", "create_time", "update_time", ' +
  "(select string_agg(ur.role_id::text, ',') from blade_user_role ur where ur.user_id = blade_user.id), " +
  "(select string_agg(ud.dept_id::text, ',') from blade_user_dept ud where ud.user_id = blade_user.id), " +
  "(select string_agg(r.role_name, ',') from blade_user_role ur join blade_role r on r.id = ur.role_id where ur.user_id = blade_user.id), " +
  "(select string_agg(d.dept_name, ',') from blade_user_dept ud join blade_dept d on d.id = ud.dept_id where ud.user_id = blade_user.id)";

/**
 * DATABASE_URL: a pg.Pool of 20 (like the server), every statement named by its text
 * (apps/server/src/platform/db/index.ts). PGLITE_DIR: that folder (nobody else may have it open).
 * @returns {Promise<{ query(text: string, values: unknown[]): Promise<{ rows: any[] }>, close(): Promise<void> }>}
 */
export async function openBareDb(who) {
  if (process.env.DATABASE_URL) {
    const pg = requireServer('pg');
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
    const names = new Map();
    const nameOf = (text) => {
      if (!names.has(text)) names.set(text, `bare_${names.size}`);
      return names.get(text);
    };
    return {
      query: (text, values) => pool.query({ name: nameOf(text), text, values }),
      close: () => pool.end(),
    };
  }
  if (process.env.PGLITE_DIR) {
    const client = await openPglite(process.env.PGLITE_DIR);
    // bigint (OID 20) stays the decimal string PostgreSQL sent, as in the server (and as node-postgres does)
    const parsers = { 20: (text) => text };
    return { query: (text, values) => client.query(text, values, { parsers }), close: () => client.close() };
  }
  throw new Error(`${who}: set DATABASE_URL or PGLITE_DIR`);
}

/** Listens on PORT (answering /ready), and closes the app and the database on SIGTERM or SIGINT. */
export async function serveBare(app, db, defaultPort) {
  app.get('/ready', async () => 'ok');
  await app.listen({ port: Number(process.env.PORT ?? defaultPort), host: '127.0.0.1' });
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
}
