import { createHmac, timingSafeEqual } from 'node:crypto';
import { type MetricDef, metricByCode, metricById, STRING_ALARM, thresholdOf } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { isUnavailable } from '../../platform/http/errors';
import { rowsOf } from '../../platform/sql';
import { judgeStringAlarms, raiseThresholdAlarms, stampRecoveries } from './alarms';
import { compactedAmong, compactedBefore } from './compact';
import { DeviceDirectory, type DeviceInfo } from './directory';
import { ensurePartitions, monthStart } from './partitions';
import { numbers } from './readings';
import { GRAIN } from './tables';

/**
 * Ingestion: a device's message (from MQTT or HTTP) → checked readings → batches written to the database.
 *
 * A message is `{"data": "<JSON text>", "sig": "<hex HMAC-SHA256 of that text with the device's secret>"}`;
 * the data is `{"ts": <ms or ISO time>, "values": {"<metric>": <number>, …}}` or `{"readings": [ … ]}`,
 * with `"backfill": true` for a backlog older than the live window (signed, so no one else can add it).
 * The topic (or URL) names the tenant, the device kind and its serial. Whatever is wrong — an unknown
 * device, a wrong signature, a malformed message, an unknown metric, a value outside the metric's physical
 * range, a time too far off — is refused and counted (and logged, at most once per reason a minute),
 * never stored, and never stops the readings around it.
 *
 * Readings gather for TELEMETRY_FLUSH_MS (or up to BATCH_MAX) and are written by one transaction: the
 * readings (one INSERT from arrays, skipping any already stored: device, metric and time are unique), their
 * roll-ups (one upsert per batch), each device's last state, and the alarms the batch raised or ended —
 * of the readings actually inserted only, so a replayed message changes nothing.
 */

export const BATCH_MAX = 100_000;
/**
 * Batches written at once, each in its own transaction (on PostgreSQL its own connection: one's insert runs
 * beside the other's roll-ups; the roll-ups and states are upserted in one order, so two never wait on each
 * other in a cycle, as two servers' batches do not).
 */
const WRITERS = 2;
/** past this many waiting readings (the database is behind), new ones are refused as `overloaded` */
const BACKLOG_MAX = 400_000;
/**
 * From this many waiting readings (full batches being written and one gathering) MQTT takes no more
 * messages until a write ends (`room()`): the broker holds them, and a QoS 1 message is acknowledged only
 * once taken, so an overload slows the readings down instead of dropping them.
 */
const TAKE_MAX = (WRITERS + 1) * BATCH_MAX;
const NOW = Promise.resolve();
/** a message carries at most this many readings, and its data at most this many characters */
const READINGS_PER_MESSAGE = 5_000;
const DATA_MAX = 512 * 1024;
/**
 * How far from the server's clock a reading's time may be: 5 minutes ahead, an hour behind (a device's short
 * outage); older readings only through an explicit backfill (`"backfill": true` in the signed data), which
 * reaches back a year at most (`BACKFILL_MS`, the longest history a screen shows).
 */
export const FUTURE_MS = 5 * 60_000;
export const LIVE_PAST_MS = 60 * 60_000;
export const BACKFILL_MS = 366 * 86_400_000;

export type RefusalReason =
  | 'unknownDevice'
  | 'badSignature'
  | 'malformed'
  | 'unknownMetric'
  | 'outOfRange'
  | 'badTime'
  | 'overloaded'
  | 'writeFailed';

export interface IngestStats {
  messages: number;
  /** readings accepted (written or waiting to be) */
  accepted: number;
  /** readings committed to the database */
  stored: number;
  /** accepted readings that were already stored (a replayed or resent message): not stored again */
  duplicates: number;
  refused: Record<RefusalReason, number>;
}

/** One reading past a threshold, kept until the batch is written. */
export interface Crossing {
  device: DeviceInfo;
  metric: MetricDef;
  value: number;
  at: number;
  bound: 'low' | 'high';
  threshold: number;
}

