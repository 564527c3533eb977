import type { ResourceDef } from '@smart/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../auth/context';
import type { Db } from '../db';
import { FieldInputError } from '../http/errors';
import { notDeleted } from '../sql';
import type { MountedResource, Row } from './binding';
import { mountedResource } from './refs';
import { storedValue } from './stored';

/**
 * The engine's one write path: submit, Excel import, a parent's children, patches and every bulk action
 * create, change and remove rows through these, inside the caller's transaction, so base columns, the
 * tenant, value conversion, the binding's after-hooks (afterCreate, afterChange, afterDelete) and the change
 * told once the transaction commits (`onCommit`: the resource's totals forgotten, its onChanged) are the
 * same whoever writes. Checks (rules, scope, references, uniqueness) come before, in the caller.
 */

/** what runs once a write's transaction has committed, by transaction (see `transaction`) */
const afterCommit = new WeakMap<object, Set<() => void>>();

/**
 * A transaction of the write path: `db.transaction`, then — once it committed, never after a rollback — what
 * the writes inside asked to be told (`onCommit`: a resource's cached totals forgotten, its onChanged run).
 */
export async function transaction<T>(db: Db, run: (tx: Db) => Promise<T>): Promise<T> {
  const told = new Set<() => void>();
  const result = await db.transaction(async (tx) => {
    afterCommit.set(tx, told);
    return run(tx as unknown as Db);
  });
  for (const fn of told) fn();
  return result;
}

/** `fn` once `tx` (a `transaction`'s) has committed; at once when `tx` is none of them (the database itself) */
export function onCommit(tx: Db, fn: () => void): void {
  const told = afterCommit.get(tx);
  if (told) told.add(fn);
  else fn();
}

/** rows per INSERT statement: few round trips, well under PostgreSQL's 65 535 parameters */
export const INSERT_CHUNK = 500;

/** The condition of a resource's live rows: not marked removed, or none where removals delete (`softDelete: false`). */
export function liveRows(m: Pick<MountedResource, 'def' | 'cols'>): SQL[] {
  return m.def.softDelete === false ? [] : [notDeleted(m.cols.isDeleted)];
}

/** Who wrote a row and when, in the base columns a definition keeps (none with `baseColumns: false`). */
function stamps(m: Pick<MountedResource, 'def'>, ctx: RequestContext, now: Date, mode: 'create' | 'update') {
  if (m.def.baseColumns === false) return {};
  const updated = { updateUser: ctx.userId, updateTime: now };
  return mode === 'update'
    ? updated
    : { createUser: ctx.userId, createDept: ctx.deptId || null, createTime: now, ...updated };
}

/**
 * A checked record → column values: each kind cleaned as the server stores it (stored.ts), wall-clock
 * date-times as timestamps in the server's time zone, dictionary keys of number columns as numbers.
 */
export function toColumnValues(
  def: ResourceDef,
  record: Record<string, unknown>,
  cols: Record<string, PgColumn>,
) {
  const tz = process.env.TZ || 'Asia/Shanghai';
  for (const f of def.fields) {
    // a field kept beside the row (hooks.beside) is the binding's to write
    if (!(f.name in record) || !cols[f.name]) continue;
    const v = storedValue(f, record[f.name]);
    record[f.name] = v;
    if (cols[f.name].dataType === 'boolean' && v !== undefined && v !== null) {
      record[f.name] = Number(v) === 1;
      continue;
    }
    // a dictionary key kept in a number column must be a number
    if (cols[f.name].dataType === 'number' && typeof v === 'string') {
      if (!/^-?\d+$/.test(v))
        throw new FieldInputError(f.name, {
          zh: `${f.label.zh}的值无效`,
          en: `${f.label.en} has an invalid value`,
        });
      record[f.name] = Number(v);
    }
    // a wall-clock text into a time stamp column (a datetime, or a date kept as one: a user's birthday)
    if (cols[f.name].columnType === 'PgTimestamp' && typeof v === 'string' && v)
      record[f.name] = sql`(${v}::timestamp at time zone ${tz})`;
  }
}

