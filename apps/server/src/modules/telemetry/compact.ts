import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { rowsOf } from '../../platform/sql';
import { addMissingParams } from '../../seed/insert';
import { paramNumber, tenantParams } from '../system/params';
import { decodeChunk, encodeChunk, mergePoints, type Point } from './chunk-codec';
import { bytesOf, DAY_MS, numbers, utcDay } from './readings';
import { device, GRAIN } from './tables';

/**
 * Compact storage of closed days, and retention. One job (every server runs it; one run at a time does the
 * work, under a transaction-scoped advisory lock taken with `pg_try_…`: a server that cannot take it skips):
 *
 * 1. Compaction: a UTC day older than the raw-keep horizon (`telemetry.keep.rawDays` full days, at least
 *    1) moves from `telemetry_reading` to `telemetry_chunk`, a few devices per transaction: the DELETE …
 *    RETURNING takes exactly the rows it encodes (a late reading committed after it stays raw and is merged
 *    by the next run), merged with the day's chunk when there is one. Roll-ups are not touched: they were
 *    maintained as the readings arrived.
 * 2. Retention, per tenant (`<key>.<tenantId>` over `<key>`): readings, raw and compacted, kept
 *    `telemetry.keep.readingDays` days; 5-minute roll-ups `telemetry.keep.fiveMinuteDays`; hourly and daily
 *    roll-ups are kept (a year of a metric is 8 760 + 365 rows).
 *
 * Ingestion (writeBatch) asks `compactedAmong` for any reading of a day before yesterday (those are the
 * only days a compaction may have taken, whatever the horizon), so a replay of a compacted reading is not
 * stored, nor counted, twice.
 */

export const TELEMETRY_KEEP = {
  params: {
    rawDays: 'telemetry.keep.rawDays',
    readingDays: 'telemetry.keep.readingDays',
    fiveMinuteDays: 'telemetry.keep.fiveMinuteDays',
  },
  defaults: { rawDays: 2, readingDays: 400, fiveMinuteDays: 90 },
} as const;

/** The job's lock: held exclusively by a compaction or retention transaction, shared by a late batch. */
const LOCK_KEY = sql`hashtext('telemetry-compaction')`;
/** devices whose day one compaction transaction moves (≈ devices × metrics × 288 readings) */
const DEVICES_PER_TX = 20;

const isTrue = (x: unknown) => x === true || x === 't';

/** Adds `value` to the list of `key` in `map`. */
function add<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The first UTC day a compaction may have taken: readings before it are checked against the chunks.
 * Yesterday and today stay raw whatever the horizon (it is at least one full day).
 */
export const compactedBefore = (now: number) => utcDay(now) - DAY_MS;

/**
 * Which of these readings (columns of a batch; all before `compactedBefore`) a compaction already holds.
 * Runs in the writing transaction, under the job's lock taken shared: a compaction (exclusive) either
 * committed before — its chunks are read here — or starts after this batch commits, and its DELETE then
 * takes the batch's rows with the rest. Without the lock, a batch could read the chunks before a running
 * compaction commits and insert a reading that compaction is moving: the same reading twice, counted twice.
 */
export async function compactedAmong(
  tx: Db,
  devices: readonly string[],
  metrics: readonly number[],
  ats: readonly number[],
): Promise<Set<number>> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${LOCK_KEY})`);
  const wanted = new Map<string, number[]>();
  for (let i = 0; i < ats.length; i++) {
    add(wanted, `${devices[i]}|${metrics[i]}|${utcDay(ats[i])}`, i);
  }
  const keys = [...wanted.keys()].map((k) => k.split('|'));
  const chunks = rowsOf(
    await tx.execute(sql`select c.device_id::text as d, c.metric, (extract(epoch from c.day) * 1000)::float8 as day, c.data
      from telemetry_chunk c
      join unnest(${numbers(keys.map((k) => k[0]))}::bigint[], ${numbers(keys.map((k) => k[1]))}::int2[],
        ${numbers(keys.map((k) => k[2]))}::float8[]) as u(d, m, day)
        on c.device_id = u.d and c.metric = u.m and c.day = to_timestamp(u.day / 1000.0)`),
  );
  const known = new Set<number>();
  for (const c of chunks) {
    const day = Number(c.day);
    const times = new Set(decodeChunk(day, bytesOf(c.data)).map((p) => p.at));
    for (const i of wanted.get(`${c.d}|${Number(c.metric)}|${day}`) ?? [])
      if (times.has(ats[i])) known.add(i);
  }
  return known;
}

/** Takes the job's lock for this transaction, or answers false (another server's run holds it). */
async function tryLock(tx: Db): Promise<boolean> {
  const [got] = rowsOf(await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`));
  return isTrue(got?.ok);
}

