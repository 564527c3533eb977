import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db';

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