/**
 * Creates rows (records as checked), filling the tenant and base columns. Answers the rows as selected, with
 * what each afterCreate added, when asked or when the binding has after-hooks (otherwise nothing is read
 * back: an import of 50 000 rows stays a few statements).
 */
export async function insertRows(
  m: MountedResource,
  ctx: RequestContext,
  tx: Db,
  records: Record<string, unknown>[],
  opts: { answer?: boolean; onChunk?: (written: number) => Promise<void> } = {},
): Promise<{ row: Row; extra?: Record<string, unknown> }[]> {
  const { def, table, cols, hooks } = m;
  const now = new Date();
  const readBack = Boolean(opts.answer || hooks.afterCreate || hooks.afterChange || hooks.afterCommit);
  const out: { row: Row; extra?: Record<string, unknown> }[] = [];
  let written = 0;
  if (records.length) await hooks.beforeCreate?.(ctx, records, tx);
  for (let i = 0; i < records.length; i += INSERT_CHUNK) {
    const sent = records.slice(i, i + INSERT_CHUNK);
    const chunk = sent.map((r) => {
      toColumnValues(def, r, cols);
      return {
        ...columnsOf(r, cols),
        ...(def.tenant ? { tenantId: ctx.tenantId } : {}),
        ...stamps(m, ctx, now, 'create'),
      };
    });
    if (readBack) {
      const rows = (await tx
        .insert(table)
        .values(chunk as never)
        .returning(m.selection)) as Row[];
      for (const row of rows) {
        const extra = (await hooks.afterCreate?.(ctx, row, tx)) ?? undefined;
        out.push({ row, extra });
      }
      // RETURNING answers a multi-row VALUES in its order: row j is record j
      await hooks.afterChange?.(
        ctx,
        rows.map((row, j) => ({ mode: 'create', row, record: sent[j] })),
        tx,
      );
    } else await tx.insert(table).values(chunk as never);
    onCommit(tx, m.changed);
    written += chunk.length;
    await opts.onChunk?.(written);
  }
  return out;
}

/**
 * Changes one row the caller may change (`scope`: the resource's constraint for the caller); only the
 * record's fields change. Answers the row as written, or undefined when no such row is in scope.
 */
export async function updateRow(
  m: MountedResource,
  ctx: RequestContext,
  tx: Db,
  id: string,
  record: Record<string, unknown>,
  scope: SQL,
  original?: Row,
): Promise<Row | undefined> {
  toColumnValues(m.def, record, m.cols);
  const values = { ...columnsOf(record, m.cols), ...stamps(m, ctx, new Date(), 'update') };
  const where = and(eq(m.cols.id, id), scope);
  // nothing to write (a keyed row sent with its key alone, no base columns): the row as it is
  const [row] = (
    Object.keys(values).length
      ? await tx
          .update(m.table)
          .set(values as never)
          .where(where)
          .returning(m.selection)
      : await tx.select(m.selection).from(m.table).where(where).limit(1)
  ) as Row[];
  if (!row) return undefined;
  await m.hooks.afterChange?.(ctx, [{ mode: 'update', row, record, original }], tx);
  onCommit(tx, m.changed);
  return row;
}

/**
 * Removes rows the caller may remove (`scope`: the resource's constraint for the caller), all or none:
 * runs the binding's beforeRemove, marks the rows removed (with `set`: more columns written on them, a
 * removal's reason) — or deletes them, where the definition keeps no removed rows (`softDelete: false`) —,
 * then afterDelete, inside the caller's transaction. `below`: rows removed along (a tree's subtree, within
 * `belowScope`). Answers false, having written nothing, when an id is not in scope.
 */
