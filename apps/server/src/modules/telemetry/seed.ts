import { randomUUID } from 'node:crypto';
import {
  AGRICULTURE_DEMO,
  ALARM_KIND,
  ALARM_STATE,
  DEVICE_KIND,
  type DeviceKindKey,
  metricByCode,
  metricsOfKind,
  STRING_ALARM,
  TELEMETRY_DEMO,
  TELEMETRY_DICTS,
} from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { SeedEnv } from '../../platform/area';
import { type Db, schema } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { addMissingParams, insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { UPLOAD_KINDS } from '../resource/uploads';
import type { DeviceInfo } from './directory';
import { addReading, Batch, writeBatch } from './ingest';
import { demoSecret, readingsAt, trapPhoto } from './simulator';
import { device, deviceAlarm, pestPhoto } from './tables';

/** the demo devices: id, kind, serial, name, position, report interval (s) */
export const DEMO_DEVICES: [
  id: string,
  kind: DeviceKindKey,
  serial: string,
  zh: string,
  at: string,
  interval: number,
][] = [
  [TELEMETRY_DEMO.weatherId, DEVICE_KIND.weather, 'WS-0001', '村部气象站', '112.9391,28.2286', 60],
  [TELEMETRY_DEMO.soilId, DEVICE_KIND.soil, 'SM-0001', '一组稻田墒情站', '112.9352,28.2271', 60],
  [TELEMETRY_DEMO.soil2Id, DEVICE_KIND.soil, 'SM-0002', '三组菜地墒情站', '112.9437,28.2259', 60],
  [TELEMETRY_DEMO.pestId, DEVICE_KIND.pest, 'PL-0001', '一组虫情测报灯', '112.9365,28.2290', 300],
  [TELEMETRY_DEMO.slopeId, DEVICE_KIND.slope, 'SL-0001', '后山边坡监测点', '112.9460,28.2312', 60],
  [TELEMETRY_DEMO.cameraId, DEVICE_KIND.camera, 'CAM-0001', '育秧大棚摄像头', '112.9370,28.2279', 300],
];

/** the demo plots the field devices stand in (seed agriculture-v1 runs first) */
const DEMO_PLOT: Record<string, string> = {
  'SM-0001': AGRICULTURE_DEMO.plotId,
  'PL-0001': AGRICULTURE_DEMO.plotId,
  'SM-0002': '1190000000001700002',
  'CAM-0001': '1190000000001700003',
};

/** how far back the seed fills history, and how densely */
const BACKFILL_DAYS = 3;
const BACKFILL_STEP_MS = 15 * 60_000;
/** how far back the trap lamps' hourly counts go (the overview's 30 days, and a day more) */
const PEST_DAYS = 31;

/**
 * History for demo devices, `days` back to now (or over `window`: from, to, and only some metrics), from the
 * simulator's curves, written as the ingestion writes it (roll-ups and states included, no alarms): every
 * chart has a shape on a fresh start.
 */
export async function backfillReadings(
  db: Db,
  tenantId: string,
  devices: readonly (readonly [
    id: string,
    kind: DeviceKindKey,
    serial: string,
    name: string,
    ...rest: unknown[],
  ])[],
  days: number,
  stepOf: (kind: string) => number,
  window?: { from: number; to: number; metrics?: ReadonlySet<string> },
) {
  const batch = new Batch();
  const now = window?.to ?? Date.now();
  const start = window?.from ?? now - days * 86_400_000;
  for (const [id, kind, serial, name] of devices) {
    const metrics = metricsOfKind(kind).filter((m) => !window?.metrics || window.metrics.has(m.code));
    if (!metrics.length) continue;
    const info: DeviceInfo = {
      id,
      tenantId,
      kind,
      name,
      secret: '',
      thresholds: null,
      responsibleId: null,
      metrics: new Set(metrics.map((m) => m.code)),
    };
    const step = stepOf(kind);
    for (let at = start - (start % step); at < now - 60_000; at += step)
      for (const [code, v] of Object.entries(readingsAt(kind, serial, at)))
        if (info.metrics.has(code)) addReading(batch, info, metricByCode.get(code)!, at, v);
  }
  await writeBatch(db, batch, { alarms: false });
}

/**
 * The telemetry core's dictionaries, and the demo village's devices (tenant 000000) with their demo
 * secrets (the simulator signs as them), three days of history from the simulator's own curves so every
 * chart has a shape on a fresh start (the trap lamps' counts 31 days back, for the 30-day figures), and two alarms of the past (one closed, one acknowledged).
 */
export async function seedTelemetry(db: Db) {
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  await insertAll(
    db,
    device,
    DEMO_DEVICES.map(([id, kind, serial, name, location, reportInterval]) => ({
      ...base,
      id,
      kind,
      serial,
      name,
      location,
      reportInterval,
      responsibleId: SEED.adminUserId,
      plotId: DEMO_PLOT[serial] ?? null,
      secret: demoSecret(serial),
    })),
  );
  // a lamp reports hourly counts; the others a sample every step
  await backfillReadings(db, tenantId, DEMO_DEVICES, BACKFILL_DAYS, (kind) =>
    kind === DEVICE_KIND.pest ? 3_600_000 : BACKFILL_STEP_MS,
  );
  // and the lamps' counts of the 30 days before those (农业概览's "pests over 30 days" is never 3 days)
  const now = Date.now();
  await backfillReadings(
    db,
    tenantId,
    DEMO_DEVICES.filter(([, kind]) => kind === DEVICE_KIND.pest),
    0,
    () => 3_600_000,
    { from: now - PEST_DAYS * 86_400_000, to: now - BACKFILL_DAYS * 86_400_000 },
  );
  const day = (d: number, h: number) => new Date(now - d * 86_400_000 - h * 3_600_000);
  await insertAll(db, deviceAlarm, [
    {
      ...base,
      id: '1190000000001810001',
      deviceId: TELEMETRY_DEMO.soilId,
      kind: ALARM_KIND.threshold,
      metric: 'soilMoisture',
      value: '13.8',
      threshold: '15',
      state: ALARM_STATE.closed,
      raisedAt: day(2, 5),
      recoveredAt: day(2, 1),
      acknowledgedAt: day(2, 4),
      acknowledgedBy: '管理员',
      closedAt: day(2, 0),
      closedBy: '管理员',
      note: '已开启滴灌补水',
    },
    {
      ...base,
      id: '1190000000001810002',
      deviceId: TELEMETRY_DEMO.cameraId,
      kind: ALARM_KIND.offline,
      state: ALARM_STATE.acknowledged,
      raisedAt: day(1, 3),
      acknowledgedAt: day(1, 2),
      acknowledgedBy: '管理员',
      note: '大棚停电检修',
    },
  ]);
}

/** how far back the seed's trap photos go, and how often a lamp took one */
const PHOTO_DAYS = 3;
const PHOTO_STEP_MS = 3 * 3_600_000;

/**
 * Step `telemetry-pest-photos-v1`: what the demo village's trap lamps photographed over the last three days,
 * one photo every three hours (the simulator's boards, as many insects as the lamp counted that hour),
 * stored as uploaded images are and listed in 虫情图片 against their lamp — so the screen is not empty
 * while the lamp is online, with or without the in-process simulator (which adds one an hour).
 */
export async function seedPestPhotos(db: Db, { storage }: SeedEnv) {
  const lamps = await db
    .select({ id: device.id, serial: device.serial })
    .from(device)
    .where(
      and(eq(device.tenantId, '000000'), eq(device.kind, DEVICE_KIND.pest), notDeleted(device.isDeleted)),
    );
  const now = Date.now();
  const last = now - (now % PHOTO_STEP_MS);
  const rows = [];
  for (const lamp of lamps)
    for (let at = last - PHOTO_DAYS * 86_400_000 + PHOTO_STEP_MS; at <= last; at += PHOTO_STEP_MS) {
      const name = `${randomUUID()}.png`;
      await storage.put(`${UPLOAD_KINDS.image.folder}/${name}`, trapPhoto(String(lamp.serial), at));
      rows.push({
        tenantId: '000000',
        createUser: SEED.adminUserId,
        createDept: SEED.rootDeptId,
        deviceId: lamp.id,
        takenAt: new Date(at),
        photo: `${UPLOAD_KINDS.image.served}${name}`,
      });
    }
  await insertAll(db, pestPhoto, rows);
}

/**
 * The under-performing string alarm (step `telemetry-string-alarm-v1`): installs seeded before it get the
 * `device_alarm_kind` item 组串异常 (fresh ones have it from `telemetry-v1`), and the check's two system
 * parameters (参数管理), each only where it is missing.
 */
export async function seedStringAlarm(db: Db) {
  const decl = TELEMETRY_DICTS.find((d) => d.code === 'device_alarm_kind')!;
  const item = decl.items.find((i) => i.key === ALARM_KIND.string)!;
  const [parent] = await db
    .select({ id: schema.dict.id })
    .from(schema.dict)
    .where(and(eq(schema.dict.code, decl.code), eq(schema.dict.parentId, '0')))
    .limit(1);
  if (parent) {
    const [has] = await db
      .select({ id: schema.dict.id })
      .from(schema.dict)
      .where(and(eq(schema.dict.parentId, parent.id), eq(schema.dict.dictKey, item.key)))
      .limit(1);
    if (!has)
      await db.insert(schema.dict).values({
        parentId: parent.id,
        code: decl.code,
        dictKey: item.key,
        dictValue: item.zh,
        dictValueEn: item.en,
        sort: Number(item.key),
      });
  }
  const { params, defaults } = STRING_ALARM;
  const wanted = [
    {
      paramName: '组串异常判定比例(%)',
      paramKey: params.deviation,
      paramValue: String(defaults.deviation),
      remark: '组串电流低于同机其他组串中位数超过此百分比即告警',
    },
    {
      paramName: '组串异常判定最小电流(A)',
      paramKey: params.minCurrent,
      paramValue: String(defaults.minCurrent),
      remark: '其他组串电流中位数低于此值(夜间、晨昏)时不判定',
    },
  ];
  await addMissingParams(db, wanted);
}
