import { createSecretKey, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, gt, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { errors, jwtVerify, SignJWT } from 'jose';
import { type Db, schema } from '../db';
import { type KvStore, MemoryKv } from '../kv';
import { admits, type SessionState, type Sessions, sessionKey } from './sessions';

/** What an access or refresh token carries. Short claim names keep the header small. */
export interface TokenClaims {
  /** tenant id */
  tid: string;
  /** user id */
  uid: string;
  /** dept id the token is narrowed to */
  did: string;
  /** role ids (comma list) the token is narrowed to */
  rid: string;
  /** account */
  acc: string;
  /** client id */
  cid: string;
  /** token family: every refresh of one sign-in shares it; revoking it ends the whole session */
  fid: string;
  /** the user's session version when the token was issued (older than the user's current: dead) */
  sv: number;
  /**
   * the sign-in contract the token was issued on: 'family' on the family's path (`POST /token`, the Saber
   * console); absent on the spec's (`POST /oauth/token`, our web app). It renames what is answered (menu
   * paths and icons, the default avatar: modules/system/family-client.ts), never what may be seen.
   */
  ctr?: 'family';
  typ: 'access' | 'refresh';
}

export interface VerifiedToken extends TokenClaims {
  jti: string;
  iat: number;
  exp: number;
}

/** A token whose session is alive, with what its session requires now. */
export interface LiveToken extends VerifiedToken {
  /** the password must be changed before anything else is served */
  mustChangePassword: boolean;
}

const ISSUER = 'smart-admin';
const CHECKED_TOKENS_KEPT = 10_000;
/**
 * In the shared store once its sign-outs were filled from the database, holding when: a store without it has
 * lost its data (emptied, or restarted without persistence), and no token is admitted before they are back.
 */
const FILLED_KEY = 'signed-out-filled';
const FILLED_TTL_SECONDS = 400 * 86_400;

/** The HS256 key: JWT_SECRET, or a random key generated once into the data folder (never in the repository). */
export function loadSigningKey(configured: string | undefined, dataDir: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export class TokenService {
  /** imported once: jose would otherwise import raw key bytes again on every signature and check */
  private readonly key: KeyObject;

  constructor(
    key: Uint8Array,
    private readonly kv: KvStore,
    private readonly sessions: Sessions,
    private readonly db: Db,
  ) {
    this.key = createSecretKey(key);
  }

  async sign(claims: TokenClaims, lifetimeSeconds: number): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
      .sign(this.key);
  }

  /**
   * Verifies signature (HS256 only, so `alg: none` and other algorithms fail), expiry, type, revocation
   * of the sign-in, and that the user's sessions were not ended since (password changed or reset, account
   * removed or disabled).
   */
  async verify(token: string, typ: TokenClaims['typ']): Promise<LiveToken | null> {
    const payload = this.checked.get(token) ?? (await this.checkSignature(token));
    if (!payload || payload.exp * 1000 <= Date.now()) return null;
    if (payload.typ !== typ) return null;
    // revocation and session state are shared: asked every time (one round trip), never remembered here
    let [revoked, session, filled] = await this.kv.getMany([
      `revoked-family:${payload.fid}`,
      sessionKey(payload.uid),
      FILLED_KEY,
    ]);
    if (!filled) {
      // the store lost its data while this server ran: the sign-outs come back first (fail closed)
      filled = await this.refill();
      revoked = await this.kv.get(`revoked-family:${payload.fid}`);
    }
    if (revoked) return null;
    // a refresh token from before the store was filled may have been used (its mark is gone): refused
    if (typ === 'refresh' && (payload.iat + 1) * 1000 <= Number(filled)) return null;
    const state = this.sessions.stored(session) ?? (await this.sessions.resolve(payload.uid, session));
    if (!admits(state, payload)) return null;
    // the same state as last time (the store's text unchanged): the same answer, made once
    const last = this.live.get(payload);
    if (last?.state === state) return last.token;
    const live: LiveToken = Object.freeze({ ...payload, mustChangePassword: state.mustChangePassword });
    this.live.set(payload, { state, token: live });
    return live;
  }

  /** the last answer of `verify` per checked token, with the session state it was made from */
  private readonly live = new WeakMap<VerifiedToken, { state: SessionState; token: LiveToken }>();

  /**
   * Tokens whose signature and claims were checked, by their exact text: a browser sends the same token
   * with every request until it is refreshed, and the HMAC check is most of what a cached answer costs.
   * A token that differs in one character is checked afresh. Bounded; emptied when full.
   */
  private readonly checked = new Map<string, VerifiedToken>();

  private async checkSignature(token: string): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER });
      if (
        typeof payload.fid !== 'string' ||
        typeof payload.jti !== 'string' ||
        typeof payload.exp !== 'number' ||
        typeof payload.uid !== 'string' ||
        (payload.sv !== undefined && typeof payload.sv !== 'number') ||
        (payload.typ !== 'access' && payload.typ !== 'refresh')
      )
        return null;
      const verified = Object.freeze(payload) as unknown as VerifiedToken;
      if (this.checked.size >= CHECKED_TOKENS_KEPT) this.checked.clear();
      this.checked.set(token, verified);
      return verified;
    } catch (e) {
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  }

  /**
   * Ends a whole sign-in: its access tokens and every refresh token of the family. The shared store, read on
   * every request by every instance, refuses them from the next request on; the database keeps the family
   * until its last token expires, so a store that loses it (a restart without Redis, an emptied Redis) gets
   * it back at the next start (`restoreRevoked`).
   */
  async revokeFamily(fid: string, ttlSeconds: number): Promise<void> {
    await this.kv.set(`revoked-family:${fid}`, '1', ttlSeconds);
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    await this.db
      .insert(schema.signedOut)
      .values({ family: fid, expiresAt })
      .onConflictDoUpdate({ target: schema.signedOut.family, set: { expiresAt, createTime: new Date() } });
  }

  /**
   * At start, and when the store is found empty: every family still signed out goes back into the shared
   * store (expired ones are forgotten), then the store is marked filled (an earlier mark is kept); answers
   * the mark, before which refresh tokens are refused. After a loss the mark is a second ahead: a token's
   * time has whole seconds, and one issued in the second of the loss may have been used. The in-process map
   * (no Redis) starts empty with every start of its one server by nature: its mark refuses nothing, or every
   * restart would sign everybody out.
   */
  async restoreRevoked(lost = false): Promise<string> {
    await this.db.delete(schema.signedOut).where(lte(schema.signedOut.expiresAt, new Date()));
    await this.followRevoked(new Date(0));
    const mark = !lost && this.kv instanceof MemoryKv ? 0 : Date.now() + (lost ? 1000 : 0);
    await this.kv.setIfAbsent(FILLED_KEY, String(mark), FILLED_TTL_SECONDS);
    return (await this.kv.get(FILLED_KEY)) ?? String(Date.now());
  }

  /** one refill at a time on this server, whatever the number of requests that found the store empty */
  private refilling: Promise<string> | undefined;
  private refill(): Promise<string> {
    this.refilling ??= this.restoreRevoked(true).finally(() => {
      this.refilling = undefined;
    });
    return this.refilling;
  }

  /**
   * Copies the families signed out since `since` (another instance's, when the store is not shared) into
   * this store; answers how many. Written before its commit, a row may carry a time a little before the last
   * look: the caller looks back a few seconds further (copying one twice changes nothing).
   */
  async followRevoked(since: Date): Promise<number> {
    const now = new Date();
    const rows = await this.db
      .select({ family: schema.signedOut.family, expiresAt: schema.signedOut.expiresAt })
      .from(schema.signedOut)
      .where(and(gt(schema.signedOut.createTime, since), gt(schema.signedOut.expiresAt, now)));
    for (let i = 0; i < rows.length; i += 500)
      await Promise.all(
        rows.slice(i, i + 500).map((row) => {
          const ttl = Math.ceil((row.expiresAt.getTime() - now.getTime()) / 1000);
          return this.kv.set(`revoked-family:${row.family}`, '1', Math.max(1, ttl));
        }),
      );
    return rows.length;
  }

  /** Marks a refresh token used; false when it was used before (a replay). Atomic across instances. */
  async markRefreshUsed(t: VerifiedToken): Promise<boolean> {
    const ttl = Math.max(1, t.exp - Math.floor(Date.now() / 1000));
    return this.kv.setIfAbsent(`used-refresh:${t.jti}`, '1', ttl);
  }
}

/** How often an instance without a shared store copies the sign-outs other instances wrote to the database. */
const FOLLOW_INTERVAL_MS = 2000;
/** how far before its last look an instance looks again (rows written before their commit) */
const FOLLOW_OVERLAP_MS = 10_000;

/** Every FOLLOW_INTERVAL_MS, the sign-outs written since the last look go into this instance's store. */
export function followSignOuts(app: FastifyInstance, tokens: TokenService) {
  let since = new Date();
  let interval: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    const started = Date.now();
    running = tokens
      .followRevoked(new Date(since.getTime() - FOLLOW_OVERLAP_MS))
      .then(() => {
        since = new Date(started);
      })
      .catch((err) => app.log.error({ err }, 'following sign-outs failed'))
      .finally(() => {
        running = undefined;
      });
  };
  app.addHook('onReady', async () => {
    interval = setInterval(tick, FOLLOW_INTERVAL_MS);
    interval.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(interval);
    await running;
  });
}
