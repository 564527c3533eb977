import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import { type Db, schema } from './db';

const require = createRequire(import.meta.url);

/**
 * Shared state across server instances: captcha answers, sign-in failure counters, revoked and used tokens.
 * Redis when REDIS_URL is set, an in-process map otherwise. Every value expires.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip (the request path asks for two on every call). */
  getMany(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets only when absent; true when this call set it (the one winner of a race). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Reads and deletes in one step, so a value can be used once. */
  take(key: string): Promise<string | null>;
  /** Increments; the expiry starts with the first increment. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  del(key: string): Promise<void>;
  /** Answers when the store is reachable (Redis: a PING); fails otherwise. The readiness check asks it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryKv implements KvStore {
  private readonly map = new Map<string, { value: string; expires: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000);

  constructor() {
    this.sweeper.unref();
  }

  private sweep() {
    const now = Date.now();
    for (const [k, v] of this.map) if (v.expires <= now) this.map.delete(k);
  }

  private live(key: string) {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }
  async getMany(keys: string[]) {
    return keys.map((k) => this.live(k)?.value ?? null);
  }
  async set(key: string, value: string, ttlSeconds: number) {
    this.map.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    if (this.live(key)) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }
  async take(key: string) {
    const e = this.live(key);
    this.map.delete(key);
    return e?.value ?? null;
  }
  async incr(key: string, ttlSeconds: number) {
    const e = this.live(key);
    const n = (e ? Number(e.value) : 0) + 1;
    this.map.set(key, { value: String(n), expires: e?.expires ?? Date.now() + ttlSeconds * 1000 });
    return n;
  }
  async del(key: string) {
    this.map.delete(key);
  }
  async ping() {}
  async close() {
    clearInterval(this.sweeper);
    this.map.clear();
  }
}

export class RedisKv implements KvStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'smart:',
  ) {
    // loaded only when Redis is configured: a tenth of a second of every start otherwise
    const { Redis: Client } = require('ioredis') as typeof import('ioredis');
    this.redis = new Client(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }

  private k(key: string) {
    return this.prefix + key;
  }
  async get(key: string) {
    return this.redis.get(this.k(key));
  }
  async getMany(keys: string[]) {
    return keys.length ? this.redis.mget(keys.map((k) => this.k(k))) : [];
  }
  async set(key: string, value: string, ttlSeconds: number) {
    await this.redis.set(this.k(key), value, 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    const r = await this.redis.set(this.k(key), value, 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX');
    return r === 'OK';
  }
  async take(key: string) {
    return this.redis.getdel(this.k(key));
  }
  async incr(key: string, ttlSeconds: number) {
    const res = await this.redis
      .multi()
      .incr(this.k(key))
      .expire(this.k(key), Math.max(1, Math.ceil(ttlSeconds)), 'NX')
      .exec();
    return Number(res?.[0]?.[1] ?? 0);
  }
  async del(key: string) {
    await this.redis.del(this.k(key));
  }
  async ping() {
    await this.redis.ping();
  }
  async close() {
    await this.redis.quit();
  }
}

/**
 * This deployment's namespace in the shared store: REDIS_PREFIX when configured, else derived from the
 * identity its database holds (`deploymentId`), never from how a server's settings spell the database's
 * address: instances that name one database `localhost` and `127.0.0.1` (or with other options) share their
 * sign-outs, locks and counters, and two deployments sharing a Redis never see each other's.
 */
export function kvPrefixOf(config: Pick<Config, 'REDIS_PREFIX'>, deployment: string): string {
  if (config.REDIS_PREFIX) return config.REDIS_PREFIX;
  return `smart:${createHash('sha256').update(deployment).digest('hex').slice(0, 12)}:`;
}

const IDENTITY = 'deployment';

/**
 * The random id this database was given at its first start (`app_identity`); the first of several servers
 * starting at once writes it, the others read the same.
 */
export async function deploymentId(db: Db): Promise<string> {
  await db
    .insert(schema.identity)
    .values({ name: IDENTITY, value: randomUUID() })
    .onConflictDoNothing({ target: schema.identity.name });
  const [row] = await db
    .select({ value: schema.identity.value })
    .from(schema.identity)
    .where(eq(schema.identity.name, IDENTITY))
    .limit(1);
  if (!row) throw new Error('app_identity: the deployment row could not be written');
  return row.value;
}

export function openKv(redisUrl: string | undefined, prefix?: string): KvStore {
  return redisUrl ? new RedisKv(redisUrl, prefix) : new MemoryKv();
}
