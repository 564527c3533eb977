/**
 * CLUSTER BRANCH STUB — a minimal `GET /api/ready` so the cluster recipe's HAProxy health checks and the
 * cluster tests have something to ask. The ops branch builds the real readiness endpoint (issue 38): when
 * both are merged, drop this file and its one registration line in app.ts in favour of theirs.
 *
 * 200 when the database and the shared store (Redis) answer within two seconds, 503 otherwise; no token.
 */

import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref()),
  ]);

export async function readyRouteStub(app: FastifyInstance) {
  app.get('/api/ready', { config: { public: true }, logLevel: 'warn' }, async (_req, reply) => {
    const { db, kv } = app.deps;
    const [database, store] = await Promise.allSettled([
      within(2000, db.execute(sql`select 1`)),
      within(2000, kv.get('ready-probe')),
    ]);
    const ok = database.status === 'fulfilled' && store.status === 'fulfilled';
    return reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        ready: ok,
        database: database.status === 'fulfilled',
        sharedState: store.status === 'fulfilled',
      });
  });
}