export interface CompactionResult {
  /** another server held the job: nothing done */
  skipped: boolean;
  /** readings moved into chunks, and the chunks written */
  readings: number;
  chunks: number;
}

/** Moves every raw reading of a day before the horizon into its chunk. */
export async function compactReadings(db: Db, now = Date.now()): Promise<CompactionResult> {
  const keep = Math.max(1, Math.floor(await paramNumber(db, TELEMETRY_KEEP.params.rawDays, 2)));
  const horizon = utcDay(now) - keep * DAY_MS;
  const out: CompactionResult = { skipped: false, readings: 0, chunks: 0 };
  // the (day, device)s left raw before the horizon: a scan of the raw rows kept, which are a few days'
  const left = rowsOf(
    await db.execute(sql`select distinct (floor(extract(epoch from at) / 86400) * 86400000)::float8 as day,
        device_id::text as d
      from telemetry_reading where at < to_timestamp(${horizon / 1000}) order by 1, 2`),
  );
  const byDay = new Map<number, string[]>();
  for (const r of left) add(byDay, Number(r.day), String(r.d));
  for (const [day, devices] of byDay)
    for (let i = 0; i < devices.length; i += DEVICES_PER_TX) {
      const ids = numbers(devices.slice(i, i + DEVICES_PER_TX));
      const moved = await db.transaction(async (tx0) => {
        const tx = tx0 as unknown as Db;
        return (await tryLock(tx)) ? compactDay(tx, ids, day) : null;
      });
      if (!moved) return { ...out, skipped: true };
      out.readings += moved.readings;
      out.chunks += moved.chunks;
    }
  return out;
}

/** One transaction's share: these devices' raw readings of one day, merged into their chunks. */
async function compactDay(tx: Db, ids: string, day: number) {
  const from = sql`to_timestamp(${day / 1000})`;
  const taken = rowsOf(
    await tx.execute(sql`delete from telemetry_reading
      where device_id = any(${ids}::bigint[]) and at >= ${from} and at < to_timestamp(${(day + DAY_MS) / 1000})
      returning device_id::text as d, metric, (extract(epoch from at) * 1000)::float8 as t, value`),
  );
  const raw = new Map<string, Point[]>();
  for (const r of taken) add(raw, `${r.d}|${Number(r.metric)}`, { at: Number(r.t), value: Number(r.value) });
  const existing = new Map<string, Point[]>();
  for (const c of rowsOf(
    await tx.execute(sql`select device_id::text as d, metric, data from telemetry_chunk
      where device_id = any(${ids}::bigint[]) and day = ${from}`),
  ))
    existing.set(`${c.d}|${Number(c.metric)}`, decodeChunk(day, bytesOf(c.data)));
  const rows = [...raw].map(([key, points]) => {
    const [d, m] = key.split('|');
    const merged = mergePoints(
      existing.get(key) ?? [],
      points.sort((a, b) => a.at - b.at),
    );
    const hex = Buffer.from(encodeChunk(day, merged)).toString('hex');
    return { d, m, n: merged.length, first: merged[0].at, last: merged[merged.length - 1].at, hex };
  });
  if (rows.length) {
    await tx.execute(sql`insert into telemetry_chunk as c (device_id, metric, day, n, first_at, last_at, data)
      select d, m, ${from}, n, to_timestamp(f / 1000.0), to_timestamp(l / 1000.0), decode(h, 'hex')
      from unnest(${numbers(rows.map((r) => r.d))}::bigint[], ${numbers(rows.map((r) => r.m))}::int2[],
        ${numbers(rows.map((r) => r.n))}::int4[], ${numbers(rows.map((r) => r.first))}::float8[],
        ${numbers(rows.map((r) => r.last))}::float8[], ${numbers(rows.map((r) => r.hex))}::text[]) as u(d, m, n, f, l, h)
      on conflict (device_id, metric, day) do update set
        n = excluded.n, first_at = excluded.first_at, last_at = excluded.last_at, data = excluded.data`);
  }
  return { readings: taken.length, chunks: rows.length };
}

