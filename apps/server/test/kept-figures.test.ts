import { type EnergyOverview, metricByCode, POWER_DEMO } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReading, Batch, writeBatch } from '../src/modules/telemetry/ingest';
import { rowsOf } from '../src/platform/sql';
import { areaServer, grantCodes, makeRole, serviceCalls, signedInUser } from './fixtures';
import { notificationsSettled, type TestServer, whileDeaf } from './harness';

/**
 * The figures many people watch (the energy overview, a station's yield, a device's history) are kept while
 * nothing they read has changed (platform/crud/answers.ts `answerKept`): a repeated request is answered from
 * memory, and a batch of readings is in the very next answer. A kept answer is its caller's alone.
 */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200029', '看板他村', 'keptOther']));
});
afterAll(() => s.close());

const power = serviceCalls(
  () => s,
  '/api/dfem-hope-power',
  () => token,
);
const manage = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => token,
);

/** INV-0005 of the demo's second station, as the ingestion holds it */
const inverter = {
  id: String(BigInt(POWER_DEMO.inverterDeviceId) + 4n),
  tenantId: '000000',
  kind: '6' as const,
  name: 'INV-0005',
  secret: '',
  thresholds: null,
  responsibleId: null,
  metrics: new Set(['acPower', 'inverterState', 'energyTotal']),
};

/** a batch of INV-0005's readings at `at`, written as the ingestion writes it */
async function readingsArrive(at: number, values: Record<string, number>) {
  const b = new Batch();
  for (const [code, v] of Object.entries(values)) addReading(b, inverter, metricByCode.get(code)!, at, v);
  await writeBatch(s.database.db, b, { alarms: false });
}

const stationPower = async (t = token) => {
  const res = await power.get('/powerStation/overview', t);
  expect(res.statusCode, res.body).toBe(200);
  const o = res.json().data as EnergyOverview;
  return o.stations.find((x) => x.id === POWER_DEMO.station2Id)?.power;
};

describe('kept figures', () => {
  it('the energy overview is answered from memory until a batch of readings changes it', async () => {
    await readingsArrive(Date.now() - 1000, { acPower: 11, inverterState: 1 });
    await notificationsSettled();
    const before = await stationPower();
    expect(before).toBeGreaterThanOrEqual(11);
    await whileDeaf(s, async () => {
      await readingsArrive(Date.now() - 500, { acPower: 31, inverterState: 1 });
      // unheard: the kept overview is answered
      expect(await stationPower()).toBe(before);
    });
    // heard: the next answer has the batch
    await readingsArrive(Date.now() - 100, { acPower: 41, inverterState: 1 });
    expect(await stationPower()).toBeCloseTo((before as number) + 30, 2);
  });

  it('a station’s yield has a late counter reading in the next answer', async () => {
    const day = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const url = `/powerStationHisData/page?stationId=${POWER_DEMO.station2Id}&grain=day&from=${day.slice(0, 8)}01&to=${day}&size=31`;
    const energy = async () => {
      const res = await power.get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.energyTotal as number | null;
    };
    const [last] = rowsOf(
      await s.database.db.execute(sql`select coalesce(max(last), 0) as last from telemetry_rollup
        where device_id = ${inverter.id} and metric = ${metricByCode.get('energyTotal')!.id}`),
    );
    const counter = Number(last.last);
    await readingsArrive(Date.now() - 60_000, { energyTotal: counter });
    await notificationsSettled();
    const before = (await energy()) ?? 0;
    expect(await energy()).toBe(before);
    await readingsArrive(Date.now() - 30_000, { energyTotal: counter + 25 });
    expect(await energy()).toBeCloseTo(before + 25, 2);
  });

  it('a device’s history has a new reading in the next answer', async () => {
    const from = Date.now() - 3_600_000;
    const url = `/smartPlant/deviceManage/history?deviceId=${inverter.id}&metric=acPower&from=${from}&to=${from + 2 * 3_600_000}`;
    const points = async () => {
      const res = await manage.get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.points as unknown[];
    };
    const before = (await points()).length;
    expect(await points()).toHaveLength(before);
    await readingsArrive(Date.now() - 10, { acPower: 7 });
    expect(await points()).toHaveLength(before + 1);
  });

  it('a pest lamp’s catch is in the next answer of the pest screen', async () => {
    const lamp = {
      ...inverter,
      id: '1190000000001800003',
      kind: '3' as const,
      name: '虫情灯',
      metrics: new Set(['pestPlanthopper']),
    };
    const caught = async () => {
      const res = await manage.get('/pest/detail/list');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.total.find((x: { key: string }) => x.key === 'pestPlanthopper').value as number;
    };
    const before = await caught();
    expect(await caught()).toBe(before);
    const b = new Batch();
    addReading(b, lamp, metricByCode.get('pestPlanthopper')!, Date.now() - 1000, 9);
    await writeBatch(s.database.db, b, { alarms: false });
    expect(await caught()).toBe(before + 9);
  });

  it('a kept answer is its caller’s alone: another village, a user without the code', async () => {
    expect(await stationPower()).toBeGreaterThan(0);
    const theirs = await power.get('/powerStation/overview', other);
    expect(theirs.statusCode).toBe(200);
    expect((theirs.json().data as EnergyOverview).stations).toEqual([]);
    const role = await makeRole(s.database.db, '000000', 'keptLive');
    await grantCodes(s.database.db, role, ['device_power']);
    const live = (await signedInUser(s, 'keptLiveUser', [role])).token;
    expect((await power.get('/powerStation/overview', live)).statusCode).toBe(403);
    const yieldUrl = `/powerStationHisData/page?stationId=${POWER_DEMO.station2Id}&grain=month`;
    expect((await power.get(yieldUrl)).statusCode).toBe(200);
    expect((await power.get(yieldUrl, other)).statusCode).toBe(404);
  });
});
