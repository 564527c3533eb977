import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';

/**
 * Monthly partitions of `telemetry_reading` (calendar months in UTC). A month's partition is created the
 * first time a batch holds a reading of it; each server remembers the months it has made sure of. Two
 * servers creating the same month at once is harmless: the loser's "already exists" is ignored.
 */

const ensured = new Set<string>();

/** `telemetry_reading_y2026m11` for a month start (UTC ms) */
const partitionName = (y: number, m: number) => `telemetry_reading_y${y}m${String(m + 1).padStart(2, '0')}`;

/** The first instant (UTC ms) of the month holding `ms`. */
export const monthStart = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/** Makes sure every month of these instants has its partition (`tx`: the writing transaction's handle). */
export async function ensurePartitions(db: Db, months: Iterable<number>) {
  for (const start of months) {
    const d = new Date(start);
    const name = partitionName(d.getUTCFullYear(), d.getUTCMonth());
    if (ensured.has(name)) continue;
    const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    // DDL cannot take parameters: the name and bounds are built here from numbers, never from input
    const ddl = `CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF telemetry_reading FOR VALUES FROM ('${d.toISOString()}') TO ('${end.toISOString()}')`;
    try {
      await db.execute(sql.raw(ddl));
    } catch (e) {
      // another server created it between our IF NOT EXISTS and our CREATE
      if (!/already exists|duplicate key/i.test(String((e as Error).message))) throw e;
    }
    ensured.add(name);
  }
}

/** Forget what was ensured (tests that drop and recreate the schema). */
export function forgetPartitions() {
  ensured.clear();
}
