import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { rowsOf } from '../../platform/sql';
import { decodeChunk } from './chunk-codec';

/**
 * The one reader of readings, whatever form they are kept in: the raw rows of `telemetry_reading` (recent
 * days, late readings) and the compacted days of `telemetry_chunk` (compact.ts), merged in time order.
 * Nothing else reads either table.
 */

export const DAY_MS = 86_400_000;
/** The UTC midnight at or before `ms`: a chunk's day. */
export const utcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

export interface Reading {
  at: number;
  metric: number;
  value: number;
}

/** A PostgreSQL array literal of numbers (or hex texts), bound as one parameter (`'{1,2,3}'::float8[]`). */
export const numbers = (xs: readonly (number | string)[]) => `{${xs.join(',')}}`;
const byTime = (a: Reading, b: Reading) => a.at - b.at || a.metric - b.metric;
/** chunks read per query while walking forward (a year of one metric is 365) */
const CHUNK_PAGE = 64;

/** A bytea as the drivers give it (node-postgres: a Buffer; PGlite: a Uint8Array). */
export const bytesOf = (x: unknown): Uint8Array =>
  x instanceof Uint8Array ? x : Uint8Array.from(Buffer.from(String(x).replace(/^\\x/, ''), 'hex'));

/**
 * A device's readings of these metrics over (after, to) — `after` exclusive, so a page continues where the
 * previous stopped — the first `limit` in order of time then metric.
 */
export async function readingsOf(
  db: Db,
  deviceId: string,
  metrics: readonly number[],
  after: number,
  to: number,
  limit: number,
): Promise<Reading[]> {
  // raw rows first, chunks second: a compaction committing between the two reads then shows a reading
  // twice (dropped below), never not at all
  const raw = rowsOf(
    await db.execute(sql`select (extract(epoch from at) * 1000)::float8 as t, metric, value from telemetry_reading
      where device_id = ${deviceId} and metric = any(${numbers(metrics)}::int2[])
        and at > to_timestamp(${after / 1000}) and at < to_timestamp(${to / 1000})
      order by at, metric limit ${limit}`),
  ).map((r) => ({ at: Number(r.t), metric: Number(r.metric), value: Number(r.value) }));
  // chunks day by day until they alone fill the page: every later chunk's reading comes after these
  const compacted: Reading[] = [];
  let fromDay = utcDay(after);
  while (compacted.length < limit) {
    const chunks = rowsOf(
      await db.execute(sql`select (extract(epoch from day) * 1000)::float8 as day, metric, data from telemetry_chunk
        where device_id = ${deviceId} and metric = any(${numbers(metrics)}::int2[])
          and day >= to_timestamp(${fromDay / 1000}) and day < to_timestamp(${to / 1000})
          and last_at > to_timestamp(${after / 1000})
        order by day limit ${CHUNK_PAGE}`),
    );
    // a page may end inside a day: only its whole days are taken, the rest is read again from that day (a
    // kind has at most a few dozen metrics, so a page always holds a whole day)
    const lastDay = chunks.length === CHUNK_PAGE ? Number(chunks[chunks.length - 1].day) : Infinity;
    const whole = chunks.filter((c) => Number(c.day) < lastDay);
    const taken = whole.length ? whole : chunks;
    for (const c of taken) {
      const metric = Number(c.metric);
      for (const p of decodeChunk(Number(c.day), bytesOf(c.data)))
        if (p.at > after && p.at < to) compacted.push({ at: p.at, metric, value: p.value });
    }
    if (chunks.length < CHUNK_PAGE) break;
    fromDay = Number(taken[taken.length - 1].day) + DAY_MS;
  }
  if (!compacted.length) return raw;
  const all = [...raw, ...compacted].sort(byTime);
  const out: Reading[] = [];
  for (const r of all) {
    const prev = out[out.length - 1];
    if (prev && prev.at === r.at && prev.metric === r.metric) continue;
    out.push(r);
    if (out.length === limit) break;
  }
  return out;
}
