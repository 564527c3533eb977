import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { ExtraResource } from './modules/resources';
import { loadSigningKey } from './platform/auth/tokens';
import type { Config } from './platform/config';
import { type Database, openDatabase } from './platform/db';
import { deploymentId, type KvStore, kvPrefixOf, openKv } from './platform/kv';
import { LocalStorage } from './platform/storage';
import { seed } from './seed';

export interface Server {
  app: FastifyInstance;
  database: Database;
  kv: KvStore;
  /**
   * Stops as SIGTERM asks: `/api/ready` answers 503 at once, requests go on being served for `delayMs`
   * (a proxy's health check takes the instance out meanwhile), then no connection is accepted, the requests
   * in flight are answered, and everything is closed.
   */
  drain(delayMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens the database and the shared store, migrates, seeds, and builds the app (not yet listening). */
export interface ServerOptions {
  /** false: no logging; a stream: JSON log lines written there (tests read them) */
  logger?: false | NodeJS.WritableStream;
  kvPrefix?: string;
  /** an already migrated and seeded database (tests share one per worker); closing the server leaves it open */
  database?: Database;
  /** a database being opened (start-up opens it while the server's code loads); migrated, seeded, owned */
  opening?: Promise<Database>;
  /** a shared store already open (tests run two instances over one store); closing the server leaves it open */
  kv?: KvStore;
  /** definitions mounted beside the registry's (the field-kind tests mount a probe of every kind) */
  extraResources?: ExtraResource[];
}

export async function createServer(config: Config, opts: ServerOptions = {}): Promise<Server> {
  const owned = !opts.database;
  const database =
    opts.database ??
    (await (opts.opening ??
      openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, readCache: config.READ_CACHE })));
  if (owned) {
    await database.migrate();
    await seed(database.db, { storage: new LocalStorage(config.DATA_DIR) });
  }
  const kv =
    opts.kv ??
    openKv(
      config.REDIS_URL,
      opts.kvPrefix ?? (config.REDIS_URL ? kvPrefixOf(config, await deploymentId(database.db)) : undefined),
    );
  const app = await buildApp({
    config,
    db: database.db,
    kv,
    signingKey: loadSigningKey(config.JWT_SECRET, config.DATA_DIR),
    logger: opts.logger,
    extraResources: opts.extraResources,
  });
  // sign-outs the shared store may have lost (a restart without Redis, an emptied Redis) are refused again
  await app.deps.tokens.restoreRevoked();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close(); // stops accepting, waits for requests in flight
    if (!opts.kv) await kv.close();
    if (owned) await database.close();
  };
  return {
    app,
    database,
    kv,
    async drain(delayMs = 0) {
      app.readiness.draining = true;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await close();
    },
    close,
  };
}
