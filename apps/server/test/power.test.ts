import {
  ALARM_KIND,
  alarmText,
  DEVICE_KINDS,
  type EnergyOverview,
  metricByCode,
  POWER_DEMO,
  type StationLive,
  type StationYield,
  type Thresholds,
} from '@smart/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowNotice } from '../src/modules/flow/tables';
import { dailyEnergy } from '../src/modules/power/yield';
import { addReading, Batch, dayStart, writeBatch } from '../src/modules/telemetry/ingest';
import { seedStringAlarm } from '../src/modules/telemetry/seed';
import { device, deviceAlarm } from '../src/modules/telemetry/tables';
import { schema } from '../src/platform/db';
import { SEED } from '../src/seed/system';
import {
  areaServer,
  grantCodes,
  listedRows,
  makeRole,
  readSheet,
  serviceCalls,
  signedInUser,
} from './fixtures';
import { auth, type TestServer } from './harness';

/**
 * PV stations on the telemetry core: the seeded stations and their live page, yield from the inverters'
 * lifetime counters across a reset and a gap, profit to the cent, versioned collection settings, the
 * new-energy devices' calls, isolation and permissions.
 */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200019', '光伏他村', 'powerOther']));
});
afterAll(() => s.close());

const { get, post } = serviceCalls(
  () => s,
  '/api/dfem-hope-power',
  () => token,
);
const manage = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => token,
);

/** local midnight (Asia/Shanghai, the tests' TZ) of 2026-10-<d>, plus hours */
const at = (d: number, h: number) => Date.UTC(2026, 9, d, h) - 8 * 3_600_000;

/**
 * A test inverter of the core in tenant 000000 (a row, no secret: its readings are written as a batch, as
 * the ingestion writes them) and the device record the ingestion holds of it.
 */
async function testInverter(
  id: string,
  serial: string,
  opts: { name?: string; thresholds?: Thresholds; responsibleId?: string } = {},
) {
  const info = {
    id,
    tenantId: '000000',
    kind: '6' as const,
    name: opts.name ?? serial,
    secret: '',
    thresholds: opts.thresholds ?? null,
    responsibleId: opts.responsibleId ?? null,
    metrics: new Set<string>(DEVICE_KINDS['6'].metrics),
  };
  await s.database.db.insert(device).values({
    id,
    tenantId: '000000',
    name: info.name,
    kind: '6',
    serial,
    reportInterval: 300,
    thresholds: opts.thresholds ? JSON.stringify(opts.thresholds) : null,
    responsibleId: info.responsibleId,
    createUser: SEED.adminUserId,
  } as never);
  return info;
}

