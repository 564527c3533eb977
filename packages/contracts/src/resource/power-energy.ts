/**
 * The PV stations' yield arithmetic (光伏电站): energy from a lifetime counter's roll-ups, full-load hours,
 * income at the tariff in force each day. Pure functions, shared by the server's figures and their tests;
 * power.ts re-exports them.
 */

/** One roll-up bucket of a lifetime energy counter (kWh): its start, lowest, highest and last reading. */
export interface CounterBucket {
  at: number;
  low: number;
  high: number;
  last: number;
}

/** The energy of one bucket, or null when nothing was read in it. */
export interface BucketEnergy {
  at: number;
  energy: number | null;
  /** the counter dropped in this bucket (a reset, or a new counter starting lower) */
  reset?: boolean;
  /** the counter jumped more than the device can produce (a replaced counter starting higher): not counted */
  replaced?: boolean;
  /** buckets without readings came before this one: the energy over them is counted here */
  afterGap?: boolean;
}

/**
 * The energy of each bucket of `starts` (bucket starts, oldest first) from a lifetime counter's buckets:
 * the difference of consecutive lasts. `prev` is the last reading before the first bucket (null: none).
 * - A drop (the bucket's lowest below the previous last) is a reset: the energy before it (the bucket's
 *   highest above the previous last, if the old counter still read in it) plus the new counter's growth
 *   from its lowest reading.
 * - A rise beyond `maxPerBucket` (what the device can make in a bucket) is a replaced counter: not counted,
 *   the series goes on from the new counter.
 * - A bucket without readings is null (unknown, not zero); the counter's rise over it is counted in the next
 *   bucket that has readings (`afterGap`), so totals still match the counter.
 */
export function counterEnergy(
  starts: number[],
  buckets: CounterBucket[],
  prev: number | null,
  maxPerBucket = Number.POSITIVE_INFINITY,
): BucketEnergy[] {
  return counterEnergyFrom({ last: prev, gap: false, gapRun: 0 }, starts, buckets, maxPerBucket).out;
}

/** Where a counter's differencing stands after some buckets: it goes on from there with the next ones. */
export interface CounterState {
  /** the last reading so far (null: none) */
  last: number | null;
  /** buckets without readings came after a known reading */
  gap: boolean;
  /** how many buckets without readings end what came so far */
  gapRun: number;
}

/**
 * `counterEnergy` from a state, answering the state after `starts` too: closed days differenced once can
 * be kept with their state, and only the open day differenced again (a fleet's overview, power/yield.ts).
 */