/** The readings of one batch, column by column. */
export class Batch {
  n = 0;
  /** each reading's device as ingestion knew it (to judge again what a write actually inserted) */
  infos: DeviceInfo[] = [];
  devices: string[] = [];
  ats: number[] = [];
  values: number[] = [];
  metrics: number[] = [];
  /** per device: tenant, latest time and each metric's latest value */
  last = new Map<string, { tenantId: string; at: number; values: Record<string, number> }>();
  /** per device|metric: the first crossing in the batch */
  crossings = new Map<string, Crossing>();
  /** per device|metric: the latest reading within the thresholds */
  within = new Map<string, { deviceId: string; metric: string; at: number }>();
  /** per inverter: its string currents (pv1Current…) at the latest time the batch holds them */
  strings = new Map<string, StringReading>();
}

/** An inverter's string currents read at one time (the under-performing string check). */
export interface StringReading {
  device: DeviceInfo;
  at: number;
  currents: Record<string, number>;
}

const STRING_METRICS: ReadonlySet<string> = new Set(STRING_ALARM.metrics);

/** The offset of the server's time zone at `ms`, cached per hour (a day's roll-up starts at local midnight). */
const offsets = new Map<number, number>();
export function zoneOffsetMs(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let off = offsets.get(hour);
  if (off === undefined) {
    const tz = process.env.TZ || 'Asia/Shanghai';
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(hour * 3_600_000));
    const p = Object.fromEntries(parts.map((x) => [x.type, Number(x.value)]));
    off = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - hour * 3_600_000;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, off);
  }
  return off;
}

/** The local midnight (server time zone) of the day holding `ms`: a daily roll-up's bucket. */
export function dayStart(ms: number): number {
  const off = zoneOffsetMs(ms);
  return Math.floor((ms + off) / 86_400_000) * 86_400_000 - off;
}

/** The start of each roll-up bucket holding `at` (ms): 5 minutes, the hour, the local day. */
export function bucketsOf(at: number): [grain: number, start: number][] {
  return [
    [GRAIN.fiveMinutes, at - (at % 300_000)],
    [GRAIN.hour, at - (at % 3_600_000)],
    [GRAIN.day, dayStart(at)],
  ];
}

/**
 * Who is told, once a batch has committed, which devices it gave readings of an earlier day than today
 * (late or backfilled readings): readers that keep closed days (power/yield.ts) forget those devices'.
 */
const pastDayListeners: ((deviceIds: Set<string>) => void)[] = [];
export function onPastDayReadings(listener: (deviceIds: Set<string>) => void) {
  pastDayListeners.push(listener);
}
function tellPastDays(b: Batch) {
  if (!pastDayListeners.length) return;
  const today = dayStart(Date.now());
  const late = new Set<string>();
  for (let i = 0; i < b.n; i++) if (b.ats[i] < today) late.add(b.devices[i]);
  if (late.size) for (const listener of pastDayListeners) listener(late);
}

/** the ingestors of this process (one per server instance) */
const ingestors = new Set<Ingestor>();

/** A device was changed or removed: every ingestor of this process reads it again. */
export function forgetDevices() {
  for (const i of ingestors) i.forgetDevices();
}

export class Ingestor {
  stats: IngestStats = {
    messages: 0,
    accepted: 0,
    stored: 0,
    duplicates: 0,
    refused: {
      unknownDevice: 0,
      badSignature: 0,
      malformed: 0,
      unknownMetric: 0,
      outOfRange: 0,
      badTime: 0,
      overloaded: 0,
      writeFailed: 0,
    },
  };
  private pending = new Batch();
  private backlog = 0;
  /** the batches being written (at most WRITERS) */
  private writing = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** every live device with a secret, in memory (the broker authenticates against it too) */
  readonly directory: DeviceDirectory;
  private lastLogged = new Map<RefusalReason, number>();
  private closed = false;
  /** close() has begun: an unreachable database is no longer waited for */
  private closing = false;
  /** those waiting for `room()` */
  private waitingRoom: (() => void)[] = [];
  /** called after each batch is committed (tests and the bench wait on it) */
  onStored?: (n: number) => void;

  constructor(
    private db: Db,
    private log: FastifyBaseLogger,
    private flushMs: number,
  ) {
    this.directory = new DeviceDirectory(db, log);
    ingestors.add(this);
  }

  /** Forget the remembered devices (a device was changed or removed on this server). */
  forgetDevices() {
    this.directory.forget();
  }