describe('the seeded stations', () => {
  it('lists both demo stations, their collectors and inverters', async () => {
    const stations = listedRows((await get('/powerStation/page?current=1&size=50')).json().data);
    expect(stations.map((r) => r.id)).toEqual(
      expect.arrayContaining([POWER_DEMO.stationId, POWER_DEMO.station2Id]),
    );
    const invs = listedRows((await get('/inverter/page?current=1&size=50')).json().data);
    expect(invs.length).toBeGreaterThanOrEqual(5);
    const collectors = listedRows((await get('/dataCollector/page?current=1&size=50')).json().data);
    expect(collectors.length).toBeGreaterThanOrEqual(3);
  });

  it('the live page tells a silent collector ("no data") from a fault', async () => {
    // INV-0005 reports now (the seed's readings may be older than three report intervals by now)
    const b = new Batch();
    const info = {
      id: String(BigInt(POWER_DEMO.inverterDeviceId) + 4n),
      tenantId: '000000',
      kind: '6' as const,
      name: 'INV-0005',
      secret: '',
      thresholds: null,
      responsibleId: null,
      metrics: new Set(['acPower', 'inverterState']),
    };
    addReading(b, info, metricByCode.get('acPower')!, Date.now() - 1000, 12.5);
    addReading(b, info, metricByCode.get('inverterState')!, Date.now() - 1000, 1);
    await writeBatch(s.database.db, b, { alarms: false });
    const res = await get(`/powerStation/live?id=${POWER_DEMO.station2Id}`);
    expect(res.statusCode, res.body).toBe(200);
    const live = res.json().data as StationLive;
    const silent = live.collectors.find((c) => c.serial === POWER_DEMO.silentCollectorSerial)!;
    expect(silent.online).toBe(false);
    expect(silent.lastSeenAt).toBeNull();
    const behind = live.inverters.find((i) => i.serial === 'INV-0004')!;
    expect(behind.status).toBe('noData');
    expect(behind.power).toBeNull();
    const other = live.inverters.find((i) => i.serial === 'INV-0005')!;
    expect(other).toMatchObject({ status: 'ok', power: 12.5 });
    expect(other.lastSeenAt).not.toBeNull();
    // a fault is the inverter's own state code, and it is not "no data"
    const fault = new Batch();
    addReading(fault, info, metricByCode.get('inverterState')!, Date.now(), 2);
    await writeBatch(s.database.db, fault, { alarms: false });
    const again = (await get(`/powerStation/live?id=${POWER_DEMO.station2Id}`)).json().data as StationLive;
    expect(again.inverters.find((i) => i.serial === 'INV-0005')!.status).toBe('fault');
    expect(again.inverters.find((i) => i.serial === 'INV-0004')!.status).toBe('noData');
    expect(again.stations.map((x) => x.id)).toContain(POWER_DEMO.stationId);
  });

  it('the overview answers every station, this month by day, the ranking and open alarms', async () => {
    const res = await get('/powerStation/overview');
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data as EnergyOverview;
    expect(o.stations.map((x) => x.id)).toEqual(
      expect.arrayContaining([POWER_DEMO.stationId, POWER_DEMO.station2Id]),
    );
    expect(o.month.length).toBeGreaterThanOrEqual(1);
    expect(o.ranking).toHaveLength(o.stations.length);
    expect(typeof o.openAlarms).toBe('number');
  });

  it('the core answers an inverter’s power curve to the live page’s code', async () => {
    const role = await makeRole(s.database.db, '000000', 'powerLive');
    await grantCodes(s.database.db, role, ['device_power']);
    const live = (await signedInUser(s, 'powerLiveUser', [role])).token;
    const res = await manage.get(
      `/smartPlant/deviceManage/history?deviceId=${POWER_DEMO.inverterDeviceId}&metric=acPower`,
      live,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.points.length).toBeGreaterThan(10);
    expect((await get('/powerStation/overview', live)).statusCode).toBe(403);
  });
});

