import { DEVICE_KINDS, type History, metricByCode } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyEnergy } from '../src/modules/power/yield';
import {
  applyRetention,
  compactReadings,
  runTelemetryStorage,
  TELEMETRY_KEEP,
} from '../src/modules/telemetry/compact';
import { addReading, Batch, dayStart, rowsOf, writeBatch } from '../src/modules/telemetry/ingest';
import { device } from '../src/modules/telemetry/tables';
import { schema } from '../src/platform/db';
import { SEED } from '../src/seed/system';
import { areaServer, makeTenant, readSheet, serviceCalls } from './fixtures';
import type { TestServer } from './harness';

/**
 * Compact storage of closed days (compact.ts): history and export read the same before and after a
 * compaction; a late reading of a compacted day is stored, counted in the roll-ups and the yield, and merged
 * into its chunk by the next run; a replayed one changes nothing; retention removes exactly what a tenant
 * keeps no longer. The job is run by its exported functions with a clock of the tests' own: the readings
 * are of March 2025, so no other file's readings are before the horizons used here.
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  ({ s, token } = await areaServer(['200041', '存储他村', 'storageOther']));
  await makeTenant(s.database.db, '200042', '存储保留村');
}, 180_000);
afterAll(() => s?.close());

const { get } = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => token,
);

/** UTC midnights of 2025-03-01 and the days after (08:00 in Asia/Shanghai, the tests' TZ) */
const D = [0, 1, 2, 3].map((i) => Date.UTC(2025, 2, 1 + i));
/** the job's clock: 2025-03-05 01:00 UTC, so with 2 raw days kept, Mar 1 and 2 are compacted */
const NOW = Date.UTC(2025, 2, 5, 1);
const TOTAL = metricByCode.get('energyTotal')!;
const AC = metricByCode.get('acPower')!;

let serial = 0;
/** an inverter row of a tenant (no secret: its readings are written as ingestion writes them) */
async function inverter(id: string, tenantId = '000000') {
  await s.database.db.insert(device).values({
    id,
    tenantId,
    name: `存储逆变器${++serial}`,
    kind: '6',
    serial: `INV-S-${serial}`,
    reportInterval: 300,
    createUser: SEED.adminUserId,
  } as never);
  return {
    id,
    tenantId,
    kind: '6' as const,
    name: 'x',
    secret: '',
    thresholds: null,
    responsibleId: null,
    metrics: new Set<string>(DEVICE_KINDS['6'].metrics),
  };
}
type Info = Awaited<ReturnType<typeof inverter>>;

const write = (info: Info, readings: [metric: typeof TOTAL, at: number, value: number][]) => {
  const b = new Batch();
  for (const [m, at, v] of readings) addReading(b, info, m, at, v);
  return writeBatch(s.database.db, b, { alarms: false });
};

/** a working day (UTC 00:00–10:00 = 08:00–18:00 local) of 5-minute readings: the counter and the power */
function workingDay(day: number, counterFrom: number) {
  const out: [typeof TOTAL, number, number][] = [];
  for (let i = 0; i <= 120; i++) {
    out.push([TOTAL, day + i * 300_000, Math.round((counterFrom + i * 0.25) * 100) / 100]);
    out.push([AC, day + i * 300_000, Math.round(50 * Math.sin((i / 120) * Math.PI) * 10) / 10]);
  }
  return out;
}

const count = async (q: ReturnType<typeof sql>) => Number(rowsOf(await s.database.db.execute(q))[0].n);
const rawOf = (id: string) =>
  count(sql`select count(*)::int as n from telemetry_reading where device_id = ${id}`);
const chunksOf = (id: string) =>
  count(sql`select coalesce(sum(n), 0)::int as n from telemetry_chunk where device_id = ${id}`);
const dayRollup = async (id: string, localDay: number) =>
  rowsOf(
    await s.database.db.execute(sql`select n, last, total from telemetry_rollup
      where device_id = ${id} and metric = ${TOTAL.id} and grain = 3 and bucket = to_timestamp(${localDay / 1000})`),
  )[0];