export function counterEnergyFrom(
  state: CounterState,
  starts: number[],
  buckets: CounterBucket[],
  maxPerBucket = Number.POSITIVE_INFINITY,
): { out: BucketEnergy[]; state: CounterState } {
  // a walk along both lists in time order
  const sorted = buckets.every((b, i) => i === 0 || buckets[i - 1].at <= b.at)
    ? buckets
    : [...buckets].sort((a, b) => a.at - b.at);
  const out: BucketEnergy[] = [];
  let { last, gap, gapRun } = state;
  let j = 0;
  for (const at of starts) {
    while (j < sorted.length && sorted[j].at < at) j++;
    const b = j < sorted.length && sorted[j].at === at ? sorted[j] : undefined;
    if (!b) {
      out.push({ at, energy: null });
      gap = last !== null;
      gapRun++;
      continue;
    }
    const e: BucketEnergy = { at, energy: 0 };
    if (last === null) e.energy = b.last - b.low;
    else if (b.low < last) {
      e.reset = true;
      e.energy = Math.max(0, b.high - last) + (b.last - b.low);
    } else if (b.last - last > maxPerBucket * (gap ? 1 + gapRun : 1)) {
      e.replaced = true;
      e.energy = null;
    } else e.energy = b.last - last;
    if (gap && last !== null) e.afterGap = true;
    if (e.energy !== null) e.energy = round3(Math.max(0, e.energy));
    out.push(e);
    last = b.last;
    gap = false;
    gapRun = 0;
  }
  return { out, state: { last, gap, gapRun } };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * A running sum of known energies (null while none is known), for sums over many values that need not be
 * kept: a fleet's month is 60 000 inverter-days.
 */
export class EnergySum {
  private total = 0;
  private known = false;
  add(x: number | null | undefined): this {
    if (x !== null && x !== undefined) {
      this.total += x;
      this.known = true;
    }
    return this;
  }
  get value(): number | null {
    return this.known ? round3(this.total) : null;
  }
}

/** The sum of known energies (null when none is known). */
export function sumEnergy(xs: (number | null | undefined)[]): number | null {
  const sum = new EnergySum();
  for (const x of xs) sum.add(x);
  return sum.value;
}

/** Full-load hours: energy (kWh) ÷ capacity (kWp); null without either. */
export function fullLoadHours(energy: number | null, capacity: number | null | undefined): number | null {
  if (energy === null || !capacity || capacity <= 0) return null;
  return Math.round((energy / capacity) * 100) / 100;
}

// ---------------------------------------------------------------------------------------------------------
// Profit: income to the cent, and its distribution by shares

/** Energy (kWh) × tariff (元/kWh), in cents, rounded half away from zero. */
export function incomeCents(energy: number, tariff: number): number {
  // through a decimal text: 0.1 × 3 must not become 0.30000000000000004 and round the wrong way
  const v = Number((energy * tariff).toFixed(6));
  return Math.round(v * 100 + Number.EPSILON * 100);
}

/** A tariff version: from a day (YYYY-MM-DD) on, `tariff` 元/kWh. */
export interface TariffVersion {
  from: string;
  tariff: number;
}

/**
 * The tariff in force on a day (YYYY-MM-DD): the latest version from that day or before, else `base`.
 */
export function tariffOn(day: string, versions: TariffVersion[], base: number): number {
  let best: TariffVersion | undefined;
  for (const v of versions) if (v.from <= day && (!best || v.from >= best.from)) best = v;
  return best ? best.tariff : base;
}

/**
 * A period's income in cents, day by day: each day's energy × the tariff in force that day, rounded to the
 * cent per day (`incomeCents`), summed. Days without a known energy add nothing. `tariffs` answers the
 * distinct tariffs applied (one: the period had a single tariff).
 */
export function incomeByDays(
  days: [day: string, energy: number | null][],
  versions: TariffVersion[],
  base: number,
): { cents: number; tariffs: number[] } {
  let cents = 0;
  const used = new Set<number>();
  for (const [day, energy] of days) {
    if (energy === null) continue;
    const t = tariffOn(day, versions, base);
    used.add(t);
    cents += incomeCents(energy, t);
  }
  return { cents, tariffs: [...used] };
}

export interface ShareHolder {
  villagerId: string;
  share: number;
}
export interface ShareAmount extends ShareHolder {
  /** in 元, two decimals */
  amount: string;
}

/**
 * Distributes `cents` by shares with the largest-remainder method: each gets the floor of their part, and
 * the cents left go one each to the largest remainders (ties: the earlier holder). The amounts sum to the
 * total exactly.
 */
export function distribute(cents: number, holders: ShareHolder[]): ShareAmount[] {
  const total = holders.reduce((a, h) => a + h.share, 0);
  if (!holders.length || total <= 0) return [];
  const parts = holders.map((h, i) => {
    const exact = (cents * h.share) / total;
    const floor = Math.floor(exact);
    return { i, floor, rest: exact - floor };
  });
  let left = cents - parts.reduce((a, p) => a + p.floor, 0);
  const order = [...parts].sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const p of order) {
    if (left <= 0) break;
    p.floor++;
    left--;
  }
  return holders.map((h, i) => ({ ...h, amount: (parts[i].floor / 100).toFixed(2) }));
}

// ---------------------------------------------------------------------------------------------------------
// Wire types

export type YieldGrain = 'day' | 'month' | 'year';

/** One bucket of a station's history (GET powerStationHisData/page). */
export interface StationYield {
  /** YYYY-MM-DD, YYYY-MM or YYYY */
  period: string;
  /** kWh; null: no readings */
  energy: number | null;
  fullLoadHours: number | null;
  /** income (元): each day at the tariff in force that day (`incomeByDays`), summed */
  income: number | null;
}

/** An inverter tile of the live page. */
export interface InverterLive {
  id: string;
  serial: string;
  model: string | null;
  ratedPower: number;
  deviceId: string | null;
  /** `ok`, `fault` (state code 2), `standby` (night), `noData` (its device silent or none) */
  status: 'ok' | 'fault' | 'standby' | 'noData';
  lastSeenAt: string | null;
  power: number | null;
  energyToday: number | null;
  temperature: number | null;
}

export interface CollectorLive {
  id: string;
  serial: string;
  deviceId: string | null;
  online: boolean;
  lastSeenAt: string | null;
  signal: number | null;
}

/** GET powerStation/live?id= (without an id: the first station) */
export interface StationLive {
  /** the stations the caller may pick from */
  stations: { id: string; name: string }[];
  id: string;
  name: string;
  capacity: number;
  power: number;
  energyToday: number | null;
  collectors: CollectorLive[];
  inverters: InverterLive[];
}

/** GET powerStation/overview */
export interface EnergyOverview {
  stations: { id: string; name: string; capacity: number; power: number; energyToday: number | null }[];
  power: number;
  energyToday: number | null;
  /** this month's days: [YYYY-MM-DD, kWh | null] of all stations */
  month: [string, number | null][];
  /** this month's full-load hours per station, best first */
  ranking: { id: string; name: string; hours: number | null }[];
  openAlarms: number;
}
