import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import type { KvStore } from '../kv';

/**
 * Readiness (`GET /api/ready`): what a proxy or an orchestrator asks before it sends this instance traffic.
 *
 *   200 {"code":200,"success":true,"data":{"database":"up","sharedState":"up"}}
 *   503 {"code":503,"success":false,"data":{"database":"down","sharedState":"up"}}            (what is down)
 *   503 {"code":503,"success":false,"data":{"database":"up","sharedState":"up","draining":true}} (SIGTERM)
 *
 * Ready only when a `select 1` on the database and, with REDIS_URL, a Redis PING both answer within
 * READY_TIMEOUT_MS (1 s). No token is read and no context is built (it answers while the database is down),
 * nothing is written to the audit trail, and a call is logged only when the answer changes (a health check
 * every second would otherwise flood the request log).
 */
export const READY_PATH = '/api/ready';
export const READY_TIMEOUT_MS = 1000;
/** a check still unanswered after this long is no longer waited for: the next call starts a new one */
const ABANDON_AFTER_MS = 5000;

declare module 'fastify' {
  interface FastifyInstance {
    /** this instance's readiness: `draining` once a SIGTERM asked it to stop (server.ts `drain`) */
    readiness: { draining: boolean };
  }
}

type State = 'up' | 'down';

/**
 * A check run at most once at a time: calls while one is in flight wait for the same answer (a hung database
 * never piles up probes), for at most `timeoutMs`; a check unanswered for ABANDON_AFTER_MS is let go.
 */
export function probe(check: () => Promise<unknown>, timeoutMs = READY_TIMEOUT_MS): () => Promise<State> {
  let current: { at: number; done: Promise<boolean> } | undefined;
  return async () => {
    if (!current || Date.now() - current.at > ABANDON_AFTER_MS) {
      const entry = {
        at: Date.now(),
        done: Promise.resolve()
          .then(check)
          .then(
            () => true,
            () => false,
          ),
      };
      entry.done.finally(() => {
        if (current === entry) current = undefined;
      });
      current = entry;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return (await Promise.race([current.done, late])) ? 'up' : 'down';
    } finally {
      clearTimeout(timer);
    }
  };
}

export function readyRoutes(
  app: FastifyInstance,
  deps: { db: Db; kv: KvStore; redis: boolean; timeoutMs?: number },
) {
  const readiness = { draining: false };
  app.decorate('readiness', readiness);
  const database = probe(() => deps.db.execute(sql`select 1`), deps.timeoutMs);
  const sharedState = deps.redis
    ? probe(() => deps.kv.ping(), deps.timeoutMs)
    : async (): Promise<State> => 'up';
  let last = '';
  app.get(
    READY_PATH,
    // `bare`: no token read, no context (requestContext); below warn, a call is not logged
    { config: { public: true, bare: true }, logLevel: 'warn' },
    async (_req, reply) => {
      const [db, shared] = await Promise.all([database(), sharedState()]);
      const data: { database: State; sharedState: State; draining?: true } = {
        database: db,
        sharedState: shared,
      };
      if (readiness.draining) data.draining = true;
      const ready = db === 'up' && shared === 'up' && !readiness.draining;
      const summary = JSON.stringify(data);
      if (summary !== last) {
        // logged once per change, not per call
        if (ready) app.log.info({ readiness: data }, last ? 'ready again' : 'ready');
        else app.log.warn({ readiness: data }, 'not ready');
        last = summary;
      }
      reply.header('cache-control', 'no-store');
      return reply.status(ready ? 200 : 503).send({ code: ready ? 200 : 503, success: ready, data });
    },
  );
}
