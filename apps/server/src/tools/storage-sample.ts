/**
 * The telemetry storage bench's sample (bench/telemetry-storage.mjs), on the PostgreSQL of DATABASE_URL — a
 * bench database: its readings, chunks and roll-ups are emptied first. Writes DEVICES devices' readings of
 * two closed days every 5 minutes through `writeBatch` (half weather stations: temperature, humidity, wind;
 * half inverters: power, today's and lifetime energy; the simulator's values), measures the raw form, runs
 * the compaction, measures the compact form, and prints one JSON line.
 */
import { DEVICE_KIND, type DEVICE_KINDS, metricByCode } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { compactReadings } from '../modules/telemetry/compact';
import { addReading, BATCH_MAX, Batch, writeBatch } from '../modules/telemetry/ingest';
import { DAY_MS, utcDay } from '../modules/telemetry/readings';
import { readingsAt } from '../modules/telemetry/simulator';
import { openDatabase } from '../platform/db';
import { rowsOf } from '../platform/sql';

const DEVICES = Number(process.env.STORAGE_DEVICES ?? 200);
const url = process.env.DATABASE_URL;
// it empties the telemetry tables: only a bench's own database
if (!url || !new URL(url).pathname.endsWith('_storage'))
  throw new Error('DATABASE_URL of a *_storage database is required');
const database = await openDatabase({ url, dataDir: '', readCache: false });
const db = database.db;
const one = async (q: ReturnType<typeof sql>) => Number(rowsOf(await db.execute(q))[0].v);

await db.execute(sql`truncate telemetry_reading, telemetry_chunk, telemetry_rollup`);
const now = Date.now();
// the two days before the raw-keep horizon (2 full days): both compacted by one run
const first = utcDay(now) - 4 * DAY_MS;
const kinds = [
  { kind: DEVICE_KIND.weather, metrics: ['airTemperature', 'airHumidity', 'windSpeed'] },
  { kind: DEVICE_KIND.inverter, metrics: ['acPower', 'energyToday', 'energyTotal'] },
];
let b = new Batch();
let written = 0;
for (let d = 0; d < DEVICES; d++) {
  const { kind, metrics } = kinds[d % 2];
  const serial = `STORE-${String(d).padStart(5, '0')}`;
  const info = {
    id: String(1_190_000_000_009_000_000n + BigInt(d)),
    tenantId: '000000',
    kind: kind as keyof typeof DEVICE_KINDS,
    name: serial,
    secret: '',
    thresholds: null,
    responsibleId: null,
    metrics: new Set(metrics),
  };
  for (let at = first; at < first + 2 * DAY_MS; at += 300_000) {
    const values = readingsAt(kind, serial, at);
    for (const code of metrics)
      if (values[code] !== undefined) addReading(b, info, metricByCode.get(code)!, at, values[code]);
    if (b.n >= BATCH_MAX) {
      written += await writeBatch(db, b, { alarms: false });
      b = new Batch();
    }
  }
}
written += await writeBatch(db, b, { alarms: false });
await db.execute(sql`vacuum analyze telemetry_reading`);
const rawBytes = await one(
  sql`select sum(pg_total_relation_size(relid))::float8 as v from pg_partition_tree('telemetry_reading')`,
);
const t0 = performance.now();
const run = await compactReadings(db, now);
const compactMs = performance.now() - t0;
await db.execute(sql`vacuum analyze telemetry_chunk`);
const chunkBytes = await one(sql`select pg_total_relation_size('telemetry_chunk')::float8 as v`);
const inChunks = await one(sql`select coalesce(sum(n), 0)::float8 as v from telemetry_chunk`);
const chunks = await one(sql`select count(*)::float8 as v from telemetry_chunk`);
await database.close();
process.stdout.write(
  `${JSON.stringify({
    devices: DEVICES,
    readings: written,
    rawBytesPerReading: rawBytes / written,
    compacted: run.readings,
    chunks,
    chunkBytesPerReading: chunkBytes / inChunks,
    compactMs: Math.round(compactMs),
  })}\n`,
);