  private refuse(reason: RefusalReason, n: number, detail: Record<string, unknown>) {
    this.stats.refused[reason] += n;
    const now = Date.now();
    if ((this.lastLogged.get(reason) ?? 0) > now - 60_000) return;
    this.lastLogged.set(reason, now);
    this.log.warn(
      { reason, ...detail, refusedSoFar: this.stats.refused[reason] },
      'telemetry reading refused',
    );
  }

  /**
   * The live device of a tenant with this serial, as ingestion knows it: from the in-memory view of every
   * device (`DeviceDirectory`, directory.ts), read again at most once a second for an unknown sender.
   */
  deviceOf(tenantId: string, serial: string): Promise<DeviceInfo | null> {
    return this.directory.find(tenantId, serial);
  }

  /**
   * One message of a device (`tenant`, `kind`, `serial` from its topic or URL). Answers how many readings
   * were accepted, or the reason the whole message was refused.
   */
  async accept(
    tenantId: string,
    kind: string,
    serial: string,
    payload: Buffer | string,
  ): Promise<{ accepted: number; refused: number; reason?: RefusalReason }> {
    this.stats.messages++;
    const whole = (reason: RefusalReason, detail: Record<string, unknown> = {}) => {
      this.refuse(reason, 1, { tenantId, serial, ...detail });
      return { accepted: 0, refused: 1, reason };
    };
    if (this.closed) return whole('overloaded');
    let envelope: { data?: unknown; sig?: unknown };
    try {
      envelope = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
    } catch {
      return whole('malformed');
    }
    if (
      !envelope ||
      typeof envelope.data !== 'string' ||
      typeof envelope.sig !== 'string' ||
      envelope.data.length > DATA_MAX ||
      !/^[0-9a-f]{64}$/i.test(envelope.sig)
    )
      return whole('malformed');
    const dev = await this.deviceOf(tenantId, serial);
    if (!dev || dev.kind !== kind) return whole('unknownDevice', { kind });
    const expected = createHmac('sha256', dev.secret).update(envelope.data).digest();
    if (!timingSafeEqual(expected, Buffer.from(envelope.sig, 'hex'))) return whole('badSignature');
    let data: { ts?: unknown; values?: unknown; readings?: unknown; backfill?: unknown };
    try {
      data = JSON.parse(envelope.data);
    } catch {
      return whole('malformed');
    }
    const groups = Array.isArray(data?.readings) ? data.readings : [data];
    if (!groups.length || groups.length > READINGS_PER_MESSAGE) return whole('malformed');
    if (this.backlog > BACKLOG_MAX) return whole('overloaded');
    const now = Date.now();
    // the oldest time accepted: an hour back, or a year through a backfill the device signed as one
    const oldest = now - (data.backfill === true ? BACKFILL_MS : LIVE_PAST_MS);
    let accepted = 0;
    let refused = 0;
    const b = this.pending;
    for (const g of groups) {
      const at = timeOf((g as { ts?: unknown })?.ts, now);
      const values = (g as { values?: unknown })?.values;
      if (!values || typeof values !== 'object' || Array.isArray(values)) {
        refused++;
        this.refuse('malformed', 1, { tenantId, serial });
        continue;
      }
      const entries = Object.entries(values as Record<string, unknown>);
      if (at === null || at > now + FUTURE_MS || at < oldest) {
        refused += entries.length;
        this.refuse('badTime', entries.length, { tenantId, serial, ts: (g as { ts?: unknown }).ts });
        continue;
      }
      for (const [code, raw] of entries) {
        const metric = metricByCode.get(code);
        if (!metric || !dev.metrics.has(code)) {
          refused++;
          this.refuse('unknownMetric', 1, { tenantId, serial, metric: code.slice(0, 40) });
          continue;
        }
        if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < metric.min || raw > metric.max) {
          refused++;
          this.refuse('outOfRange', 1, { tenantId, serial, metric: code, value: String(raw).slice(0, 40) });
          continue;
        }
        addReading(b, dev, metric, at, raw);
        accepted++;
      }
    }
    this.stats.accepted += accepted;
    this.backlog += accepted;
    if (b.n >= BATCH_MAX) void this.flush();
    else if (!this.timer && b.n) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.flushMs);
    }
    return { accepted, refused };
  }

  /**
   * Resolves once fewer than TAKE_MAX readings wait to be written (at once, mostly). MQTT waits on it before
   * it takes each message: while the database is behind, messages stay with the broker (pushback).
   */
  room(): Promise<void> {
    if (!this.full) return NOW;
    return new Promise((resolve) => this.waitingRoom.push(resolve));
  }

  /** TAKE_MAX readings or more wait to be written: `room()` would wait */
  get full() {
    return this.backlog >= TAKE_MAX && !this.closed;
  }

  private letIn() {
    if (this.full) return;
    const waiting = this.waitingRoom;
    this.waitingRoom = [];
    for (const resolve of waiting) resolve();
  }

  /** Writes what is waiting; resolves when it (and every batch being written) is committed. */
  flush(): Promise<void> {
    if (!this.pending.n) return this.written();
    if (this.writing.size >= WRITERS) return Promise.race(this.writing).then(() => this.flush());
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.pending;
    this.pending = new Batch();
    const write: Promise<void> = this.writeWithRetry(batch).finally(() => {
      this.writing.delete(write);
      this.backlog -= batch.n;
      this.letIn();
      // behind (a full batch waits, or messages wait for room): at once; else the interval's timer
      if (this.pending.n >= BATCH_MAX || (this.pending.n && this.waitingRoom.length)) void this.flush();
      else if (this.pending.n && !this.timer)
        this.timer = setTimeout(() => {
          this.timer = undefined;
          void this.flush();
        }, this.flushMs);
    });
    this.writing.add(write);
    return this.written();
  }

  /** resolves when every batch being written now is committed */
  private written(): Promise<void> {
    return this.writing.size ? Promise.all(this.writing).then(() => undefined) : NOW;
  }

  /**
   * A batch is tried three times; while the database is unreachable (restarting, cut off), for as long as it
   * is, unless the server is closing: the batch is held, later readings wait behind it (MQTT's `room()`,
   * HTTP's 503 past BACKLOG_MAX), and none is dropped for an outage.
   */
  private async writeWithRetry(batch: Batch) {
    for (let attempt = 1; ; attempt++) {
      try {
        const stored = await writeBatch(this.db, batch);
        this.stats.stored += stored;
        this.stats.duplicates += batch.n - stored;
        this.onStored?.(batch.n);
        return;
      } catch (err) {
        if ((attempt >= 3 && (!isUnavailable(err) || this.closing)) || this.closed) {
          this.refuse('writeFailed', batch.n, { err: String((err as Error).message) });
          return;
        }
        if (attempt <= 3 || attempt % 20 === 0)
          this.log.error({ err, attempt }, 'telemetry batch failed; trying again');
        await new Promise((r) => setTimeout(r, Math.min(200 * attempt, 2_000)));
      }
    }
  }

  /** Writes what is waiting, then refuses anything more (the server is closing). */
  async close() {
    this.closing = true;
    await this.flush();
    this.closed = true;
    this.letIn();
    ingestors.delete(this);
  }
}

