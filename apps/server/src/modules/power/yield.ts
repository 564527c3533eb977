import {
  type BucketEnergy,
  type CounterBucket,
  counterEnergy,
  metricByCode,
  sumEnergy,
  type YieldGrain,
} from '@smart/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { rowsOf, zoneOffsetMs } from '../telemetry/ingest';
import { GRAIN } from '../telemetry/tables';

/**
 * Yield from the telemetry core's roll-ups: an inverter's energy per day is the difference of consecutive
 * daily `last`s of its lifetime counter (`energyTotal`), with resets, replaced counters and gaps handled by
 * `counterEnergy` (contracts); months and years are sums of days, a station's the sum of its inverters'.
 */

const TOTAL = metricByCode.get('energyTotal')!.id;

/** The local midnight (server time zone) of the day holding `ms`. */
export function dayStart(ms: number): number {
  const off = zoneOffsetMs(ms);
  return Math.floor((ms + off) / 86_400_000) * 86_400_000 - off;
}

/** Local midnights from the day of `from` up to before `to`. */
export function daysBetween(from: number, to: number): number[] {
  const out: number[] = [];
  for (let s = dayStart(from); s < to; s = dayStart(s + 30 * 3_600_000)) out.push(s);
  return out;
}

/** YYYY-MM-DD of a local day start. */
export const dayLabel = (start: number) => new Date(start + zoneOffsetMs(start)).toISOString().slice(0, 10);

/** Local midnight of a YYYY-MM-DD day. */
export function parseDay(day: string): number {
  const utc = Date.parse(`${day}T00:00:00Z`);
  return utc - zoneOffsetMs(utc - zoneOffsetMs(utc));
}

export interface CounterDevice {
  deviceId: string;
  /** kW: what the inverter can make at most (a day's energy above 24 h of it is a replaced counter) */
  ratedPower: number | null;
}

/** Each device's energy per local day of `days` (local midnights, oldest first). */
export async function dailyEnergy(
  db: Db,
  devices: CounterDevice[],
  days: number[],
): Promise<Map<string, BucketEnergy[]>> {
  const out = new Map<string, BucketEnergy[]>();
  if (!devices.length || !days.length) return out;
  const ids = devices.map((d) => d.deviceId);
  const idList = sql.join(
    ids.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  const first = days[0];
  const end = dayStart(days[days.length - 1] + 30 * 3_600_000);
  const [rows, prevRows] = await Promise.all([
    db.execute(sql`select device_id, extract(epoch from bucket) * 1000 as at, low, high, last
      from telemetry_rollup
      where device_id in (${idList}) and metric = ${TOTAL} and grain = ${GRAIN.day}
        and bucket >= to_timestamp(${first / 1000}) and bucket < to_timestamp(${end / 1000})
      order by device_id, bucket`),
    db.execute(sql`select distinct on (device_id) device_id, last from telemetry_rollup
      where device_id in (${idList}) and metric = ${TOTAL} and grain = ${GRAIN.day}
        and bucket < to_timestamp(${first / 1000})
      order by device_id, bucket desc`),
  ]);
  const buckets = new Map<string, CounterBucket[]>();
  for (const r of rowsOf(rows)) {
    const id = String(r.device_id);
    let list = buckets.get(id);
    if (!list) {
      list = [];
      buckets.set(id, list);
    }
    list.push({ at: Number(r.at), low: Number(r.low), high: Number(r.high), last: Number(r.last) });
  }
  const prev = new Map(rowsOf(prevRows).map((r) => [String(r.device_id), Number(r.last)]));
  for (const d of devices)
    out.set(
      d.deviceId,
      counterEnergy(
        days,
        buckets.get(d.deviceId) ?? [],
        prev.get(d.deviceId) ?? null,
        d.ratedPower ? d.ratedPower * 24 : undefined,
      ),
    );
  return out;
}

/** The label of a day in a grain: the day, its month or its year. */
export const periodOf = (day: string, grain: YieldGrain) =>
  grain === 'day' ? day : grain === 'month' ? day.slice(0, 7) : day.slice(0, 4);

/** The energy of several devices together per period (sum of the known; null where none is known). */
export function periodEnergy(
  days: number[],
  energies: Map<string, BucketEnergy[]>,
  grain: YieldGrain,
): [period: string, energy: number | null][] {
  const byPeriod = new Map<string, (number | null)[]>();
  days.forEach((day, i) => {
    const p = periodOf(dayLabel(day), grain);
    let list = byPeriod.get(p);
    if (!list) {
      list = [];
      byPeriod.set(p, list);
    }
    for (const e of energies.values()) list.push(e[i]?.energy ?? null);
  });
  return [...byPeriod.entries()].map(([p, xs]) => [p, sumEnergy(xs)]);
}
