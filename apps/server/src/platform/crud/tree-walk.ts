import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db';
import { FieldInputError } from '../http/errors';

/**
 * Walking a tree kept by `parent_id` alone (no `ancestors` path): the nodes below some nodes, and whether a
 * node lies below another. Both go level by level and stop after `MAX_TREE_DEPTH` levels (deeper nesting
 * cannot be built through the engine's checks in practice), so a cycle in bad data cannot loop.
 */

export const MAX_TREE_DEPTH = 32;

interface TreeTable {
  table: PgTable;
  id: PgColumn;
  parentId: PgColumn;
  /** the path of ids from the root (`0,1,5`), where the table keeps one */
  ancestors?: PgColumn;
}

/** The ids of every node below the given ones (not the given ones), within `scope`, nearest levels first. */
export async function descendantIds(q: Db, t: TreeTable, rootIds: string[], scope: SQL): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set(rootIds);
  let frontier = rootIds;
  for (let depth = 0; frontier.length && depth < MAX_TREE_DEPTH; depth++) {
    const rows = (await q
      .select({ id: t.id })
      .from(t.table)
      .where(and(inArray(t.parentId, frontier), scope))) as { id: string }[];
    frontier = [];
    for (const r of rows) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      found.push(r.id);
      frontier.push(r.id);
    }
  }
  return found;
}

/** Whether `nodeId` is `ancestorId` or lies below it, walking up from the node through `scope`'s rows. */
export async function isAtOrBelow(
  q: Db,
  t: TreeTable,
  nodeId: string,
  ancestorId: string,
  scope: SQL,
): Promise<boolean> {
  let at = nodeId;
  for (let depth = 0; depth <= MAX_TREE_DEPTH; depth++) {
    if (at === ancestorId) return true;
    if (at === '0') return false;
    const [row] = (await q
      .select({ parentId: t.parentId })
      .from(t.table)
      .where(and(eq(t.id, at), scope))
      .limit(1)) as { parentId: string | null }[];
    if (!row?.parentId) return false;
    at = row.parentId;
  }
  return false;
}

/**
 * A tree node's parent must be a visible node (`scope`) of the same resource and not the node itself or one
 * of its descendants; where the table keeps `ancestors`, they say so and follow the parent (and the
 * descendants follow it); where it does not, the parent's line is walked up through the tenant's nodes
 * (`tenantScope`). Sets `record.parentId` (0 for a root) and `record.ancestors`.
 */
export async function placeInTree(
  db: Db,
  t: TreeTable,
  record: Record<string, unknown>,
  id: string | undefined,
  scope: SQL,
  tenantScope: () => Promise<SQL>,
) {
  const parentId = String(record.parentId ?? '0') || '0';
  record.parentId = parentId;
  let parentAncestors = '0';
  if (parentId !== '0') {
    const [parent] = await db
      .select({ id: t.id, ...(t.ancestors ? { ancestors: t.ancestors } : {}) })
      .from(t.table)
      .where(and(eq(t.id, parentId), scope))
      .limit(1);
    const p = parent as { id: string; ancestors?: string } | undefined;
    const cyclic =
      id !== undefined &&
      p !== undefined &&
      (t.ancestors
        ? p.id === id || `,${p.ancestors ?? ''},`.includes(`,${id},`)
        : await isAtOrBelow(db, t, p.id, id, await tenantScope()));
    if (!p || cyclic)
      throw new FieldInputError('parentId', { zh: '上级节点无效', en: 'The parent is invalid' });
    parentAncestors = `${p.ancestors ?? '0'},${p.id}`;
  }
  if (!t.ancestors) return;
  record.ancestors = parentAncestors;
  if (id) {
    // descendants keep their path below this node
    const [self] = await db.select({ ancestors: t.ancestors }).from(t.table).where(eq(t.id, id)).limit(1);
    const old = (self as { ancestors?: string } | undefined)?.ancestors;
    if (old !== undefined && old !== parentAncestors) {
      await db
        .update(t.table)
        .set({ ancestors: sql`${parentAncestors} || substr(${t.ancestors}, ${old.length + 1})` } as never)
        .where(and(sql`(',' || ${t.ancestors} || ',') like ${`%,${id},%`}`, scope));
    }
  }
}