describe('yield from the lifetime counter', () => {
  let stationId: string;
  beforeAll(async () => {
    const db = s.database.db;
    const devId = '1190000000001909001';
    const info = await testInverter(devId, 'INV-T-0001', { name: '测试逆变器' });
    const st = await post('/powerStation/submit', {
      name: '测试电站',
      capacity: 10,
      ownerVillage: '测试村',
      tariff: '0.3949',
    });
    expect(st.statusCode, st.body).toBe(200);
    stationId = st.json().data.id;
    const inv = await post('/inverter/submit', {
      serial: 'INV-T-0001',
      ratedPower: 10,
      stationId,
      deviceId: devId,
      state: '1',
    });
    expect(inv.statusCode, inv.body).toBe(200);
    const metric = metricByCode.get('energyTotal')!;
    const b = new Batch();
    const read = (d: number, h: number, v: number) => addReading(b, info, metric, at(d, h), v);
    // Oct 1: 1000 → 1040
    for (let h = 8; h <= 16; h++) read(1, h, 1000 + 5 * (h - 8));
    // Oct 2: 1040 → 1060 by noon, then the counter resets: 0 → 15
    for (let h = 9; h <= 12; h++) read(2, h, 1040 + 5 * (h - 8));
    for (let h = 13; h <= 16; h++) read(2, h, 5 * (h - 13));
    // Oct 3: nothing (the collector was down); Oct 4: 40 → 60; Oct 5: 65 → 80
    for (let h = 8; h <= 12; h++) read(4, h, 40 + 5 * (h - 8));
    for (let h = 8; h <= 11; h++) read(5, h, 65 + 5 * (h - 8));
    await writeBatch(db, b, { alarms: false });
  });

  it('by day: a reset counts both counters, a gap is unknown and its energy is counted after it', async () => {
    const res = await get(
      `/powerStationHisData/page?stationId=${stationId}&grain=day&from=2026-10-01&to=2026-10-05&size=31`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const rows = listedRows(res.json().data) as unknown as StationYield[];
    expect(rows.map((r) => r.period)).toEqual([
      '2026-10-01',
      '2026-10-02',
      '2026-10-03',
      '2026-10-04',
      '2026-10-05',
    ]);
    // Oct 1 has no reading before it: from its own lowest, 40; Oct 2: 20 before the reset + 15 after
    expect(rows.map((r) => r.energy)).toEqual([40, 35, null, 45, 20]);
    expect(rows.map((r) => r.fullLoadHours)).toEqual([4, 3.5, null, 4.5, 2]);
    expect(rows[1].income).toBe(13.82);
    // the page's total is its number of periods (as every page's); the range's energy is beside it
    expect(res.json().data.total).toBe(5);
    expect(res.json().data.energyTotal).toBe(140);
  });

  it('one inverter’s yield, its full-load hours over its rated power', async () => {
    const inv = listedRows((await get('/inverter/page?serial=INV-T-0001')).json().data)[0];
    const res = await get(
      `/powerStationHisData/page?stationId=${stationId}&inverterId=${inv.id}&grain=month&from=2026-10-01&to=2026-10-31`,
    );
    expect(listedRows(res.json().data).map((r) => [r.period, r.energy, r.fullLoadHours])).toEqual([
      ['2026-10', 140, 14],
    ]);
    const elsewhere = await get(
      `/powerStationHisData/page?stationId=${POWER_DEMO.stationId}&inverterId=${inv.id}&grain=month`,
    );
    expect(elsewhere.statusCode).toBe(404);
  });

  it('by month and by year: sums of the days', async () => {
    const m = await get(
      `/powerStationHisData/page?stationId=${stationId}&grain=month&from=2026-09-01&to=2026-10-31`,
    );
    expect(listedRows(m.json().data).map((r) => [r.period, r.energy])).toEqual([
      ['2026-09', null],
      ['2026-10', 140],
    ]);
    const y = await get(
      `/powerStationHisData/page?stationId=${stationId}&grain=year&from=2026-01-01&to=2026-12-31`,
    );
    expect(listedRows(y.json().data).map((r) => [r.period, r.energy])).toEqual([['2026', 140]]);
  });

  it('the history exports as Excel, every period of the range', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: `/api/dfem-hope-power/powerStationHisData/export?stationId=${stationId}&grain=day&from=2026-10-01&to=2026-10-05`,
      headers: auth(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readSheet(res.rawPayload);
    expect(sheet.length).toBe(6);
    expect(sheet.map((r) => r[1] ?? '')).toEqual(['发电量(kWh)', '40', '35', '', '45', '20']);
    expect(sheet[1][0]).toBe('2026-10-01');
  });

  it('a month’s profit: energy from the yield × the station’s tariff, distributed to the cent', async () => {
    const villagers = listedRows((await manage.get('/villager/page?current=1&size=3')).json().data).map(
      (r) => r.id,
    );
    for (const [i, share] of [3, 2, 2].entries()) {
      const r = await post('/powerStationShare/submit', { stationId, villagerId: villagers[i], share });
      expect(r.statusCode, r.body).toBe(200);
    }
    const res = await post('/powerStationProfit/submit', { stationId, month: '2026-10' });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json().data;
    expect(Number(p.energy)).toBe(140);
    expect(p.tariff).toBe('0.3949');
    // 140 × 0.3949 = 55.286 → 55.29
    expect(p.income).toBe('55.29');
    const d = JSON.parse(p.distribution) as { villagerId: string; share: number; amount: string }[];
    expect(d.map((x) => x.amount)).toEqual(['23.69', '15.80', '15.80']);
    expect(d.reduce((a, x) => a + Math.round(Number(x.amount) * 100), 0)).toBe(5529);
    // an energy and tariff given by hand are kept
    const hand = await post('/powerStationProfit/submit', {
      stationId,
      month: '2026-09',
      energy: 1000.5,
      tariff: '0.45',
    });
    expect(hand.json().data.income).toBe('450.23');
  });

  it('a station without shares: a household’s own gives it the whole income; another refuses a statement', async () => {
    const household = listedRows((await manage.get('/villager/page?current=1&size=1')).json().data)[0].id;
    const own = await post('/powerStation/submit', {
      name: '户用电站',
      capacity: 5,
      householdId: household,
      tariff: '0.40',
    });
    expect(own.statusCode, own.body).toBe(200);
    const p = (
      await post('/powerStationProfit/submit', {
        stationId: own.json().data.id,
        month: '2026-08',
        energy: 9872.5,
        tariff: '0.40',
      })
    ).json().data;
    expect(p.income).toBe('3949.00');
    expect(JSON.parse(p.distribution)).toEqual([{ villagerId: household, share: 1, amount: '3949.00' }]);
    const url = (id: string) => `/api/dfem-hope-power/powerStationProfit/statement/export?id=${id}`;
    const sheet = await readSheet(
      (await s.app.inject({ method: 'GET', url: url(p.id), headers: auth(token) })).rawPayload,
    );
    expect(sheet.at(-1)?.[4]).toBe('3949.00');

    const collective = await post('/powerStation/submit', {
      name: '集体电站',
      capacity: 5,
      ownerVillage: '测试村',
      tariff: '0.40',
    });
    const q = (
      await post('/powerStationProfit/submit', {
        stationId: collective.json().data.id,
        month: '2026-08',
        energy: 9872.5,
        tariff: '0.40',
      })
    ).json().data;
    expect(q.income).toBe('3949.00');
    const refused = await s.app.inject({ method: 'GET', url: url(q.id), headers: auth(token) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toContain('未设置收益分配份额');
  });

  it('tariff versions apply by date: each day at the tariff in force that day, shares to the cent', async () => {
    // the station's own 0.3949 until Oct 2, 0.40 from Oct 2, 0.4512 from Oct 5 (Nov 1's is not this month's)
    for (const [effectiveFrom, tariff] of [
      ['2026-10-02', '0.40'],
      ['2026-10-05', '0.4512'],
      ['2026-11-01', '9.99'],
    ]) {
      const r = await post('/powerTariff/submit', { stationId, effectiveFrom, tariff });
      expect(r.statusCode, r.body).toBe(200);
    }
    const bad = await post('/powerTariff/submit', {
      stationId,
      effectiveFrom: '2026-10-09',
      tariff: '0.12345',
    });
    expect(bad.statusCode).toBe(400);
    // a second version of the same station and day is refused naming the day, and so is moving one onto it
    const twice = await post('/powerTariff/submit', {
      stationId,
      effectiveFrom: '2026-10-05',
      tariff: '0.5',
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().data.field).toBe('effectiveFrom');
    expect(twice.json().msg).toBe('所属电站+生效日期已存在');
    const moved = await post('/powerTariff/submit', {
      stationId,
      effectiveFrom: '2026-10-20',
      tariff: '0.5',
    });
    const onto = await post('/powerTariff/submit', { id: moved.json().data.id, effectiveFrom: '2026-10-02' });
    expect(onto.statusCode).toBe(400);
    expect(onto.json().data.field).toBe('effectiveFrom');
    expect((await post(`/powerTariff/remove?ids=${moved.json().data.id}`)).statusCode).toBe(200);
    const listed = listedRows((await get(`/powerTariff/page?stationId=${stationId}`)).json().data);
    expect(listed.map((r) => r.effectiveFrom)).toEqual(['2026-11-01', '2026-10-05', '2026-10-02']);
    const res = await post('/powerStationProfit/submit', { stationId, month: '2026-10', remark: 'versions' });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json().data;
    // Oct 1: 40 × 0.3949 = 15.796 → 15.80; Oct 2: 35 × 0.40 = 14.00; Oct 3: unknown; Oct 4: 45 × 0.40 = 18.00;
    // Oct 5: 20 × 0.4512 = 9.024 → 9.02; in all 56.82 (140 kWh at one tariff would not give it)
    expect(Number(p.energy)).toBe(140);
    expect(p.income).toBe('56.82');
    expect(p.tariff ?? '').toBe('');
    const d = JSON.parse(p.distribution) as { share: number; amount: string }[];
    // 5682 × 3/7 = 2435.14, × 2/7 = 1623.43 twice: 2435 + 1623 + 1623 = 5681, the cent left to the first 2/7
    expect(d.map((x) => x.amount)).toEqual(['24.35', '16.24', '16.23']);
    expect(d.reduce((a, x) => a + Math.round(Number(x.amount) * 100), 0)).toBe(5682);
    // edited as the form sends it back (the computed energy, no tariff): priced day by day again
    const edited = await post('/powerStationProfit/submit', {
      id: p.id,
      stationId,
      month: '2026-10',
      energy: '140',
      tariff: '',
      remark: 'edited',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.income).toBe('56.82');
    // the history prices its days the same way: per day, and the month as the sum of its days
    const his = await get(
      `/powerStationHisData/page?stationId=${stationId}&grain=day&from=2026-10-01&to=2026-10-05&size=31`,
    );
    expect(listedRows(his.json().data).map((r) => r.income)).toEqual([15.8, 14, null, 18, 9.02]);
    const hisMonth = await get(
      `/powerStationHisData/page?stationId=${stationId}&grain=month&from=2026-10-01&to=2026-10-31`,
    );
    expect(listedRows(hisMonth.json().data).map((r) => r.income)).toEqual([56.82]);
    // the statement per household, as Excel: each household's shares and amount, the total the income
    const url = `/api/dfem-hope-power/powerStationProfit/statement/export?id=${p.id}`;
    const xls = await s.app.inject({ method: 'GET', url, headers: auth(token) });
    expect(xls.statusCode, xls.body).toBe(200);
    expect(xls.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readSheet(xls.rawPayload);
    expect(sheet[0]).toEqual(['受益农户', '户号', '份额', '占比', '分配金额(元)']);
    expect(sheet.slice(1).map((r) => [r[2], r[4]])).toEqual([
      ['3', '24.35'],
      ['2', '16.24'],
      ['2', '16.23'],
      ['7', '56.82'],
    ]);
    expect(sheet[1][0]).not.toBe('');
    expect(sheet[4][0]).toBe('合计');
    expect((await s.app.inject({ method: 'GET', url, headers: auth(other) })).statusCode).toBe(404);
    // a month inside one version has its tariff written; September is before the first: the station's own
    const nov = (await post('/powerStationProfit/submit', { stationId, month: '2026-11' })).json().data;
    expect(nov.tariff).toBe('9.99');
    const sep = (await post('/powerStationProfit/submit', { stationId, month: '2026-09', energy: 10 })).json()
      .data;
    expect([sep.tariff, sep.income]).toEqual(['0.3949', '3.95']);
    // another village does not see the versions, nor may it name the station
    expect(listedRows((await get('/powerTariff/page', other)).json().data)).toEqual([]);
    expect(
      (await post('/powerTariff/submit', { stationId, effectiveFrom: '2026-10-01', tariff: '1' }, other))
        .statusCode,
    ).toBe(400);
  });

  it('another tenant’s station is not found, by id and by every call that names it', async () => {
    expect((await get(`/powerStation/detail?id=${stationId}`, other)).statusCode).toBe(404);
    expect((await get(`/powerStation/live?id=${stationId}`, other)).statusCode).toBe(404);
    expect((await get(`/powerStationHisData/page?stationId=${stationId}&grain=day`, other)).statusCode).toBe(
      404,
    );
    const overview = (await get('/powerStation/overview', other)).json().data as EnergyOverview;
    expect(overview.stations).toEqual([]);
    const profit = await post('/powerStationProfit/submit', { stationId, month: '2026-10' }, other);
    expect(profit.statusCode).toBe(400);
  });
});

describe('closed days kept by the yield', () => {
  it('a late reading of a closed day shows at once: the ingestion forgets the device’s kept days', async () => {
    const db = s.database.db;
    const devId = '1190000000001909004';
    const info = await testInverter(devId, 'INV-T-0004', { name: '迟到读数逆变器' });
    const metric = metricByCode.get('energyTotal')!;
    const today = dayStart(Date.now());
    const days = [today - 2 * 86_400_000, today - 86_400_000].map((d) => dayStart(d + 3_600_000));
    const write = async (readings: [day: number, hour: number, value: number][]) => {
      const b = new Batch();
      for (const [d, h, v] of readings) addReading(b, info, metric, days[d] + h * 3_600_000, v);
      await writeBatch(db, b, { alarms: false });
    };
    await write([
      [0, 9, 100],
      [0, 15, 130],
      [1, 9, 130],
      [1, 12, 140],
    ]);
    const energy = async () =>
      (await dailyEnergy(db, [{ deviceId: devId, ratedPower: 10 }], days)).get(devId)!.map((e) => e.energy);
    expect(await energy()).toEqual([30, 10]);
    // asked again within the minute: the same (from the kept days)
    expect(await energy()).toEqual([30, 10]);
    // yesterday's afternoon arrives late: 140 → 165
    await write([[1, 16, 165]]);
    expect(await energy()).toEqual([30, 35]);
  });
});

describe('the under-performing string alarm', () => {
  const devId = '1190000000001909002';
  let info: Awaited<ReturnType<typeof testInverter>>;
  beforeAll(async () => {
    info = await testInverter(devId, 'INV-T-0002', {
      name: '组串测试逆变器',
      responsibleId: SEED.adminUserId,
    });
  });
  /** one reading of the four strings, written as ingestion writes a batch (alarms judged) */
  async function strings(at: number, currents: number[], of = info) {
    const b = new Batch();
    for (const [i, c] of currents.entries()) addReading(b, of, metricByCode.get(`pv${i + 1}Current`)!, at, c);
    await writeBatch(s.database.db, b);
  }
  const alarms = () =>
    s.database.db
      .select()
      .from(deviceAlarm)
      .where(and(eq(deviceAlarm.deviceId, devId), eq(deviceAlarm.kind, ALARM_KIND.string)));

  it('a string at 40 % of its siblings raises exactly one alarm; back in line it recovers', async () => {
    const t0 = Date.now() - 3_600_000;
    // night: the siblings' median is below the minimum current, nothing is judged
    await strings(t0 - 600_000, [0.4, 0.5, 0, 0.5]);
    expect(await alarms()).toHaveLength(0);
    // string 3 at 40 % of the others, twice: one alarm
    await strings(t0, [8, 8, 3.2, 8]);
    await strings(t0 + 300_000, [8.1, 8, 3.3, 8]);
    const raised = await alarms();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ metric: 'pv3Current', recoveredAt: null });
    expect(Number(raised[0].value)).toBe(3.2);
    // the floor is 70 % of the siblings' median (the default 30 % share)
    expect(Number(raised[0].threshold)).toBe(5.6);
    expect(alarmText(raised[0], 'zh')).toContain('组串3电流');
    expect(alarmText(raised[0], 'en')).toContain('String under-performing');
    const notes = await s.database.db
      .select()
      .from(flowNotice)
      .where(like(flowNotice.processInstanceId, `device-alarm:${raised[0].id}`));
    expect(notes).toHaveLength(1);
    expect(notes[0].title).toContain('组串异常');
    // a little below the others is not under-performing: back in line, it recovers
    await strings(t0 + 600_000, [8, 8, 7.2, 8]);
    const back = await alarms();
    expect(back).toHaveLength(1);
    expect(back[0].recoveredAt).not.toBeNull();
    // low again: a new alarm
    await strings(t0 + 900_000, [8, 8, 2, 8]);
    expect((await alarms()).filter((a) => a.recoveredAt === null)).toHaveLength(1);
    expect(await alarms()).toHaveLength(2);
  });

  it('an inverter’s own share (its stringDeviation threshold) is judged over the parameter', async () => {
    // 70 %: string 3 at 40 % of the others (floor 2.4 A) is in line for this inverter, not below 2 A
    const own = await testInverter('1190000000001909003', 'INV-T-0003', {
      thresholds: { stringDeviation: 70 },
    });
    const t0 = Date.now() - 1_800_000;
    await strings(t0, [8, 8, 3.2, 8], own);
    const rows = () =>
      s.database.db
        .select()
        .from(deviceAlarm)
        .where(and(eq(deviceAlarm.deviceId, own.id), eq(deviceAlarm.kind, ALARM_KIND.string)));
    expect(await rows()).toHaveLength(0);
    await strings(t0 + 300_000, [8, 8, 2, 8], own);
    expect((await rows()).map((a) => Number(a.threshold))).toEqual([2.4]);
    // the form checks the share: 1–99, and only an inverter has strings
    const put = (kind: string, thresholds: string) =>
      manage.post('/smartPlant/deviceManage/submit', {
        name: '组串阈值',
        kind,
        serial: `TH-${kind}-${thresholds.length}`,
        reportInterval: 300,
        thresholds,
      });
    const tooMuch = await put('6', '{"stringDeviation":150}');
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().msg).toBe('组串偏差比例(stringDeviation)须在 1 到 99 之间');
    expect((await put('1', '{"stringDeviation":20}')).json().msg).toBe('该类设备没有指标 stringDeviation');
    expect((await put('6', '{"stringDeviation":20,"acPower":{"high":60}}')).statusCode).toBe(200);
  });
});

describe('seed step telemetry-string-alarm-v1', () => {
  it('gives an install seeded before it the alarm kind 组串异常 and the parameters, once', async () => {
    const db = s.database.db;
    const items = () =>
      db
        .select({ key: schema.dict.dictKey, zh: schema.dict.dictValue, en: schema.dict.dictValueEn })
        .from(schema.dict)
        .where(and(eq(schema.dict.code, 'device_alarm_kind'), eq(schema.dict.dictKey, ALARM_KIND.string)));
    expect(await items()).toEqual([{ key: '3', zh: '组串异常', en: 'String under-performing' }]);
    // as an install from before the step: the item is missing
    await db
      .delete(schema.dict)
      .where(and(eq(schema.dict.code, 'device_alarm_kind'), eq(schema.dict.dictKey, ALARM_KIND.string)));
    await seedStringAlarm(db);
    await seedStringAlarm(db);
    expect(await items()).toHaveLength(1);
    const params = await db
      .select({ key: schema.param.paramKey, v: schema.param.paramValue })
      .from(schema.param)
      .where(like(schema.param.paramKey, 'power.string.%'));
    expect(params.map((p) => [p.key, p.v]).sort()).toEqual([
      ['power.string.deviation', '30'],
      ['power.string.minCurrent', '1'],
    ]);
  });
});

describe('collection settings', () => {
  const meter = { interval: 60, addresses: [1, 2], ct: 50, metrics: [{ metric: 'acPower', address: 8 }] };

  it('refuses what the type’s schema does not allow, writing nothing', async () => {
    const bad = await post('/code/submit', { type: '3', content: { ...meter, ct: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('content');
    expect((await post('/code/submit', { type: '3', content: '{not json' })).statusCode).toBe(400);
    expect((await post('/code/submit', { type: '8', content: meter })).statusCode).toBe(400);
    expect((await get('/code/get?type=3')).json().data).toBeNull();
  });

  it('each submit is a new version; get answers the latest', async () => {
    const one = await post('/code/submit', { type: '3', content: meter, note: '首版' });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data.version).toBe(1);
    const two = await post('/code/submit', {
      type: '3',
      content: JSON.stringify({ ...meter, interval: 30 }),
    });
    expect(two.json().data.version).toBe(2);
    const latest = (await get('/code/get?type=3')).json().data;
    expect(latest.version).toBe(2);
    expect(latest.content.interval).toBe(30);
    const versions = listedRows((await get('/code/version/page?type=3')).json().data);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    // the other village has its own numbering
    expect((await get('/code/get?type=3', other)).json().data).toBeNull();
    expect((await post('/code/submit', { type: '3', content: meter }, other)).json().data.version).toBe(1);
  });
});

describe('new-energy devices and station cameras', () => {
  it('statistics by kind, the device page, photos', async () => {
    const st = (await get('/newEnergyPower/statistics')).json().data;
    expect(st.devices).toBeGreaterThanOrEqual(4);
    expect(st.byKind.map((k: { key: string }) => k.key)).toEqual(['1', '2', '3']);
    expect(st.heating.records).toBeGreaterThanOrEqual(1);
    const page = (await get('/newEnergyPower/device/page?current=1&size=10&kind=1')).json().data;
    expect(page.records.every((r: { kind: string }) => r.kind === '1')).toBe(true);
    const photo = await get(`/newEnergyPower/get/photo?id=${POWER_DEMO.newEnergyId}`);
    expect(photo.json().data.photos).toEqual([]);
    const refused = await get(
      `/newEnergyPower/save/photo?id=${POWER_DEMO.newEnergyId}&photo=${encodeURIComponent('https://evil.example/a.png')}`,
    );
    expect(refused.statusCode).toBe(400);
    const missing = await get(
      `/newEnergyPower/save/photo?id=${POWER_DEMO.newEnergyId}&photo=${encodeURIComponent('/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.png')}`,
    );
    expect(missing.statusCode).toBe(400);
    expect((await get(`/newEnergyPower/get/photo?id=${POWER_DEMO.newEnergyId}`, other)).statusCode).toBe(404);
    const heating = listedRows((await get('/newEnergyPower/heating/page')).json().data);
    expect(heating.length).toBeGreaterThanOrEqual(1);
  });

  it('a station’s cameras', async () => {
    const list = (await get(`/video/list?stationId=${POWER_DEMO.stationId}`)).json().data;
    expect(list.map((c: { name: string }) => c.name)).toContain('一号电站全景');
    expect((await get(`/video/list?stationId=${POWER_DEMO.stationId}`, other)).json().data).toEqual([]);
  });
});

describe('permissions', () => {
  it('a user without the codes gets 403 from every call of the area', async () => {
    const role = await makeRole(s.database.db, '000000', 'noPower');
    await grantCodes(s.database.db, role, ['camera']);
    const limited = (await signedInUser(s, 'noPowerUser', [role])).token;
    for (const url of [
      '/powerStation/page',
      `/powerStation/detail?id=${POWER_DEMO.stationId}`,
      `/powerStation/live?id=${POWER_DEMO.stationId}`,
      '/powerStation/overview',
      `/powerStationHisData/page?stationId=${POWER_DEMO.stationId}`,
      '/newEnergyPower/statistics',
      '/newEnergyPower/heating/page',
      '/video/list',
      '/code/get?type=1',
      '/dataCollector/page',
      '/inverter/page',
      '/powerStationProfit/page',
      '/powerStationProfit/statement/export?id=1',
      '/powerTariff/page',
    ])
      expect((await get(url, limited)).statusCode, url).toBe(403);
    const role2 = await makeRole(s.database.db, '000000', 'codeViewer');
    await grantCodes(s.database.db, role2, ['power_code']);
    const viewer = (await signedInUser(s, 'codeViewer', [role2])).token;
    expect((await get('/code/get?type=1', viewer)).statusCode).toBe(200);
    expect((await post('/code/submit', { type: '1', content: {} }, viewer)).statusCode).toBe(403);
  });
});
