import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DrizzleQueryError } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsDir } from '../paths';
import {
  CHANGE_TRIGGER_MISSING,
  ENSURE_CHANGE_TRIGGERS,
  listenPglite,
  listenPostgres,
  TableChanges,
  trackChanges,
  type WriteSession,
} from './changes';
import * as schema from './schema';

export { schema };
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** what this process knows of the tables' changes (the list answers of platform/crud/answers.ts rely on it) */
  changes: TableChanges;
  /** runs the migrations, puts the change trigger on every table, and starts listening for changes */
  migrate(): Promise<void>;
  /**
   * PGlite only: the data folder as a gzipped tar, taken between two statements (PGlite runs one at a time),
   * after a checkpoint: a consistent copy while the server goes on writing (platform/backup.ts).
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

/** Statements worth keeping prepared: plain reads and writes (never DDL, transaction control or scripts). */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\s/i;
/** a connection keeps at most this many statements; texts beyond it run unnamed, as before */
const MAX_STATEMENTS_PER_CONNECTION = 2000;
const MAX_PREPARED_TEXT = 20_000;
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= MAX_STATEMENTS_PER_CONNECTION) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

type QueryFn = (config: unknown, ...rest: unknown[]) => unknown;

/**
 * Names every application query by its text, so that each PostgreSQL connection parses and plans a
 * statement once and then only binds and runs it (node-postgres keeps named statements per connection).
 * Planning costs more than running for the list pages' short indexed queries: this triples what the
 * database can answer per second. Drizzle builds the same text for the same query shape, with every value
 * bound, so the number of distinct texts is bounded by the code, not by the data.
 */
function prepareStatementsOf(client: pg.PoolClient) {
  const run = client.query.bind(client) as QueryFn;
  const prepared = new Set<string>();
  return (config: unknown, ...rest: unknown[]) => {
    // a submittable runs as it is (a cursor, a stream), but for the array-rows query, which is named here too
    const c = config as { name?: string; submit?: unknown } | null;
    const arrays = c instanceof ArrayRowsQuery;
    if (c && typeof c === 'object' && !c.name && (arrays || typeof c.submit !== 'function')) {
      const text = (config as { text?: unknown }).text;
      if (typeof text === 'string' && text.length <= MAX_PREPARED_TEXT && PREPARABLE.test(text)) {
        const name = statementName(text);
        if (prepared.has(name) || prepared.size < MAX_STATEMENTS_PER_CONNECTION) {
          prepared.add(name);
          if (arrays) c.name = name;
          return run(arrays ? c : { ...(config as object), name }, ...rest);
        }
      }
    }
    return run(config, ...rest);
  };
}

/**
 * A pool connection's statements, prepared by text, and its writes told to `changes` the moment they are
 * committed: the notification of a commit reaches the listening connection a little later, and the writer's
 * next request must not be answered from what it has just changed.
 */
function instrument(client: pg.PoolClient, changes: TableChanges) {
  const run = prepareStatementsOf(client);
  const session: WriteSession = { inTransaction: false, written: new Set() };
  (client as unknown as { query: QueryFn }).query = (config, ...rest) => {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    // reads run as they are: wrapping each one's callback made V8 keep every read's rows through two
    // young-generation collections (promoted, then freed only by a full one): at one connection the villager
    // page's collections took 5–15 ms instead of under 1, on every read route that queries the database
    if (typeof text !== 'string' || !TableChanges.notes(text)) return run(config, ...rest);
    // a statement that fails changes nothing; in a transaction, the ROLLBACK that follows is noted
    const last = rest.length - 1;
    if (typeof rest[last] === 'function') {
      // the callback form (pg.Pool#query uses it)
      const done = rest[last] as (err: unknown, res: unknown) => void;
      rest[last] = (err: unknown, res: unknown) => {
        if (!err) changes.noteStatement(session, text);
        done(err, res);
      };
      return run(config, ...rest);
    }
    const result = run(config, ...rest);
    if (result instanceof Promise)
      result.then(
        () => changes.noteStatement(session, text),
        () => {},
      );
    return result;
  };
}