/** Adds one checked reading to a batch: its columns, the device's last state, a crossing or a return. */
export function addReading(b: Batch, dev: DeviceInfo, metric: MetricDef, at: number, value: number) {
  b.n++;
  b.infos.push(dev);
  b.devices.push(dev.id);
  b.ats.push(at);
  b.values.push(value);
  b.metrics.push(metric.id);
  let last = b.last.get(dev.id);
  if (!last) {
    last = { tenantId: dev.tenantId, at, values: {} };
    b.last.set(dev.id, last);
  }
  if (at >= last.at) {
    last.at = at;
    last.values[metric.code] = value;
  } else if (!(metric.code in last.values)) last.values[metric.code] = value;
  if (STRING_METRICS.has(metric.code)) {
    // the strings of the latest time only: a reading is judged against its siblings of the same moment
    const sr = b.strings.get(dev.id);
    if (!sr || at > sr.at) b.strings.set(dev.id, { device: dev, at, currents: { [metric.code]: value } });
    else if (at === sr.at) sr.currents[metric.code] = value;
  }
  const key = `${dev.id}|${metric.code}`;
  const { low, high } = thresholdOf(metric, dev.thresholds);
  const bound = high !== undefined && value > high ? 'high' : low !== undefined && value < low ? 'low' : null;
  if (bound) {
    if (!b.crossings.has(key))
      b.crossings.set(key, {
        device: dev,
        metric,
        value,
        at,
        bound,
        threshold: (bound === 'high' ? high : low) as number,
      });
  } else {
    const w = b.within.get(key);
    if (!w || at > w.at) b.within.set(key, { deviceId: dev.id, metric: metric.code, at });
  }
}

