import { eq, inArray, sql } from 'drizzle-orm';
import { type Db, schema } from '../db';
import type { KvStore } from '../kv';

/**
 * Whether a user's sessions are still alive, as every server instance sees it.
 *
 * A token carries the user's session version from when it was issued (`sv`). Changing or resetting a
 * password, removing or disabling an account raises the version in the user row (durable) and publishes
 * the new state in the shared store (every instance reads it on every request); a token older than the
 * version is dead, except the one sign-in kept across the raise (`keepFamily`: the person who changed
 * their own password stays signed in where they did it). The state also says whether the password must
 * be changed before anything else is served.
 *
 * The shared store keeps a state for a few seconds; a miss reads the user row. Writers publish after
 * their commit, and a reader only fills a missing entry (set-if-absent), so a reader that read the row
 * before the commit cannot overwrite what the writer published; the short lifetime bounds any other race.
 */
export interface SessionState {
  /** the account exists, is not removed and may sign in */
  live: boolean;
  version: number;
  keepFamily: string | null;
  mustChangePassword: boolean;
}

const STATE_TTL_SECONDS = 5;
const GONE: SessionState = { live: false, version: 0, keepFamily: null, mustChangePassword: false };

export const sessionKey = (userId: string) => `session:${userId}`;

export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly kv: KvStore,
  ) {}

  /** The state as stored in the user row. */
  async read(userId: string, db: Db = this.db): Promise<SessionState> {
    if (db === this.db && !this.readRow) this.readRow = sessionRow(this.db).prepare('');
    const [row] =
      db === this.db && this.readRow
        ? await this.readRow.execute({ userId })
        : await sessionRow(db).execute({ userId });
    if (row?.isDeleted !== 0 || row.status !== 1) return GONE;
    return { live: true, version: row.version, keepFamily: row.keepFamily, mustChangePassword: row.must };
  }

  /** the read of `read`, built once for this server's database */
  private readRow: ReturnType<ReturnType<typeof sessionRow>['prepare']> | undefined;
  /**
   * Reads of a user row under way, by user: the requests that miss the shared store while one is under way
   * (every request of a busy user when the state expires) wait for it instead of each reading the row.
   */
  private readonly reading = new Map<string, Promise<SessionState>>();

  /**
   * The state the shared store's text says, or undefined when there is none or it cannot be read. The
   * same text gives the same (frozen) state object: most requests of a user bring the text of the last.
   */
  stored(text: string | null): SessionState | undefined {
    if (!text) return undefined;
    const hit = this.parsed.get(text);
    if (hit) return hit;
    let state: SessionState;
    try {
      state = Object.freeze(JSON.parse(text) as SessionState);
    } catch {
      return undefined;
    }
    if (this.parsed.size >= 10_000) this.parsed.clear();
    this.parsed.set(text, state);
    return state;
  }

  private readonly parsed = new Map<string, SessionState>();

  /** The state from the shared store's text (read together with the family's revocation), else the row. */
  async resolve(userId: string, stored: string | null): Promise<SessionState> {
    const known = this.stored(stored);
    if (known) return known;
    let pending = this.reading.get(userId);
    if (!pending) {
      pending = this.read(userId)
        .then(async (state) => {
          await this.kv.setIfAbsent(sessionKey(userId), JSON.stringify(state), STATE_TTL_SECONDS);
          return state;
        })
        .finally(() => this.reading.delete(userId));
      this.reading.set(userId, pending);
    }
    return pending;
  }

  /** Publishes the committed state of these users to every instance at once. */
  async publish(userIds: string[]): Promise<void> {
    for (const userId of new Set(userIds))
      await this.kv.set(sessionKey(userId), JSON.stringify(await this.read(userId)), STATE_TTL_SECONDS);
  }
}

/** The session columns of one user row (the id bound when it runs). */
function sessionRow(db: Db) {
  const u = schema.user;
  return db
    .select({
      status: u.status,
      isDeleted: u.isDeleted,
      version: u.sessionVersion,
      keepFamily: u.sessionKeepFamily,
      must: u.mustChangePassword,
    })
    .from(u)
    .where(eq(u.id, sql.placeholder('userId')))
    .limit(1);
}

/** Whether a token's session is alive in this state. */
export function admits(state: SessionState, token: { sv?: number; fid: string }): boolean {
  if (!state.live) return false;
  return (token.sv ?? 0) >= state.version || (state.keepFamily !== null && token.fid === state.keepFamily);
}

/**
 * Ends the sessions of these users (inside the caller's transaction): every token issued before is dead,
 * except those of `keepFamily`. Publish after the commit (`Sessions.publish`).
 */
export async function endSessions(tx: Db, userIds: string[], keepFamily: string | null = null) {
  if (!userIds.length) return;
  const u = schema.user;
  await tx
    .update(u)
    .set({ sessionVersion: sql`${u.sessionVersion} + 1`, sessionKeepFamily: keepFamily })
    .where(inArray(u.id, userIds));
}