/**
 * Runs one read's text with its bound values and answers its rows as arrays (in the select list's order),
 * each value as the driver hands it to Drizzle: what `PgColumn.mapFromDriverValue` decodes. The list pages
 * map rows straight into their answers with it (platform/crud/engine.ts), skipping Drizzle's generic
 * per-row mapping; the statement is the one Drizzle built, and named by its text on PostgreSQL as any other.
 */
export type ArrayRows = (text: string, params: unknown[]) => Promise<unknown[][]>;
const arrayRunners = new WeakMap<object, ArrayRows>();

/** The array-rows runner of a database handle made by openDatabase (undefined for a transaction's). */
export function arrayRowsOf(db: object): ArrayRows | undefined {
  return arrayRunners.get(db);
}

/**
 * The type ids whose text Drizzle's drivers leave as it came (its column classes parse it): timestamp,
 * timestamptz, date, interval and their arrays, numeric[]. The same list as drizzle-orm's node-postgres and
 * pglite sessions, so a value reaches the column's decoder exactly as it does through Drizzle.
 */
const RAW_TEXT_TYPES = [1114, 1184, 1082, 1186, 1231, 1115, 1185, 1187, 1182];
const asText = (value: unknown) => value;

type Parse = (value: string) => unknown;
/** node-postgres: the default parsers but for RAW_TEXT_TYPES, looked up once per type and format. */
const pgParsers = { text: new Map<number, Parse>(), binary: new Map<number, Parse>() };
function arrayParserOf(typeId: number, format?: string): Parse {
  const known = format === 'binary' ? pgParsers.binary : pgParsers.text;
  let parse = known.get(typeId);
  if (!parse) {
    parse = RAW_TEXT_TYPES.includes(typeId)
      ? asText
      : (pg.types.getTypeParser(typeId, (format ?? 'text') as 'text') as Parse);
    known.set(typeId, parse);
  }
  return parse;
}

/**
 * One read whose rows are answered as arrays, each value through arrayParserOf: node-postgres's own query,
 * fed its text and values directly (so it copies no config object) and keeping its rows here instead of in
 * its generic result (which builds an empty row object per statement, for rows by column name). The two
 * cost more per list request than the rest of the driver's work on it (pg 8.23: ≈ 30 µs of a 150 µs read).
 * Not `rows`: that property of a query is the number of rows per portal execution (a cursor's).
 */
class ArrayRowsQuery extends pg.Query {
  /** the prepared statement's name (node-postgres reads it when the query is sent; its types omit it) */
  declare name: string | undefined;
  readonly arrays: unknown[][] = [];
  /** a value no parser could read: the read fails with it */
  failure: unknown;
  private parsers: Parse[] = [];

  constructor(text: string, values: unknown[]) {
    super(text, values);
  }

  // node-postgres calls these two as the statement's row description and each row arrive (the methods a
  // submittable such as pg-cursor implements); the rest of the query's life is pg's own
  handleRowDescription(msg: { fields: { dataTypeID: number; format?: string }[] }) {
    this.parsers = msg.fields.map((f) => arrayParserOf(f.dataTypeID, f.format));
  }

  handleDataRow(msg: { fields: (string | null)[] }) {
    if (this.failure !== undefined) return;
    const { fields } = msg;
    const row = new Array<unknown>(fields.length);
    try {
      for (let i = 0; i < fields.length; i++) {
        const raw = fields[i];
        row[i] = raw === null ? null : this.parsers[i](raw);
      }
    } catch (err) {
      this.failure = err;
      return;
    }
    this.arrays.push(row);
  }
}

/** `pool.query` with a submittable and a callback (the pool checks a client out for it and back in after) */
type SubmitToPool = (query: ArrayRowsQuery, done: (err: Error | undefined) => void) => void;

/**
 * Runs one read on the pool, its rows answered as arrays (ArrayRowsQuery); a failure is wrapped as Drizzle
 * wraps one (asDrizzleError), in the query's own callback.
 */
