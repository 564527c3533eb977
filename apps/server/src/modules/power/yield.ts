import {
  type BucketEnergy,
  type CounterBucket,
  type CounterState,
  counterEnergyFrom,
  EnergySum,
  metricByCode,
  type YieldGrain,
} from '@smart/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { dayStart, onPastDayReadings, rowsOf, zoneOffsetMs } from '../telemetry/ingest';
import { GRAIN } from '../telemetry/tables';

/**
 * Yield from the telemetry core's roll-ups: an inverter's energy per day is the difference of consecutive
 * daily `last`s of its lifetime counter (`energyTotal`), with resets, replaced counters and gaps handled by
 * `counterEnergy` (contracts); months and years are sums of days, a station's the sum of its inverters'.
 */

const TOTAL = metricByCode.get('energyTotal')!.id;

export { dayStart };

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

/**
 * Closed days' energies, kept a minute per device and range with where the counter's differencing stood
 * after them: a closed day changes only by late readings, and this server's own ingestion forgets a
 * device's as soon as it writes one (another server's late reading shows within the minute). A fleet's
 * overview then reads and differences today's buckets only, not every day of 2 000 counters.
 */
const CLOSED_TTL_MS = 60_000;
const CLOSED_MAX = 50_000;
interface ClosedDays {
  until: number;
  /** the rated power they were differenced with (it bounds a day's energy) */
  ratedPower: number | null;
  energies: BucketEnergy[];
  state: CounterState;
}
/** per range of closed days (`first|closedEnd`), per device: no key is built per device and request */
const closedDays = new Map<string, Map<string, ClosedDays>>();
const closedSize = () => [...closedDays.values()].reduce((n, m) => n + m.size, 0);
onPastDayReadings((ids) => {
  for (const range of closedDays.values()) for (const id of ids) range.delete(id);
});

/** Each device's energy per local day of `days` (local midnights, oldest first). */
export async function dailyEnergy(
  db: Db,
  devices: CounterDevice[],
  days: number[],
): Promise<Map<string, BucketEnergy[]>> {
  const out = new Map<string, BucketEnergy[]>();
  if (!devices.length || !days.length) return out;
  const now = Date.now();
  const first = days[0];
  const end = dayStart(days[days.length - 1] + 30 * 3_600_000);
  // days before today are closed: kept for a minute
  const closedEnd = Math.min(end, dayStart(now));
  const closed = days.filter((d) => d < closedEnd);
  const open = days.slice(closed.length);
  const kept = new Map<string, ClosedDays>();
  const rangeKey = `${first}|${closedEnd}`;
  const range = closed.length ? closedDays.get(rangeKey) : undefined;
  if (range)
    for (const d of devices) {
      const k = range.get(d.deviceId);
      if (k && k.until > now && k.ratedPower === (d.ratedPower ?? null)) kept.set(d.deviceId, k);
    }
  const unknown = devices.filter((d) => !kept.has(d.deviceId)).map((d) => d.deviceId);
  // ids as one array parameter: a fleet's 2 000 inverters plan as fast as one station's ten
  const idArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;
  const bucketsOf = (ids: string[], from: number) =>
    db.execute(sql`select device_id, extract(epoch from bucket) * 1000 as at, low, high, last
      from telemetry_rollup
      where device_id = any(${idArray(ids)}) and metric = ${TOTAL} and grain = ${GRAIN.day}
        and bucket >= to_timestamp(${from / 1000}) and bucket < to_timestamp(${end / 1000})
      order by device_id, bucket`);
  const none = Promise.resolve([] as unknown);
  const [rows, openRows, prevRows] = await Promise.all([
    unknown.length ? bucketsOf(unknown, first) : none,
    kept.size && open.length ? bucketsOf([...kept.keys()], closedEnd) : none,
    // each counter's last day before the range: one step down the primary key per device (a DISTINCT ON
    // would read every earlier day of every device: seconds for a fleet's year)
    unknown.length
      ? db.execute(sql`select d.id as device_id, p.last from unnest(${idArray(unknown)}) as d(id)
      cross join lateral (
        select last from telemetry_rollup
        where device_id = d.id and metric = ${TOTAL} and grain = ${GRAIN.day}
          and bucket < to_timestamp(${first / 1000})
        order by bucket desc limit 1
      ) p`)
      : none,
  ]);
  const buckets = new Map<string, CounterBucket[]>();
  for (const r of [...rowsOf(rows), ...rowsOf(openRows)]) {
    const id = String(r.device_id);
    let list = buckets.get(id);
    if (!list) {
      list = [];
      buckets.set(id, list);
    }
    list.push({ at: Number(r.at), low: Number(r.low), high: Number(r.high), last: Number(r.last) });
  }
  const prev = new Map(rowsOf(prevRows).map((r) => [String(r.device_id), Number(r.last)]));
  if (closed.length && unknown.length && closedSize() + unknown.length > CLOSED_MAX) closedDays.clear();
  if (closed.length && unknown.length && !closedDays.has(rangeKey)) closedDays.set(rangeKey, new Map());
  const keep = closedDays.get(rangeKey);
  for (const d of devices) {
    const max = d.ratedPower ? d.ratedPower * 24 : undefined;
    const fresh = buckets.get(d.deviceId) ?? [];
    let k = kept.get(d.deviceId);
    if (!k) {
      const start: CounterState = { last: prev.get(d.deviceId) ?? null, gap: false, gapRun: 0 };
      const done = counterEnergyFrom(start, closed, fresh, max);
      k = {
        until: now + CLOSED_TTL_MS,
        ratedPower: d.ratedPower ?? null,
        energies: done.out,
        state: done.state,
      };
      keep?.set(d.deviceId, k);
    }
    out.set(
      d.deviceId,
      open.length ? k.energies.concat(counterEnergyFrom(k.state, open, fresh, max).out) : k.energies,
    );
  }
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
  const byPeriod = new Map<string, EnergySum>();
  days.forEach((day, i) => {
    const p = periodOf(dayLabel(day), grain);
    let sum = byPeriod.get(p);
    if (!sum) {
      sum = new EnergySum();
      byPeriod.set(p, sum);
    }
    for (const e of energies.values()) sum.add(e[i]?.energy);
  });
  return [...byPeriod.entries()].map(([p, sum]) => [p, sum.value]);
}
