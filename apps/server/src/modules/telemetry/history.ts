import type { History } from '@smart/contracts';
import { LTTB } from 'downsample';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { rowsOf, zoneOffsetMs } from './ingest';
import { readingsOf } from './readings';
import { GRAIN, GRAIN_SECONDS } from './tables';

/**
 * A metric's history for a chart: at most `points` points over [from, to).
 *
 * - A short span reads the readings (raw or compacted: readings.ts); when there are more of them than points, LTTB keeps the ones that
 *   draw the same shape.
 * - A longer span reads the coarsest roll-up finer than one point's width and merges its buckets into
 *   buckets of that width (`date_bin`): a year of 5-minute readings is ≈ 8 760 hourly rows → ≤ 1 000 points,
 *   each the average with its minimum and maximum (so a spike is not averaged away on the chart).
 */
export async function historyOf(
  db: Db,
  deviceId: string,
  metric: { id: number; code: string },
  from: number,
  to: number,
  points: number,
): Promise<History> {
  const spanS = Math.max(1, (to - from) / 1000);
  const base = { deviceId, metric: metric.code };
  if (spanS <= points * GRAIN_SECONDS[GRAIN.fiveMinutes]) {
    // at most 20 raw readings per point: beyond that the 5-minute roll-up draws the same chart, cheaper
    const cap = points * 20;
    const raw = await readingsOf(db, deviceId, [metric.id], from - 1, to, cap + 1);
    if (raw.length <= cap) {
      const pts = raw.map((r) => [r.at, r.value] as [number, number]);
      const kept = pts.length > points ? (LTTB(pts, points) as [number, number][]) : pts;
      return { ...base, step: 0, points: kept.map(([t, v]) => [t, v, v, v]) };
    }
  }
  // the coarsest roll-up whose bucket fits within one point
  const want = spanS / points;
  const grain =
    want >= GRAIN_SECONDS[GRAIN.day]
      ? GRAIN.day
      : want >= GRAIN_SECONDS[GRAIN.hour]
        ? GRAIN.hour
        : GRAIN.fiveMinutes;
  const g = GRAIN_SECONDS[grain];
  const step = Math.ceil(want / g) * g;
  // buckets counted from the first one (a day from local midnight)
  const origin = grain === GRAIN.day ? localMidnight(from) : from - (from % (g * 1000));
  const rows = rowsOf(
    await db.execute(sql`select (extract(epoch from date_bin(make_interval(secs => ${step}), bucket, to_timestamp(${origin / 1000}))) * 1000)::float8 as t,
        sum(total) / sum(n) as v, min(low) as lo, max(high) as hi
      from telemetry_rollup
      where device_id = ${deviceId} and metric = ${metric.id} and grain = ${grain}
        and bucket >= to_timestamp(${origin / 1000}) and bucket < to_timestamp(${to / 1000})
      group by 1 order by 1`),
  );
  return {
    ...base,
    step,
    points: rows.map((r) => [Number(r.t), Number(r.v), Number(r.lo), Number(r.hi)]),
  };
}

/** The local midnight (the server's time zone) at or before `ms`. */
function localMidnight(ms: number) {
  const off = zoneOffsetMs(ms);
  return Math.floor((ms + off) / 86_400_000) * 86_400_000 - off;
}