/** A reading's time: epoch milliseconds, or an ISO 8601 text with its zone; none given: now. */
function timeOf(ts: unknown, now: number): number | null {
  if (ts === undefined || ts === null) return now;
  if (typeof ts === 'number') return Number.isFinite(ts) ? Math.round(ts) : null;
  if (typeof ts === 'string' && ts.length <= 40 && /(Z|[+-]\d{2}:?\d{2})$/.test(ts)) {
    const ms = Date.parse(ts);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/**
 * One batch, one transaction: readings, roll-ups, device states, alarms (`alarms: false`: a backfill of
 * history, which raises none). A reading already stored (device, metric and time are unique: a replayed or
 * resent message), raw or compacted (compact.ts), is skipped, and only the readings actually inserted count
 * in the roll-ups, the states and the alarms. Answers how many were inserted.
 */
export async function writeBatch(db: Db, b: Batch, opts: { alarms?: boolean } = {}): Promise<number> {
  const months = new Set<number>();
  for (const at of b.ats) months.add(monthStart(at));
  // DDL outside the data's transaction: a failed batch never undoes a partition another batch relies on
  await ensurePartitions(db, months);
  let kept = b;
  await db.transaction(async (tx0) => {
    const tx = tx0 as unknown as Db;
    const fresh = await notCompacted(tx, b);
    kept = fresh;
    // the INSERT tells what it stored: a reading stored before (a replay) is skipped and left out of
    // everything the batch changes beside it. Only when some were skipped are the stored ones sent back
    // (the usual batch, all new, costs a count, not its rows again)
    const [answer] = rowsOf(
      await tx.execute(sql`with ins as (insert into telemetry_reading (device_id, at, value, metric)
      select d, to_timestamp(a / 1000.0), v, m
      from unnest(${numbers(fresh.devices)}::bigint[], ${numbers(fresh.ats)}::float8[], ${numbers(fresh.values)}::float8[], ${numbers(fresh.metrics)}::int2[]) as u(d, a, v, m)
      on conflict (device_id, metric, at) do nothing
      returning device_id::text as device_id, metric, (extract(epoch from at) * 1000)::float8 as a, value)
      select (select count(*)::int from ins) as n,
        (select json_agg(ins) from ins where (select count(*) from ins) < ${fresh.n}) as stored`),
    );
    if (Number(answer.n) < fresh.n)
      kept = insertedOnly(fresh, (answer.stored as Record<string, unknown>[]) ?? []);
    if (kept.n) await writeRest(tx, kept, opts);
  });
  if (kept.n) tellPastDays(kept);
  return kept.n;
}

/**
 * The batch without the readings a compaction already moved into its chunks (a replay of a closed day): only
 * readings of a day before yesterday are looked up, so live ones cost nothing.
 */
async function notCompacted(tx: Db, b: Batch): Promise<Batch> {
  const before = compactedBefore(Date.now());
  const old: number[] = [];
  for (let i = 0; i < b.n; i++) if (b.ats[i] < before) old.push(i);
  if (!old.length) return b;
  const pick = <T>(xs: T[]) => old.map((i) => xs[i]);
  const known = await compactedAmong(tx, pick(b.devices), pick(b.metrics), pick(b.ats));
  if (!known.size) return b;
  const gone = new Set([...known].map((k) => old[k]));
  const rest: Record<string, unknown>[] = [];
  for (let i = 0; i < b.n; i++)
    if (!gone.has(i))
      rest.push({ device_id: b.devices[i], metric: b.metrics[i], a: b.ats[i], value: b.values[i] });
  return insertedOnly(b, rest);
}

/** The part of a batch its INSERT actually stored (the rest was there already), judged again reading by reading. */
function insertedOnly(b: Batch, inserted: Record<string, unknown>[]): Batch {
  const infos = new Map<string, DeviceInfo>();
  for (const info of b.infos) infos.set(info.id, info);
  const kept = new Batch();
  for (const r of inserted) {
    const info = infos.get(String(r.device_id));
    const metric = metricById.get(Number(r.metric));
    if (info && metric) addReading(kept, info, metric, Math.round(Number(r.a)), Number(r.value));
  }
  return kept;
}

/** Everything a batch's inserted readings change beside themselves: roll-ups, device states, alarms. */
async function writeRest(tx: Db, b: Batch, opts: { alarms?: boolean }) {
  // roll-ups: the batch's readings summed per bucket first (a bucket is then one row of the upsert)
  const roll = new Map<
    string,
    {
      d: string;
      m: number;
      g: number;
      b: number;
      n: number;
      t: number;
      lo: number;
      hi: number;
      la: number;
      lat: number;
    }
  >();
  for (let i = 0; i < b.n; i++) {
    const at = b.ats[i];
    const v = b.values[i];
    for (const [grain, start] of bucketsOf(at)) {
      const key = `${b.devices[i]}|${b.metrics[i]}|${grain}|${start}`;
      const r = roll.get(key);
      if (!r)
        roll.set(key, {
          d: b.devices[i],
          m: b.metrics[i],
          g: grain,
          b: start,
          n: 1,
          t: v,
          lo: v,
          hi: v,
          la: v,
          lat: at,
        });
      else {
        r.n++;
        r.t += v;
        if (v < r.lo) r.lo = v;
        if (v > r.hi) r.hi = v;
        if (at >= r.lat) {
          r.la = v;
          r.lat = at;
        }
      }
    }
  }
  // one order for every server's upserts, so two batches never wait on each other's rows in a cycle
  const rolls = [...roll.values()].sort((x, y) =>
    x.d === y.d ? x.m - y.m || x.g - y.g || x.b - y.b : x.d < y.d ? -1 : 1,
  );
  const states = [...b.last.entries()]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([d, s]) => ({ d, t: s.tenantId, a: s.at, v: s.values }));

  await tx.execute(sql`insert into telemetry_rollup as r (device_id, metric, grain, bucket, n, total, low, high, last, last_at)
    select d, m, g, to_timestamp(bk / 1000.0), n, t, lo, hi, la, to_timestamp(lat / 1000.0)
    from unnest(${numbers(rolls.map((r) => r.d))}::bigint[], ${numbers(rolls.map((r) => r.m))}::int2[],
      ${numbers(rolls.map((r) => r.g))}::int2[], ${numbers(rolls.map((r) => r.b))}::float8[],
      ${numbers(rolls.map((r) => r.n))}::int4[], ${numbers(rolls.map((r) => r.t))}::float8[],
      ${numbers(rolls.map((r) => r.lo))}::float8[], ${numbers(rolls.map((r) => r.hi))}::float8[],
      ${numbers(rolls.map((r) => r.la))}::float8[], ${numbers(rolls.map((r) => r.lat))}::float8[])
      as u(d, m, g, bk, n, t, lo, hi, la, lat)
    on conflict (device_id, metric, grain, bucket) do update set
      n = r.n + excluded.n,
      total = r.total + excluded.total,
      low = least(r.low, excluded.low),
      high = greatest(r.high, excluded.high),
      last = case when excluded.last_at >= r.last_at then excluded.last else r.last end,
      last_at = greatest(r.last_at, excluded.last_at)`);
  // devices that report again after the offline check found them silent: their offline alarm recovers
  const back = await tx.execute(sql`update telemetry_state set offline = 0
    where offline = 1 and device_id = any(${numbers(states.map((s) => s.d))}::bigint[]) returning device_id`);
  await tx.execute(sql`insert into telemetry_state as s (device_id, tenant_id, last_at, last_values, offline)
    select d, t, to_timestamp(a / 1000.0), v, 0 from jsonb_to_recordset(${JSON.stringify(states)}::jsonb)
      as x(d bigint, t varchar, a float8, v jsonb)
    on conflict (device_id) do update set
      last_values = case when excluded.last_at >= s.last_at then s.last_values || excluded.last_values
        else excluded.last_values || s.last_values end,
      last_at = greatest(s.last_at, excluded.last_at),
      offline = 0`);
  const recovered = rowsOf(back).map((r) => String(r.device_id));
  if (opts.alarms === false) return;
  await stampRecoveries(tx, recovered, [...b.within.values()]);
  if (b.crossings.size) await raiseThresholdAlarms(tx, [...b.crossings.values()]);
  if (b.strings.size) await judgeStringAlarms(tx, [...b.strings.values()]);
}

export { rowsOf };