/** the local days holding Mar 1 and Mar 2's working hours */
const localDays = () => [dayStart(D[0] + 3_600_000), dayStart(D[1] + 3_600_000)];
const energy = async (id: string) =>
  (await dailyEnergy(s.database.db, [{ deviceId: id, ratedPower: 100 }], localDays()))
    .get(id)!
    .map((e) => e.energy);

const history = async (id: string, metric: string, from: number, to: number) =>
  (await get(`/smartPlant/deviceManage/history?deviceId=${id}&metric=${metric}&from=${from}&to=${to}`)).json()
    .data as History;
const exported = async (id: string) => {
  const res = await get(`/smartPlant/deviceManage/readings/export?deviceId=${id}&from=${D[0]}&to=${D[3]}`);
  expect(res.statusCode).toBe(200);
  return readSheet(res.rawPayload);
};

describe('compaction', () => {
  let info: Info;
  beforeAll(async () => {
    info = await inverter('1190000000001955001');
    expect(await write(info, [...workingDay(D[0], 1000), ...workingDay(D[1], 1030)])).toBe(484);
  });

  it('moves closed days into chunks; history and export read the same before and after', async () => {
    const dayHistory = () => history(info.id, 'acPower', D[0], D[1]);
    const twoDays = () => history(info.id, 'energyTotal', D[0], D[2]);
    const before = [await dayHistory(), await twoDays(), await exported(info.id)] as const;
    expect(before[0].points).toHaveLength(121);
    expect(before[2]).toHaveLength(485);
    const run = await runTelemetryStorage(s.database.db, s.app.log, NOW);
    expect(run.compacted.skipped).toBe(false);
    expect(run.compacted.readings).toBeGreaterThanOrEqual(484);
    expect(await rawOf(info.id)).toBe(0);
    expect(await chunksOf(info.id)).toBe(484);
    // four chunks: two days of two metrics
    expect(
      await count(sql`select count(*)::int as n from telemetry_chunk where device_id = ${info.id}`),
    ).toBe(4);
    expect([await dayHistory(), await twoDays(), await exported(info.id)]).toEqual([...before]);
    // nothing left to do
    expect((await compactReadings(s.database.db, NOW)).readings).toBe(0);
  });

  it('a late reading of a compacted day is stored and counted; the next run merges it into the chunk', async () => {
    const day1 = localDays()[1];
    expect(await energy(info.id)).toEqual([30, 30]);
    const rollup = await dayRollup(info.id, day1);
    expect(Number(rollup.n)).toBe(121);
    // Mar 2, 11:00 UTC: the counter went on to 1065
    const late = D[1] + 11 * 3_600_000;
    expect(await write(info, [[TOTAL, late, 1065]])).toBe(1);
    expect(await rawOf(info.id)).toBe(1);
    const after = await dayRollup(info.id, day1);
    expect([Number(after.n), Number(after.last)]).toEqual([122, 1065]);
    expect(Number(after.total)).toBeCloseTo(Number(rollup.total) + 1065, 6);
    expect(await energy(info.id)).toEqual([30, 35]);
    const before = await exported(info.id);
    expect(before).toHaveLength(486);
    expect((await compactReadings(s.database.db, NOW)).readings).toBe(1);
    expect(await rawOf(info.id)).toBe(0);
    expect(await chunksOf(info.id)).toBe(485);
    expect(await exported(info.id)).toEqual(before);
    expect(await energy(info.id)).toEqual([30, 35]);
    const h = await history(info.id, 'energyTotal', D[1], D[2]);
    expect(h.points[h.points.length - 1]).toEqual([late, 1065, 1065, 1065]);
  });

  it('a replayed reading of a compacted day changes nothing; a new one beside it is stored', async () => {
    const day1 = localDays()[1];
    const rollup = await dayRollup(info.id, day1);
    // the late reading (now in its chunk) and one of the day's own, sent again
    expect(
      await write(info, [
        [TOTAL, D[1] + 11 * 3_600_000, 1065],
        [AC, D[1] + 300_000, 999],
      ]),
    ).toBe(0);
    expect(await rawOf(info.id)).toBe(0);
    expect(await dayRollup(info.id, day1)).toEqual(rollup);
    expect(await energy(info.id)).toEqual([30, 35]);
    // a replay beside a genuinely new reading: only the new one counts
    expect(
      await write(info, [
        [TOTAL, D[0] + 300_000, 1000.25],
        [AC, D[0] + 10.5 * 3_600_000, 0.5],
      ]),
    ).toBe(1);
    expect(await rawOf(info.id)).toBe(1);
    expect(await energy(info.id)).toEqual([30, 35]);
  });
});

