import { DATASOURCE_KIND, parseDatasourceOptions } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Row } from '../../platform/crud/binding';
import type { Db } from '../../platform/db';

/**
 * Reading a data source's catalog — its tables and their columns with comments — never its rows:
 * - PostgreSQL: `pg_class`/`pg_attribute` of the current schema, comments by the table's oid
 *   (`obj_description`, `col_description`), so a comment survives TRUNCATE and is read whatever the case;
 * - MySQL/MariaDB: `information_schema.TABLES` and `COLUMNS` of the connection's database;
 * - the product's own database (kind 0): the same PostgreSQL queries over the server's own handle (PGlite
 *   or PostgreSQL), read-only because only these SELECTs are ever run on it.
 * A connection is opened per call (5 s to connect, 10 s a statement) with the allow-listed options only,
 * and closed after.
 */

export interface TableSummary {
  name: string;
  comment: string | null;
}
export interface ColumnInfo {
  name: string;
  type: string;
  comment: string | null;
  notNull: boolean;
  primaryKey: boolean;
}
export interface TableInfo extends TableSummary {
  columns: ColumnInfo[];
}

/** A failure to reach or read a source, with the driver's own code and message (never its password). */
export class SourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const PG_TABLES = `select c.relname as name, obj_description(c.oid, 'pg_class') as comment
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v')
  order by c.relname`;
const PG_TABLE = `select c.relname as name, obj_description(c.oid, 'pg_class') as comment
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v') and c.relname = $1`;
const PG_COLUMNS = `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
    col_description(c.oid, a.attnum) as comment, a.attnotnull as "notNull",
    coalesce((select true from pg_index i where i.indrelid = c.oid and i.indisprimary
      and a.attnum = any(i.indkey::int2[])), false) as "primaryKey"
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where n.nspname = current_schema() and c.relname = $1
  order by a.attnum`;
const MY_TABLES = `select TABLE_NAME as name, nullif(TABLE_COMMENT, '') as comment
  from information_schema.TABLES where TABLE_SCHEMA = database() order by TABLE_NAME`;
const MY_TABLE = `select TABLE_NAME as name, nullif(TABLE_COMMENT, '') as comment
  from information_schema.TABLES where TABLE_SCHEMA = database() and TABLE_NAME = ?`;
const MY_COLUMNS = `select COLUMN_NAME as name, COLUMN_TYPE as type, nullif(COLUMN_COMMENT, '') as comment,
    IS_NULLABLE = 'NO' as notNull, COLUMN_KEY = 'PRI' as primaryKey
  from information_schema.COLUMNS where TABLE_SCHEMA = database() and TABLE_NAME = ?
  order by ORDINAL_POSITION`;

const driverError = (e: unknown) => {
  const err = e as { code?: string; errno?: number; message?: string };
  return new SourceError(String(err.code ?? err.errno ?? 'Error'), String(err.message ?? e).slice(0, 300));
};

/** Runs `use` with a query function on the source, closing any connection it opened. */
async function withSource<T>(source: Row, own: Db, use: (q: Query, kind: string) => Promise<T>): Promise<T> {
  const kind = String(source.kind);
  if (kind === DATASOURCE_KIND.own)
    return use(async (text, params) => {
      // the server's own handle: only the catalog statements above, with their parameter bound
      const chunks = text.split('$1');
      const statement =
        chunks.length === 2 ? sql`${sql.raw(chunks[0])}${params[0]}${sql.raw(chunks[1])}` : sql.raw(text);
      const r = await own.execute(statement);
      return ((r as { rows?: unknown[] }).rows ?? (r as unknown[])) as Record<string, unknown>[];
    }, kind);
  const parsed = parseDatasourceOptions(kind, source.options as string | null);
  if (!parsed.ok) throw new SourceError('OptionRefused', `option ${parsed.bad} is not allowed`);
  const common = {
    host: String(source.host),
    port: Number(source.port),
    user: String(source.username),
    password: String(source.password ?? ''),
    database: String(source.databaseName),
  };
  if (kind === DATASOURCE_KIND.postgres) {
    const o = parsed.options;
    const client = new pg.Client({
      ...common,
      connectionTimeoutMillis: Number(o.connect_timeout ?? 5) * 1000,
      statement_timeout: 10_000,
      application_name: o.application_name ?? 'smart-admin-model',
      ssl:
        !o.sslmode || o.sslmode === 'disable'
          ? false
          : { rejectUnauthorized: o.sslmode.startsWith('verify') },
    });
    try {
      await client.connect();
      return await use(async (text, params) => (await client.query(text, params)).rows, kind);
    } catch (e) {
      throw e instanceof SourceError ? e : driverError(e);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (kind === DATASOURCE_KIND.mysql) {
    const o = parsed.options;
    let conn: mysql.Connection | undefined;
    try {
      conn = await mysql.createConnection({
        ...common,
        connectTimeout: Number(o.connectTimeout ?? 5000),
        charset: o.charset ?? 'utf8mb4',
        ssl: o.ssl === 'true' ? {} : undefined,
        // never LOCAL INFILE, never several statements in one
        multipleStatements: false,
        infileStreamFactory: undefined,
      });
      const c = conn;
      return await use(async (text, params) => {
        const [rows] = await c.query({ sql: text.replace('$1', '?'), timeout: 10_000 }, params);
        return rows as Record<string, unknown>[];
      }, kind);
    } catch (e) {
      throw e instanceof SourceError ? e : driverError(e);
    } finally {
      await conn?.end().catch(() => undefined);
    }
  }
  throw new SourceError('UnknownKind', `no data source kind ${kind}`);
}

const isPg = (kind: string) => kind !== DATASOURCE_KIND.mysql;
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

export async function listTables(source: Row, own: Db): Promise<TableSummary[]> {
  return withSource(source, own, async (q, kind) =>
    (await q(isPg(kind) ? PG_TABLES : MY_TABLES, [])).map((r) => ({
      name: String(r.name),
      comment: str(r.comment),
    })),
  );
}

export async function tableInfo(source: Row, own: Db, table: string): Promise<TableInfo | null> {
  return withSource(source, own, async (q, kind) => {
    const [t] = await q(isPg(kind) ? PG_TABLE : MY_TABLE, [table]);
    if (!t) return null;
    const columns = (await q(isPg(kind) ? PG_COLUMNS : MY_COLUMNS, [table])).map((r) => ({
      name: String(r.name),
      type: String(r.type),
      comment: str(r.comment),
      notNull: Boolean(Number(r.notNull) || r.notNull === true),
      primaryKey: Boolean(Number(r.primaryKey) || r.primaryKey === true),
    }));
    return { name: String(t.name), comment: str(t.comment), columns };
  });
}

/** Connects and asks the server's version: what a connection test answers. */
export async function probe(source: Row, own: Db): Promise<string> {
  return withSource(source, own, async (q) => {
    const [r] = await q('select version() as v', []);
    return String(r?.v ?? '');
  });
}
