import {
  DEVICE_KIND,
  type DeviceKindKey,
  distribute,
  incomeCents,
  POWER_DEMO,
  sumEnergy,
} from '@smart/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { demoStreamUrl } from '../safety/demo-video';
import { backfillReadings } from '../telemetry/seed';
import { demoSecret, PV_RATED_KW } from '../telemetry/simulator';
import { device } from '../telemetry/tables';
import { villager } from '../village/tables';
import {
  collectSetting,
  dataCollector,
  inverter,
  newEnergyHeating,
  newEnergyPower,
  powerShare,
  powerStation,
  powerStationProfit,
  powerTariff,
  powerVideo,
} from './tables';
import { dailyEnergy, dayLabel, dayStart, daysBetween, parseDay } from './yield';

const id = (base: string, i: number) => String(BigInt(base) + BigInt(i));
/** how far back the seed fills the stations' history, and how densely */
const BACKFILL_DAYS = 4;
const BACKFILL_STEP_MS = 15 * 60_000;
/** before those days, this month's counters hourly (the month's daily yield) */
const COUNTER_STEP_MS = 3_600_000;

/** the demo collectors: serial, station (0 or 1), name; DC-0002 is silent (the simulator's SILENT_SERIALS) */
const COLLECTORS = [
  ['DC-0001', 0, '一号电站采集器'],
  ['DC-0002', 1, '二号电站采集器(东)'],
  ['DC-0003', 1, '二号电站采集器(西)'],
] as const;
/** the demo inverters: serial, station, collector index */
const INVERTERS = [
  ['INV-0001', 0, 0],
  ['INV-0002', 0, 0],
  ['INV-0003', 0, 0],
  ['INV-0004', 1, 1],
  ['INV-0005', 1, 2],
] as const;

/** The demo stations' devices of the core (kind, serial): the simulator script publishes for them too. */
export const POWER_DEMO_DEVICES: [kind: DeviceKindKey, serial: string][] = [
  ...COLLECTORS.map(([serial]): [DeviceKindKey, string] => [DEVICE_KIND.collector, serial]),
  ...INVERTERS.map(([serial]): [DeviceKindKey, string] => [DEVICE_KIND.inverter, serial]),
];

/** The station cameras' streams before the product served its own: moved by `power-demo-video-v1`. */
const OLD_STREAMS = [
  ['https://video.demo.invalid/live/pv-1.m3u8', 'pv-1'],
  ['https://video.demo.invalid/live/pv-2.flv', 'pv-2'],
] as const;

/** Step `power-demo-video-v1`: the demo station cameras still on the old unreachable addresses play. */
export async function moveStationCamerasToDemoStreams(db: Db) {
  for (const [url, stream] of OLD_STREAMS)
    await db
      .update(powerVideo)
      .set({ streamUrl: demoStreamUrl(stream), streamKind: '1', online: 1 })
      .where(and(eq(powerVideo.tenantId, '000000'), eq(powerVideo.streamUrl, url)));
}

/**
 * Step `power-tariffs-v1`: the demo stations' tariff versions (电价版本) — the collective station's first
 * year's 0.42 and the 0.45 in force since July 2025 (its own tariff), the household station's 0.3949 from
 * its grid date — for each demo station that is there and has none yet. The seeded incomes are of months
 * after the latest version, so they stay what the versions give.
 */
export async function seedTariffs(db: Db) {
  const versions = [
    [POWER_DEMO.stationId, '2025-01-01', '0.42', '并网首年核定电价'],
    [POWER_DEMO.stationId, '2025-07-01', '0.45', '执行湖南燃煤发电基准价'],
    [POWER_DEMO.station2Id, '2025-03-18', '0.3949', '并网时核定电价'],
  ] as const;
  for (const stationId of new Set(versions.map((v) => v[0]))) {
    const [station] = await db
      .select({ id: powerStation.id })
      .from(powerStation)
      .where(
        and(
          eq(powerStation.id, stationId),
          eq(powerStation.tenantId, '000000'),
          notDeleted(powerStation.isDeleted),
        ),
      )
      .limit(1);
    const [has] = await db
      .select({ id: powerTariff.id })
      .from(powerTariff)
      .where(and(eq(powerTariff.stationId, stationId), notDeleted(powerTariff.isDeleted)))
      .limit(1);
    if (!station || has) continue;
    await insertAll(
      db,
      powerTariff,
      versions
        .filter((v) => v[0] === stationId)
        .map(([, effectiveFrom, tariff, remark]) => ({
          tenantId: '000000',
          createUser: SEED.adminUserId,
          createDept: SEED.rootDeptId,
          stationId,
          effectiveFrom,
          tariff,
          remark,
        })),
    );
  }
}