export async function removeRows(
  m: MountedResource,
  ctx: RequestContext,
  tx: Db,
  ids: string[],
  scope: SQL,
  opts: { set?: Record<string, unknown>; below?: string[]; belowScope?: SQL } = {},
): Promise<boolean> {
  const below = opts.below ?? [];
  const all = [...ids, ...below];
  await m.hooks.beforeRemove?.(ctx, all, tx);
  const gone = {
    ...(opts.set ? columnsOf(opts.set, m.cols) : {}),
    isDeleted: 1,
    ...stamps(m, ctx, new Date(), 'update'),
  } as never;
  const remove = (where: SQL | undefined) =>
    m.def.softDelete === false
      ? tx.delete(m.table).where(where).returning({ id: m.cols.id })
      : tx.update(m.table).set(gone).where(where).returning({ id: m.cols.id });
  const removed = await remove(and(inArray(m.cols.id, ids), scope));
  if (removed.length !== ids.length) return false;
  if (below.length) await remove(and(inArray(m.cols.id, below), opts.belowScope ?? scope));
  await m.hooks.afterDelete?.(ctx, all, tx);
  await removeChildren(m, ctx, tx, all);
  onCommit(tx, m.changed);
  return true;
}

/**
 * The children of removed rows (`ResourceDef.children`) go with them, through the child's own removal (its
 * hooks, its children in turn), whatever the caller's data scope: they are parts of the removed rows.
 */
async function removeChildren(m: MountedResource, ctx: RequestContext, tx: Db, parentIds: string[]) {
  for (const decl of m.def.children ?? []) {
    const child = mountedResource(decl.resource.key);
    const scope = await child.tenantConstraint(ctx);
    const ids = (
      await tx
        .select({ id: child.cols.id })
        .from(child.table)
        .where(and(inArray(child.cols[decl.via], parentIds), scope))
    ).map((r) => String(r.id));
    if (!ids.length) continue;
    if (!(await removeRows(child, ctx, tx, ids, scope)))
      throw new Error(`${decl.name} changed while removed`);
  }
}

/** the record's values that are the table's columns (a `beside` field is not one) */
function columnsOf(record: Record<string, unknown>, cols: Record<string, PgColumn>) {
  const out: Record<string, unknown> = {};
  for (const k in record) if (cols[k]) out[k] = record[k];
  return out;
}

/**
 * Moves a counter of one row by `delta` in a single conditional statement, inside the caller's transaction:
 * `set <field> = <field> + delta where id and <within> and <bounds>` — a stock taken by an exchange, the
 * seats a booking holds. Concurrent writers queue on the row's lock and each sees the other's result, so
 * the bounds (`min`, default 0; `max`: another column of the row, a slot's capacity) can never be crossed
 * (no read-then-write race). Stamps the update and tells the change on commit, as every write does.
 * Answers the counter's new value, or undefined when the row is not within `within` or the move would
 * cross a bound (the caller says which, reading the row).
 */
export async function adjustCount(
  m: MountedResource,
  ctx: RequestContext,
  tx: Db,
  id: string,
  field: string,
  delta: number,
  within: SQL,
  bounds: { min?: number; max?: string } = {},
): Promise<number | undefined> {
  const col = m.cols[field];
  if (!col || !Number.isInteger(delta)) throw new Error(`${m.def.key}: no counter ${field}`);
  const next = sql`${col} + ${delta}`;
  const conds: SQL[] = [eq(m.cols.id, id), within, sql`${next} >= ${bounds.min ?? 0}`];
  if (bounds.max) conds.push(sql`${next} <= ${m.cols[bounds.max]}`);
  const [row] = (await tx
    .update(m.table)
    .set({ [field]: next, ...stamps(m, ctx, new Date(), 'update') } as never)
    .where(and(...conds))
    .returning({ value: col })) as { value: number }[];
  if (!row) return undefined;
  onCommit(tx, m.changed);
  return Number(row.value);
}
