/**
 * Which tables changed, as this process learns it: every table carries a statement trigger that sends
 * `pg_notify('smart_table_changed', <table>)` (delivered when the writing transaction commits), and every
 * server listens. So a write by any server instance, any code path or a person at a psql prompt moves that
 * table's version here, and whatever was remembered from the table's old contents stops being answered.
 *
 * While the listening connection is down nothing can be known: `listening` is false and callers must read
 * the database itself (the read cache does). PGlite delivers a notification before the writing query
 * resolves; on PostgreSQL the writer's own instance also moves the version as soon as its commit returns
 * (noteStatement), so its next request never sees what it has just changed.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export const CHANGE_CHANNEL = 'smart_table_changed';

/** Whether a table of the schema lacks the change trigger (a cheap question, asked at every start). */
export const CHANGE_TRIGGER_MISSING = `
SELECT EXISTS (
  SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()
    AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'smart_table_changed')
) AS missing`;

/**
 * Run after the migrations when a table lacks it: the trigger function, and the trigger on every table that
 * has none yet (tables added by later migrations get theirs at the next start). Idempotent, and safe when
 * several servers start at once.
 */
export const ENSURE_CHANGE_TRIGGERS = `
DO $ensure$
DECLARE t record;
BEGIN
  BEGIN
    CREATE FUNCTION smart_table_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME);
      RETURN NULL;
    END $fn$;
  EXCEPTION WHEN duplicate_function OR unique_violation THEN NULL;
  END;
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'smart_table_changed')
  LOOP
    BEGIN
      EXECUTE format(
        'CREATE TRIGGER smart_table_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
        'FOR EACH STATEMENT EXECUTE FUNCTION smart_table_changed()', t.relname);
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END LOOP;
END
$ensure$;`;

const trackers = new WeakMap<object, TableChanges>();

/** Called by openDatabase: what is known of the changes of the tables behind this database handle. */
export function trackChanges(db: object, changes: TableChanges) {
  trackers.set(db, changes);
}

export function changesOf(db: object): TableChanges | undefined {
  return trackers.get(db);
}

/**
 * The versions of `tables` (a stamp: equal stamps, unchanged tables) while this process hears of every change
 * to them; undefined (unknown) while it does not.
 */
export function tableVersion(db: object, tables: readonly string[]): () => string | undefined {
  return () => {
    const changes = trackers.get(db);
    return changes?.listening ? changes.stamp(tables) : undefined;
  };
}