/**
 * PV stations: their dictionaries, and the demo village's (tenant 000000) two stations — the village
 * collective's roof array and a household's — with collectors and inverters that are devices of the
 * telemetry core (demo secrets: the simulator signs as them), four days of readings from the simulator's
 * curves (and the inverters' counters hourly since the day before this month began), shares and last month's profit, new-energy devices, heating records, station cameras (playing the server's demo streams) and a first
 * version of each collection setting.
 */
export async function seedPower(db: Db) {
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const households = (
    await db
      .select({ id: villager.id })
      .from(villager)
      .where(and(eq(villager.tenantId, tenantId), notDeleted(villager.isDeleted)))
      .orderBy(asc(villager.id))
      .limit(6)
  ).map((r) => String(r.id));
  const stations = [
    {
      ...base,
      id: POWER_DEMO.stationId,
      name: '村集体屋顶光伏电站',
      capacity: '160',
      location: '112.9402,28.2294',
      gridDate: '2025-01-01',
      ownerVillage: '示范村',
      tariff: '0.45',
      remark: '村部及学校屋顶,收益按份额分配给脱贫户',
    },
    {
      ...base,
      id: POWER_DEMO.station2Id,
      name: '三组农户光伏电站',
      capacity: '110',
      location: '112.9441,28.2262',
      gridDate: '2025-03-18',
      ownerVillage: '示范村',
      householdId: households[0] ?? null,
      tariff: '0.3949',
    },
  ];
  await insertAll(db, powerStation, stations);
  const stationIds = [POWER_DEMO.stationId, POWER_DEMO.station2Id];
  // the core's devices: collectors 1900501–, inverters 1900511–
  const devices: [string, DeviceKindKey, string, string][] = [
    ...COLLECTORS.map(
      ([serial, , name], i) =>
        [id(POWER_DEMO.collectorDeviceId, i), DEVICE_KIND.collector, serial, name] as [
          string,
          DeviceKindKey,
          string,
          string,
        ],
    ),
    ...INVERTERS.map(
      ([serial], i) =>
        [id(POWER_DEMO.inverterDeviceId, i), DEVICE_KIND.inverter, serial, `逆变器 ${serial}`] as [
          string,
          DeviceKindKey,
          string,
          string,
        ],
    ),
  ];
  await insertAll(
    db,
    device,
    devices.map(([devId, kind, serial, name]) => ({
      ...base,
      id: devId,
      kind,
      serial,
      name,
      location: stations[0].location,
      reportInterval: 300,
      responsibleId: SEED.adminUserId,
      secret: demoSecret(serial),
    })),
  );
  await insertAll(
    db,
    dataCollector,
    COLLECTORS.map(([serial, station], i) => ({
      ...base,
      id: id(POWER_DEMO.collectorId, i),
      serial,
      protocol: i === 2 ? '2' : '1',
      state: '1',
      stationId: stationIds[station],
      deviceId: id(POWER_DEMO.collectorDeviceId, i),
      remark: i === 1 ? '4G 模块故障,待更换' : null,
    })),
  );
  await insertAll(
    db,
    inverter,
    INVERTERS.map(([serial, station, collector], i) => ({
      ...base,
      id: id(POWER_DEMO.inverterId, i),
      serial,
      model: 'SUN2000-50KTL-M3',
      ratedPower: String(PV_RATED_KW),
      strings: 4,
      mppt: 2,
      stationId: stationIds[station],
      collectorId: id(POWER_DEMO.collectorId, collector),
      deviceId: id(POWER_DEMO.inverterDeviceId, i),
      state: '1',
    })),
  );

  // the inverters' counters, hourly, from the day before this month began (or before the last four days,
  // whichever is earlier) up to those four days: every day of the month so far has its yield, and day one
  // has a day before it to difference from
  const now = Date.now();
  const recent = now - BACKFILL_DAYS * 86_400_000;
  const monthBegins = parseDay(`${dayLabel(dayStart(now)).slice(0, 7)}-01`);
  const counters = Math.min(dayStart(recent), monthBegins) - 86_400_000;
  await backfillReadings(db, tenantId, devices, 0, () => COUNTER_STEP_MS, {
    from: counters,
    to: recent,
    metrics: new Set(['energyTotal']),
  });
  // four days of readings from the simulator's curves (silent devices say nothing)
  await backfillReadings(db, tenantId, devices, BACKFILL_DAYS, () => BACKFILL_STEP_MS);

  // shares of the collective station: six households, unequal
  const shares = households.map((h, i) => ({
    ...base,
    id: id('1190000000001900301', i),
    stationId: POWER_DEMO.stationId,
    villagerId: h,
    share: [3, 2, 2, 1, 1, 1][i],
  }));
  await insertAll(db, powerShare, shares);

  // profit: this month so far (the yield of the days before today) and a past month
  const month = dayLabel(dayStart(now)).slice(0, 7);
  const days = daysBetween(parseDay(`${month}-01`), dayStart(now));
  const profits = [];
  for (const [k, sid] of stationIds.entries()) {
    const invs = INVERTERS.map((x, i) => ({ x, i })).filter(({ x }) => x[1] === k);
    const energies = await dailyEnergy(
      db,
      invs.map(({ i }) => ({ deviceId: id(POWER_DEMO.inverterDeviceId, i), ratedPower: PV_RATED_KW })),
      days,
    );
    const energy = sumEnergy([...energies.values()].flatMap((e) => e.map((x) => x.energy))) ?? 0;
    const tariff = Number(stations[k].tariff);
    for (const [j, [m, e]] of [
      ['2025-12', k === 0 ? 14_236.4 : 8_902.7],
      [month, energy],
    ].entries()) {
      const cents = incomeCents(Number(e), tariff);
      profits.push({
        ...base,
        id: id('1190000000001900601', k * 10 + j),
        stationId: sid,
        month: m,
        energy: String(e),
        tariff: String(tariff),
        income: (cents / 100).toFixed(2),
        distribution: JSON.stringify(
          k === 0
            ? distribute(
                cents,
                shares.map((s) => ({ villagerId: s.villagerId, share: s.share })),
              )
            : [],
        ),
      });
    }
  }
  await insertAll(db, powerStationProfit, profits);

  await insertAll(db, newEnergyPower, [
    {
      ...base,
      id: POWER_DEMO.newEnergyId,
      name: '村部空气源热泵',
      kind: '1',
      stationId: POWER_DEMO.stationId,
      village: '示范村村部',
      ratedPower: '12',
      energy: '8650',
      installDate: '2025-10-20',
    },
    {
      ...base,
      id: id(POWER_DEMO.newEnergyId, 1),
      name: '一号电站储能柜',
      kind: '2',
      stationId: POWER_DEMO.stationId,
      village: '示范村',
      ratedPower: '100',
      energy: '23500',
      installDate: '2025-02-01',
    },
    {
      ...base,
      id: id(POWER_DEMO.newEnergyId, 2),
      name: '村口充电桩',
      kind: '3',
      village: '示范村村口',
      ratedPower: '60',
      energy: '4120',
      installDate: '2025-06-12',
    },
    {
      ...base,
      id: id(POWER_DEMO.newEnergyId, 3),
      name: '三组农户热泵',
      kind: '1',
      stationId: POWER_DEMO.station2Id,
      village: '示范村三组',
      householdId: households[0] ?? null,
      ratedPower: '6',
      energy: '3010',
      installDate: '2025-11-02',
    },
  ]);
  await insertAll(
    db,
    newEnergyHeating,
    households.slice(0, 4).map((h, i) => ({
      ...base,
      id: id('1190000000001900701', i),
      householdId: h,
      deviceId: i === 0 ? id(POWER_DEMO.newEnergyId, 3) : POWER_DEMO.newEnergyId,
      season: '2025-2026',
      area: String(90 + 20 * i),
      energy: String(1800 + 350 * i),
      days: 60 + i * 5,
    })),
  );
  await insertAll(db, powerVideo, [
    {
      ...base,
      id: '1190000000001900801',
      name: '一号电站全景',
      stationId: POWER_DEMO.stationId,
      place: '村部楼顶',
      streamUrl: demoStreamUrl('pv-1'),
      streamKind: '1',
      online: 1,
    },
    {
      ...base,
      id: '1190000000001900802',
      name: '二号电站逆变器房',
      stationId: POWER_DEMO.station2Id,
      place: '三组配电房',
      streamUrl: demoStreamUrl('pv-2'),
      streamKind: '1',
      online: 1,
    },
  ]);
  await insertAll(db, collectSetting, [
    {
      ...base,
      id: '1190000000001900901',
      type: '1',
      version: 1,
      content: JSON.stringify({
        interval: 300,
        addresses: [1, 2, 3],
        metrics: [
          { metric: 'acPower', address: 32080, scale: 0.001 },
          { metric: 'energyToday', address: 32114, scale: 0.01 },
          { metric: 'energyTotal', address: 32106, scale: 0.01 },
        ],
      }),
      note: '华为 SUN2000 寄存器表',
    },
  ]);
}
