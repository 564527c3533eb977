import { defaultMax, type FieldDef, fieldKind, type ResourceDef, uniqueSets } from '@smart/contracts';
import { type AnyColumn, getTableColumns, type SQL, sql } from 'drizzle-orm';
import {
  date,
  type ExtraConfigColumn,
  index,
  integer,
  numeric,
  type PgColumn,
  type PgColumnBuilderBase,
  type PgTable,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { baseColumns, id, idRef, tenantColumn } from '../db/columns';
import { charactersOf } from '../sql';

/**
 * The model part of the engine: a resource's table, columns and indexes derived from its definition, so an
 * entity is declared once (packages/contracts) and drizzle-kit writes its migration from what is derived here.
 *
 * - the column follows the field kind (`columnOf`, from the kind registry `FIELD_KINDS`); `FieldDef.column` overrides it for the rare exception;
 *   a required field is NOT NULL, a switch or a field with a default carries it;
 * - the indexes follow from what the engine asks of the table (`indexesOf`): the list's default order, an
 *   equal filter (with that order behind it), a contains filter (trigrams), a reference, a unique field and
 *   the picker's label — each over live rows of the tenant;
 * - the definition's options: a key field of its own (`idField`) is the primary key instead of `id`, a
 *   table whose removals delete (`softDelete: false`) has no `is_deleted` and its indexes cover every row,
 *   and `baseColumns: false` leaves out who wrote a row, when, and its status.
 */

/** The snake_case column of a field name: villagerId → villager_id, idCard → id_card. */
export const columnName = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A long text goes to `text`; anything a form limits to a few thousand characters to a varchar of it. */
const LONG_TEXT = 4000;

/** The column a field kind keeps its value in. */
export function columnOf(f: FieldDef): PgColumnBuilderBase {
  const name = columnName(f.name);
  const kind = f.column?.kind ?? fieldKind(f).column;
  const max = f.max ?? defaultMax(f);
  let c: any;
  switch (kind) {
    case 'varchar':
      c = max > LONG_TEXT ? text(name) : varchar(name, { length: max });
      break;
    case 'text':
      c = text(name);
      break;
    case 'integer':
      c = integer(name);
      break;
    case 'numeric':
      c = numeric(name, { precision: 14, scale: 2 });
      break;
    case 'date':
      c = date(name, { mode: 'string' });
      break;
    case 'timestamp':
      c = timestamp(name, { withTimezone: true });
      break;
    case 'bigint':
      c = idRef(name);
      break;
  }
  if (f.required && !f.readOnly) c = c.notNull();
  if (f.type === 'switch' || f.default !== undefined) {
    const dflt = f.default ?? 0;
    c = c.notNull().default(kind === 'integer' ? Number(dflt) : String(dflt));
  }
  return c as PgColumnBuilderBase;
}

/** the pending list of a trigram index, in kB (PostgreSQL's least; its default is 4 096): see indexesOf */
const GIN_PENDING_LIST_KB = 64;

/** each definition's table, made once: the engine, the module code that queries it and drizzle-kit share it */
const derived = new WeakMap<ResourceDef, ReturnType<typeof deriveTable>>();

/** The table of a resource, as drizzle-kit and the engine see it (the same object for the same definition). */
export function tableOf(def: ResourceDef) {
  let table = derived.get(def);
  if (!table) {
    table = deriveTable(def);
    derived.set(def, table);
  }
  return table;
}

function deriveTable(def: ResourceDef) {
  if (!def.table) throw new Error(`${def.key}: a derived table needs its name (ResourceDef.table)`);
  const name = def.table;
  const columns: Record<string, PgColumnBuilderBase> = def.idField ? {} : { id: id() };
  if (def.tenant) columns.tenantId = tenantColumn();
  for (const f of def.fields)
    if (!f.beside)
      columns[f.name] = f.name === def.idField ? (columnOf(f) as any).notNull().primaryKey() : columnOf(f);
  if (def.idField && !columns[def.idField])
    throw new Error(`${def.key}: no field ${def.idField} keys its rows`);
  const { isDeleted, ...base } = baseColumns();
  if (def.baseColumns !== false) Object.assign(columns, base);
  if (def.softDelete !== false) columns.isDeleted = isDeleted;
  return pgTable(name, columns, (t) => indexesOf(def, name, t as Record<string, ExtraConfigColumn>));
}

/** Every index the engine's reads of this resource need, named `<table>_<purpose>`. */
export function indexesOf(def: ResourceDef, table: string, t: Record<string, ExtraConfigColumn>) {
  const tenant: ExtraConfigColumn[] = def.tenant ? [t.tenantId] : [];
  const key = t[def.idField ?? 'id'];
  // an index over the rows the engine reads: the live ones, or all where removals delete
  const soft = def.softDelete !== false;
  const live = <I extends { where(condition: SQL): I }>(ix: I): I =>
    soft ? ix.where(sql`is_deleted = 0`) : ix;
  // drizzle types `on` as a non-empty tuple; every list here starts with a column
  type Cols = Parameters<ReturnType<typeof index>['on']>;
  const cols = (...c: unknown[]) => c as Cols;
  const byName = new Map(def.fields.map((f) => [f.name, f]));
  // the list's default order (engine.ts `defaultOrder`): a field then id descending, or the newest first;
  // built afresh for each index (a column's desc() marks the column itself)
  const sort = def.defaultSort;
  const order = () =>
    sort
      ? [sort.desc ? t[sort.field].desc().nullsFirst() : t[sort.field].asc(), key.desc().nullsFirst()]
      : t.createTime
        ? [t.createTime.desc().nullsFirst(), key.desc().nullsFirst()]
        : [key.desc().nullsFirst()];
  const out = [live(index(`${table}_page_idx`).on(...cols(...tenant, ...order())))];
  const seen = new Set<string>();
  const once = (key: string) => !seen.has(key) && seen.add(key);
  for (const set of uniqueSets(def)) {
    const names = set.map(columnName);
    out.push(
      uniqueIndex(`${table}_${names.join('_')}_uq`)
        .on(...cols(...tenant, ...set.map((key) => t[key])))
        .where(
          sql.raw(
            [...(soft ? ['is_deleted = 0'] : []), ...names.map((c) => `${c} is not null`)].join(' and '),
          ) as SQL,
        ),
    );
  }
  for (const f of def.fields) {
    if (f.beside) continue; // no column of this table
    const col = columnName(f.name);
    if (f.type === 'ref' && once(`ref:${f.name}`)) out.push(index(`${table}_${col}_idx`).on(t[f.name]));
    else if (
      f.search === 'equal' &&
      f.type !== 'refs' &&
      f.name !== sort?.field && // the page index serves it
      !def.unique?.includes(f.name) && // its unique index serves it
      once(`eq:${f.name}`)
    )
      out.push(live(index(`${table}_${col}_idx`).on(...cols(...tenant, t[f.name], ...order()))));
    if (f.search === 'like' && once(`like:${f.name}`))
      // a contains filter (ILIKE '%…%') is served by trigrams, not by a scan. New rows wait in the index's
      // pending list, which every search reads whole until it is merged: PostgreSQL's 4 MB made a search
      // 4.5 times slower after an import of 10 000 villagers (0.13 → 0.57 ms), until a vacuum that
      // autovacuum starts only after 200 000 inserts. At 64 kB the merge comes every few hundred rows
      // (that import 0.16 s longer) and searches stay as fast.
      out.push(
        live(
          index(`${table}_${col}_trgm_idx`)
            .using('gin', t[f.name].op('gin_trgm_ops'))
            .with({ gin_pending_list_limit: GIN_PENDING_LIST_KB }),
        ),
        // a term of one or two characters has no trigram (a surname typed into a name box): without this
        // index its total read the whole table, 0.13–0.28 s over 1 000 000 villagers (bench/village.mjs).
        // Not partial: PostgreSQL ignores a partial index's statistics of its expression, and without them
        // guessed a surname's share of rows six times too low and sorted 30 000 rows for a page of 10.
        index(`${table}_${col}_chars_idx`)
          .using('gin', charactersOf(t[f.name] as unknown as AnyColumn))
          .with({ gin_pending_list_limit: GIN_PENDING_LIST_KB }),
      );
  }
  // what the binding's own reads need (ResourceDef.indexes)
  for (const ix of def.indexes ?? []) {
    const on = ix.fields.map((f) => (f.startsWith('-') ? t[f.slice(1)].desc() : t[f]));
    const made = index(`${table}_${ix.name}_idx`).on(...cols(...on));
    const where = [...(soft ? ['is_deleted = 0'] : []), ...(ix.where ? [`(${ix.where})`] : [])];
    out.push(where.length ? made.where(sql.raw(where.join(' and ')) as SQL) : made);
  }
  // the reference picker lists rows by their label (refs.ts: ORDER BY label, id)
  const label = def.select?.label;
  if (label && byName.has(label))
    out.push(live(index(`${table}_${columnName(label)}_label_idx`).on(...cols(...tenant, t[label], key))));
  return out;
}

/** A table's columns by property name. */
export type TableColumns = Record<string, PgColumn>;

/**
 * The table's columns by property name, as the engine reads them: a keyed resource's `id` is its key
 * field's column (`idField`), and the table has what the definition says it keeps — `is_deleted` unless
 * `softDelete: false`, the base columns unless `baseColumns: false`.
 */
export function columnsOf(def: ResourceDef, table: PgTable): TableColumns {
  const cols = getTableColumns(table) as unknown as TableColumns;
  const missing = (names: string[]) => names.filter((n) => !cols[n]);
  const lacks = [
    ...missing(def.softDelete === false ? [] : ['isDeleted']),
    ...missing(def.baseColumns === false ? [] : BASE_COLUMNS),
    ...missing(def.idField ? [def.idField] : ['id']),
  ];
  if (lacks.length) throw new Error(`resource ${def.key}: table has no column for ${lacks.join(', ')}`);
  if (!def.idField) return cols;
  if (def.tree) throw new Error(`resource ${def.key}: a tree's rows are keyed by id`);
  return { ...cols, id: cols[def.idField] };
}

/** the base columns a definition's table keeps unless it says `baseColumns: false` (db/columns.ts) */
const BASE_COLUMNS = ['createUser', 'createDept', 'createTime', 'updateUser', 'updateTime', 'status'];