/** the tables a statement reads: every name after FROM or JOIN, quoted or not, with or without its schema */
const READ_TABLES = /\b(?:from|join)\s+(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

export function tablesRead(text: string): string[] {
  return [...new Set([...text.matchAll(READ_TABLES)].map((m) => m[1].toLowerCase()))];
}

export class TableChanges {
  private readonly versions = new Map<string, number>();
  /** moves when everything must be forgotten (listening lost or regained, an unknown write) */
  private epoch = 0;
  listening = false;

  /** A stamp of these tables' versions: equal stamps, unchanged tables. */
  stamp(tables: readonly string[]): string {
    let s = String(this.epoch);
    for (const t of tables) s += `,${this.versions.get(t) ?? 0}`;
    return s;
  }

  /** told of every change this process learns of: a table's name, or '*' when everything must be forgotten */
  private readonly listeners: ((table: string) => void)[] = [];

  /**
   * Calls `listener` with each table this process learns has changed (its own writes and every other
   * server's, by notification), or '*' when anything may have (listening lost or regained): what a server
   * remembers besides list pages (grants, scopes, menus) is dropped by it, on every instance at once.
   */
  onChange(listener: (table: string) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  changed(table: string) {
    this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
    for (const l of this.listeners) l(table);
  }

  changedAll() {
    this.epoch++;
    for (const l of this.listeners) l('*');
  }

  /**
   * Whether `noteStatement` would do anything with a statement: a write, or the start or end of a
   * transaction. Reads are not noted, so they need no watching.
   */
  static notes(text: string): boolean {
    const first = FIRST_WORD.exec(text)?.[1]?.toLowerCase();
    return first !== undefined && (TRANSACTION_WORDS.has(first) || WRITES.has(first));
  }

  /** A client's statement finished: what a write outside a transaction, or a commit, changed. */
  noteStatement(session: WriteSession, text: string) {
    const first = FIRST_WORD.exec(text)?.[1]?.toLowerCase();
    if (!first) return;
    if (first === 'begin' || first === 'start') {
      session.inTransaction = true;
      session.written.clear();
      return;
    }
    if (
      first === 'commit' ||
      first === 'end' ||
      (first === 'rollback' && !/^\s*rollback\s+to\b/i.test(text))
    ) {
      if (first !== 'rollback')
        for (const t of session.written) t === '*' ? this.changedAll() : this.changed(t);
      session.inTransaction = false;
      session.written.clear();
      return;
    }
    if (!WRITES.has(first)) return;
    // each table the statement names as written (a `with` names its writes inside; one that only reads
    // names none); a write whose table cannot be told (`merge`, `copy`) moves everything
    const tables = [...new Set([...text.matchAll(WRITE_TARGETS)].map((m) => m[1].toLowerCase()))];
    if (!tables.length && first !== 'with') tables.push('*');
    for (const table of tables) {
      if (session.inTransaction) session.written.add(table);
      else if (table === '*') this.changedAll();
      else this.changed(table);
    }
  }
}

/** What one database connection has written in its open transaction. */
export interface WriteSession {
  inTransaction: boolean;
  written: Set<string>;
}

const FIRST_WORD = /^\s*([a-z]+)/i;
const TRANSACTION_WORDS = new Set(['begin', 'start', 'commit', 'end', 'rollback']);
/** statements that write */
const WRITES = new Set(['insert', 'update', 'delete', 'truncate', 'with', 'merge', 'copy']);
/**
 * Every table a statement writes: the target of an `insert into`, `update`, `delete from`, `truncate`, also
 * each data-modifying part of a `with`. A word after `update` that is no table (`on conflict do update set`,
 * `for update skip locked`) only moves a version nothing reads. Moving everything for a `with` instead
 * dropped every cache of the server (grants, scopes, list answers) at each task a workflow completed.
 */
const WRITE_TARGETS =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

/** Listens on PGlite (in-process: a notification arrives before the writing query resolves). */
export async function listenPglite(client: PGlite, changes: TableChanges): Promise<() => Promise<void>> {
  const unlisten = await client.listen(CHANGE_CHANNEL, (table) => changes.changed(table));
  changes.changedAll();
  changes.listening = true;
  return async () => {
    changes.listening = false;
    await unlisten();
  };
}

/**
 * Listens on PostgreSQL with a connection of its own, reconnecting after a loss (1 s, doubling to 30 s).
 * Whatever happened while it was deaf is unknown, so losing and regaining it forget everything.
 */
export async function listenPostgres(
  url: string,
  changes: TableChanges,
  onError: (e: Error) => void = () => {},
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = 1000;
  let timer: NodeJS.Timeout | undefined;

  const lost = (e?: Error) => {
    if (e) onError(e);
    changes.listening = false;
    changes.changedAll();
    const c = client;
    client = undefined;
    c?.removeAllListeners();
    c?.on('error', () => {});
    void c?.end().catch(() => {});
    if (!stopped && !timer) {
      timer = setTimeout(connect, delay);
      timer.unref();
      delay = Math.min(delay * 2, 30_000);
    }
  };

  async function connect() {
    timer = undefined;
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('notification', (m) => {
      if (m.channel === CHANGE_CHANNEL && m.payload) changes.changed(m.payload);
    });
    c.on('error', (e) => lost(e));
    c.on('end', () => {
      if (client === c) lost();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (client !== c) return;
      changes.changedAll();
      changes.listening = true;
      delay = 1000;
    } catch (e) {
      if (client === c) lost(e as Error);
    }
  }

  await connect(); // the first attempt is awaited, so a server starts listening (or knows it is not)
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    changes.listening = false;
    const c = client;
    client = undefined;
    c?.removeAllListeners();
    c?.on('error', () => {});
    await c?.end().catch(() => {});
  };
}

/** what `keptWhileUnchanged` remembers, per database handle and purpose */
const keptBy = new WeakMap<object, Map<string, { stamp: string; value: Promise<unknown> }>>();
const KEPT_MAX = 2_000;

/**
 * `read()`'s answer, remembered under `key` while none of `tables` has changed (this process hears of every
 * change, its own and every other server's): a system parameter, a deployed process definition. While
 * changes cannot be heard (no listening connection, or `db` is a transaction's, which is never tracked)
 * it is read every time.
 */
export function keptWhileUnchanged<T>(
  db: object,
  tables: readonly string[],
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  const changes = trackers.get(db);
  if (!changes?.listening) return read();
  const stamp = changes.stamp(tables);
  let kept = keptBy.get(db);
  if (!kept) {
    kept = new Map();
    keptBy.set(db, kept);
  }
  const hit = kept.get(key);
  if (hit?.stamp === stamp) return hit.value as Promise<T>;
  if (kept.size >= KEPT_MAX) kept.clear();
  const value = read();
  const map = kept;
  map.set(key, { stamp, value });
  value.catch(() => map.get(key)?.value === value && map.delete(key));
  return value;
}