describe('one run at a time', () => {
  // PGlite has one connection: a second transaction waits for the first instead of finding the lock held
  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'a compaction finds the lock held by a late batch (or another run) and skips, leaving it to the next run',
    async () => {
      const db = s.database.db;
      const info = await inverter('1190000000001955004');
      expect(await write(info, [[AC, D[0] + 3_600_000, 7.5]])).toBe(1);
      const held = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtext('telemetry-compaction'))`);
        return compactReadings(db, NOW);
      });
      expect(held).toEqual({ skipped: true, readings: 0, chunks: 0 });
      expect(await rawOf(info.id)).toBe(1);
      expect((await compactReadings(db, NOW)).skipped).toBe(false);
      expect([await rawOf(info.id), await chunksOf(info.id)]).toEqual([0, 1]);
    },
  );
});

describe('retention', () => {
  it('removes what a tenant keeps no longer, and nothing of another tenant', async () => {
    const db = s.database.db;
    const kept = await inverter('1190000000001955002', '200041');
    const short = await inverter('1190000000001955003', '200042');
    for (const info of [kept, short]) await write(info, [...workingDay(D[0], 10), ...workingDay(D[1], 40)]);
    await compactReadings(db, NOW);
    // a late raw reading of Mar 1 (not yet compacted)
    expect(await write(short, [[AC, D[0] + 11 * 3_600_000, 1]])).toBe(1);
    const { params } = TELEMETRY_KEEP;
    // tenant 200042 keeps readings 3 days (from Mar 5: Mar 2 on), 5-minute roll-ups 3 days too
    await db.insert(schema.param).values([
      { paramName: 'x', paramKey: `${params.readingDays}.200042`, paramValue: '3' },
      { paramName: 'x', paramKey: `${params.fiveMinuteDays}.200042`, paramValue: '3' },
    ]);
    const rollups = (id: string, grain: number) =>
      count(
        sql`select count(*)::int as n from telemetry_rollup where device_id = ${id} and grain = ${grain}`,
      );
    const before = {
      keptRaw: await rawOf(kept.id),
      keptChunks: await chunksOf(kept.id),
      keptFive: await rollups(kept.id, 1),
      hours: await rollups(short.id, 2),
      days: await rollups(short.id, 3),
      fiveMar1: await count(
        sql`select count(*)::int as n from telemetry_rollup where device_id = ${short.id} and grain = 1 and bucket < to_timestamp(${D[1] / 1000})`,
      ),
    };
    const result = await applyRetention(db, NOW);
    expect(result.skipped).toBe(false);
    // Mar 1 of 200042: its two chunks (242 readings), the late raw one, its 5-minute buckets
    expect(result.removed.filter((r) => r.tenantId === '200042')).toEqual([
      { tenantId: '200042', raw: 1, chunks: 2, chunkReadings: 242, fiveMinute: before.fiveMar1 },
    ]);
    expect(result.removed.filter((r) => r.tenantId === '200041')).toEqual([]);
    expect(await rawOf(short.id)).toBe(0);
    expect(await chunksOf(short.id)).toBe(242);
    expect(await rollups(short.id, 2)).toBe(before.hours);
    expect(await rollups(short.id, 3)).toBe(before.days);
    expect(await rawOf(kept.id)).toBe(before.keptRaw);
    expect(await chunksOf(kept.id)).toBe(before.keptChunks);
    expect(await rollups(kept.id, 1)).toBe(before.keptFive);
    // applied again: nothing more
    expect((await applyRetention(db, NOW)).removed.filter((r) => r.tenantId === '200042')).toEqual([]);
  });
});