function poolArrayRows(pool: pg.Pool): ArrayRows {
  const submit = pool.query.bind(pool) as unknown as SubmitToPool;
  return (text, params) =>
    new Promise<unknown[][]>((resolve, reject) => {
      const fail = (e: unknown) => reject(asDrizzleError(text, params, e));
      try {
        const query = new ArrayRowsQuery(text, params);
        submit(query, (err) => {
          if (err) fail(err);
          else if (query.failure !== undefined) fail(query.failure);
          else resolve(query.arrays);
        });
      } catch (e) {
        fail(e);
      }
    });
}
const PGLITE_PARSERS = Object.fromEntries(RAW_TEXT_TYPES.map((t) => [t, asText]));

/** A failure wrapped as Drizzle wraps one (the error handler reads the SQLSTATE through `cause`). */
const asDrizzleError = (text: string, params: unknown[], e: unknown) =>
  new DrizzleQueryError(text, params, e as Error);

/** Runs `query`, its failure wrapped as Drizzle wraps one. */
function asDrizzle<T>(text: string, params: unknown[], query: () => Promise<T>): Promise<T> {
  const wrap = (e: unknown) => {
    throw asDrizzleError(text, params, e);
  };
  try {
    return query().catch(wrap);
  } catch (e) {
    return Promise.reject(asDrizzleError(text, params, e));
  }
}

/**
 * The extensions the migrations create (pg_trgm: the trigram indexes of "contains" searches). PGlite loads
 * them from its own package; anything that opens a PGlite folder of this server must pass the same list.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** PostgreSQL when a URL is given, otherwise PGlite persisted in `<dataDir>/pgdata`. One dialect, one migration set. */
/** dataDir 'memory://' keeps PGlite in memory (tests). */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  poolSize?: number;
  /** false: never listen for changes, so nothing is answered from memory (READ_CACHE) */
  readCache?: boolean;
}): Promise<Database> {
  const listen = opts.readCache !== false;
  const changes = new TableChanges();
  let unlisten = async () => {};
  if (opts.url) {
    const url = opts.url;
    // a request waits at most 5 s for a connection (the database down or every connection busy), then is
    // answered 503 (isUnavailable); a connection the database ended is dropped and a new one made next time
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 20,
      connectionTimeoutMillis: 5000,
    });
    // an idle connection cut (the database restarted) is reported here; the pool forgets it by itself
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      instrument(client, changes);
      // a connection cut while checked out between two queries (a transaction waiting on the code) emits
      // 'error' with nobody listening (pg-pool listens only while it is idle): without this the process
      // ended at a database restart. Its next query fails instead (503), and the pool drops it when it is
      // released (it is no longer queryable).
      client.on('error', () => {});
    });
    // bigint and numeric stay strings (ids are 64-bit); timestamps are parsed by pg into Date
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    trackChanges(db, changes);
    arrayRunners.set(db, poolArrayRows(pool));
    return {
      db,
      kind: 'postgres',
      changes,
      async migrate() {
        await migratePg(db as never, { migrationsFolder: migrationsDir });
        if ((await pool.query(CHANGE_TRIGGER_MISSING)).rows[0].missing)
          await pool.query(ENSURE_CHANGE_TRIGGERS);
        await unlisten();
        if (listen) unlisten = await listenPostgres(url, changes);
      },
      async close() {
        await unlisten();
        await pool.end();
      },
    };
  }
  const memory = opts.dataDir === 'memory://';
  const dir = memory ? undefined : resolve(opts.dataDir, 'pgdata');
  if (dir) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  trackChanges(db, changes);
  arrayRunners.set(db, (text, params) =>
    asDrizzle(text, params, () =>
      client
        .query<unknown[]>(text, params, { rowMode: 'array', parsers: PGLITE_PARSERS })
        .then((r) => r.rows),
    ),
  );
  return {
    db,
    kind: 'pglite',
    changes,
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: migrationsDir });
      if ((await client.query<{ missing: boolean }>(CHANGE_TRIGGER_MISSING)).rows[0].missing)
        await client.exec(ENSURE_CHANGE_TRIGGERS);
      await unlisten();
      if (listen) unlisten = await listenPglite(client, changes);
    },
    async dumpDataDir() {
      await client.exec('CHECKPOINT');
      return client.dumpDataDir('gzip');
    },
    async close() {
      await unlisten();
      await client.close();
    },
  };
}