export interface RetentionResult {
  skipped: boolean;
  /** per tenant: raw readings, chunks (and the readings they held) and 5-minute roll-ups removed */
  removed: { tenantId: string; raw: number; chunks: number; chunkReadings: number; fiveMinute: number }[];
}

/** Removes, tenant by tenant, the readings and 5-minute roll-ups older than the tenant keeps them. */
export async function applyRetention(db: Db, now = Date.now()): Promise<RetentionResult> {
  const tenants = rowsOf(await db.execute(sql`select distinct ${device.tenantId} as t from ${device}`));
  const out: RetentionResult = { skipped: false, removed: [] };
  const { params, defaults } = TELEMETRY_KEEP;
  for (const { t } of tenants) {
    const tenantId = String(t);
    const p = await tenantParams(db, tenantId, {
      [params.readingDays]: String(defaults.readingDays),
      [params.fiveMinuteDays]: String(defaults.fiveMinuteDays),
    });
    const days = (key: 'readingDays' | 'fiveMinuteDays') => {
      const n = Math.floor(Number(p[params[key]]));
      return Number.isFinite(n) && n >= 1 ? n : defaults[key];
    };
    const readingsCut = sql`to_timestamp(${(utcDay(now) - days('readingDays') * DAY_MS) / 1000})`;
    const rollupCut = sql`to_timestamp(${(utcDay(now) - days('fiveMinuteDays') * DAY_MS) / 1000})`;
    const done = await db.transaction(async (tx0) => {
      const tx = tx0 as unknown as Db;
      if (!(await tryLock(tx))) return null;
      const ofTenant = sql`(select ${device.id} from ${device} where ${device.tenantId} = ${tenantId})`;
      const count = async (q: ReturnType<typeof sql>) => {
        const [r] = rowsOf(
          await tx.execute(
            sql`with gone as (${q}) select count(*)::int as n, coalesce(sum(k), 0)::int as k from gone`,
          ),
        );
        return { n: Number(r.n), k: Number(r.k) };
      };
      const raw = await count(
        sql`delete from telemetry_reading where device_id in ${ofTenant} and at < ${readingsCut} returning 1 as k`,
      );
      const chunks = await count(
        sql`delete from telemetry_chunk where device_id in ${ofTenant} and day < ${readingsCut} returning n as k`,
      );
      const five = await count(
        sql`delete from telemetry_rollup where device_id in ${ofTenant} and grain = ${GRAIN.fiveMinutes} and bucket < ${rollupCut} returning 1 as k`,
      );
      return { tenantId, raw: raw.n, chunks: chunks.n, chunkReadings: chunks.k, fiveMinute: five.n };
    });
    if (!done) return { ...out, skipped: true };
    if (done.raw || done.chunks || done.fiveMinute) out.removed.push(done);
  }
  return out;
}

/** One run of the job: compaction, then retention (what the periodic job and the tests call). */
export async function runTelemetryStorage(db: Db, log: FastifyBaseLogger, now = Date.now()) {
  const compacted = await compactReadings(db, now);
  if (compacted.readings) log.info({ ...compacted }, 'telemetry compacted');
  const retention = compacted.skipped ? null : await applyRetention(db, now);
  for (const r of retention?.removed ?? []) log.info(r, 'telemetry retention removed');
  return { compacted, retention };
}

/** The job's three parameters on the parameter screen (参数管理), where missing. */
export async function seedTelemetryKeep(db: Db) {
  const { params, defaults } = TELEMETRY_KEEP;
  await addMissingParams(db, [
    {
      paramName: '遥测:原始读数保留天数',
      paramKey: params.rawDays,
      paramValue: String(defaults.rawDays),
      remark: '超过此天数(整天,UTC)的读数压缩存储;历史、导出、统计照常读取',
    },
    {
      paramName: '遥测:读数保留天数',
      paramKey: params.readingDays,
      paramValue: String(defaults.readingDays),
      remark: `读数(原始与压缩)保留的天数;${params.readingDays}.<租户ID> 可为单个租户另设`,
    },
    {
      paramName: '遥测:5分钟汇总保留天数',
      paramKey: params.fiveMinuteDays,
      paramValue: String(defaults.fiveMinuteDays),
      remark: `5 分钟汇总保留的天数(小时、日汇总长期保留);${params.fiveMinuteDays}.<租户ID> 可为单个租户另设`,
    },
  ]);
}
