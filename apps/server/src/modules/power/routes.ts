import {
  ALARM_STATE,
  CODE_TYPE,
  codeProblem,
  type EnergyOverview,
  EnergySum,
  fullLoadHours,
  INVERTER_STATE,
  type InverterLive,
  incomeByDays,
  POWER_SCREENS,
  powerStationResource,
  type StationLive,
  type StationYield,
  sumEnergy,
  type YieldGrain,
} from '@smart/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAnyPermission, requirePermission } from '../../platform/access/permissions';
import { type RequestContext, requireCtx } from '../../platform/auth/context';
import { answerKept } from '../../platform/crud/answers';
import { mountedResource, readableRows } from '../../platform/crud/refs';
import { insertRows } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { sendXlsx } from '../../platform/excel';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/paging';
import { rowsOf } from '../telemetry/ingest';
import { device, deviceAlarm, telemetryRollup, telemetryState } from '../telemetry/tables';
import { tariffVersions } from './hooks';
import { collectSetting, dataCollector, inverter, powerStation, powerTariff } from './tables';
import { dailyEnergy, dayLabel, dayStart, daysBetween, parseDay, periodEnergy, periodOf } from './yield';

/**
 * The stations' own calls over the telemetry core (dfem-hope-power): history of a station's yield
 * (`powerStationHisData/page`), the live page (`powerStation/live`, code `device_power`), the energy
 * overview (`powerStation/overview`) and the versioned collection settings (`code/get`, `code/submit`).
 * Every read is within the caller's reach of each resource it reads (readableRows).
 */

const STATION_CODE = powerStationResource.permission;
const HISTORY_CODES = [STATION_CODE, POWER_SCREENS.overview.code, POWER_SCREENS.live.code];

/** the tables the energy overview reads (what a kept overview is invalidated by) */
const OVERVIEW_READS = [powerStation, inverter, device, telemetryState, deviceAlarm, telemetryRollup];
/** the tables a station's yield reads */
const YIELD_READS = [powerStation, inverter, device, powerTariff, telemetryRollup];

const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));

/** a station the caller may read, or "not found" */
async function stationOf(db: Db, ctx: RequestContext, id: string) {
  const [row] = await db
    .select({
      id: powerStation.id,
      name: powerStation.name,
      capacity: powerStation.capacity,
      tariff: powerStation.tariff,
    })
    .from(powerStation)
    .where(and(await readableRows('powerStation', ctx), eq(powerStation.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return {
    id: String(row.id),
    name: String(row.name),
    capacity: Number(row.capacity),
    tariff: Number(row.tariff),
  };
}

/** The inverters of stations the caller may read, with their devices' state. */
async function invertersOf(db: Db, ctx: RequestContext, stationIds: string[]) {
  if (!stationIds.length) return [];
  return db
    .select({
      id: inverter.id,
      stationId: inverter.stationId,
      serial: inverter.serial,
      model: inverter.model,
      ratedPower: inverter.ratedPower,
      deviceId: inverter.deviceId,
      reportInterval: device.reportInterval,
      lastAt: telemetryState.lastAt,
      lastValues: telemetryState.lastValues,
    })
    .from(inverter)
    .leftJoin(device, and(eq(device.id, inverter.deviceId), eq(device.tenantId, inverter.tenantId)))
    .leftJoin(telemetryState, eq(telemetryState.deviceId, device.id))
    .where(and(await readableRows('inverter', ctx), inArray(inverter.stationId, stationIds)))
    .orderBy(asc(inverter.serial), asc(inverter.id));
}

/**
 * What the energy overview needs of each inverter of the stations: its station, counter device, rated power
 * and live power (the last `acPower` while it reports) — a fleet's 2 000 without their tiles' detail.
 */
async function inverterPowerOf(db: Db, ctx: RequestContext, stationIds: string[], now: number) {
  if (!stationIds.length) return [];
  // read as plain rows (no mapping of 2 000 rows into objects and dates): the overview's largest read
  const rows = rowsOf(
    await db.execute(sql`select ${inverter.stationId} as station_id, ${inverter.deviceId} as device_id,
        ${inverter.ratedPower} as rated_power, ${device.reportInterval} as report_interval,
        extract(epoch from ${telemetryState.lastAt}) * 1000 as last_at,
        ${telemetryState.lastValues}->>'acPower' as ac_power
      from ${inverter}
      left join ${device} on ${device.id} = ${inverter.deviceId} and ${device.tenantId} = ${inverter.tenantId}
      left join ${telemetryState} on ${telemetryState.deviceId} = ${device.id}
      where ${await readableRows('inverter', ctx)}
        and ${inverter.stationId} = any(${`{${stationIds.join(',')}}`}::bigint[])`),
  );
  return rows.map((r) => ({
    stationId: String(r.station_id),
    deviceId: r.device_id === null ? null : String(r.device_id),
    ratedPower: num(r.rated_power),
    power:
      r.device_id !== null &&
      r.ac_power !== null &&
      onlineAt(r.last_at === null ? null : Number(r.last_at), r.report_interval, now)
        ? Number(r.ac_power)
        : null,
  }));
}

const onlineAt = (lastAt: Date | string | number | null, interval: unknown, now: number) =>
  !!lastAt && now - new Date(lastAt).getTime() <= 3 * Math.max(10, Number(interval ?? 300)) * 1000;

/** An inverter's tile: "no data" (silent, or no device) is never a fault. */
function tileOf(r: Awaited<ReturnType<typeof invertersOf>>[number], now: number): InverterLive {
  const v = (r.lastValues ?? {}) as Record<string, number>;
  const online = r.deviceId !== null && onlineAt(r.lastAt, r.reportInterval, now);
  const state = v.inverterState;
  const status: InverterLive['status'] = !online
    ? 'noData'
    : state === INVERTER_STATE.fault
      ? 'fault'
      : state === INVERTER_STATE.standby
        ? 'standby'
        : 'ok';
  const today = r.lastAt && new Date(r.lastAt).getTime() >= dayStart(now);
  return {
    id: String(r.id),
    serial: String(r.serial),
    model: r.model ? String(r.model) : null,
    ratedPower: Number(r.ratedPower),
    deviceId: r.deviceId ? String(r.deviceId) : null,
    status,
    lastSeenAt: r.lastAt ? formatDateTime(new Date(r.lastAt)) : null,
    power: online ? (v.acPower ?? null) : null,
    energyToday: today ? (v.energyToday ?? null) : null,
    temperature: online ? (v.inverterTemperature ?? null) : null,
  };
}

/** today's energy per station (from the counters), by station id */
async function todayEnergy(db: Db, invs: Awaited<ReturnType<typeof invertersOf>>) {
  const withDevice = invs.filter((i) => i.deviceId);
  const now = Date.now();
  const energies = await dailyEnergy(
    db,
    withDevice.map((i) => ({ deviceId: String(i.deviceId), ratedPower: num(i.ratedPower) })),
    [dayStart(now)],
  );
  const byStation = new Map<string, (number | null)[]>();
  for (const i of withDevice) {
    const s = String(i.stationId);
    let list = byStation.get(s);
    if (!list) {
      list = [];
      byStation.set(s, list);
    }
    list.push(energies.get(String(i.deviceId))?.[0]?.energy ?? null);
  }
  return new Map([...byStation.entries()].map(([s, xs]) => [s, sumEnergy(xs)]));
}

const HisQuery = PageQuery.extend({
  stationId: idString,
  /** one inverter of the station only */
  inverterId: idString.optional(),
  grain: z.enum(['day', 'month', 'year']).default('day'),
  /** YYYY-MM-DD, both included; defaults: this month (day), this year (month), the last five years (year) */
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
}).strict();

/** The default range of a grain, as days (YYYY-MM-DD, both included). */
function defaultRange(grain: YieldGrain): [string, string] {
  const today = dayLabel(dayStart(Date.now()));
  if (grain === 'day') return [`${today.slice(0, 7)}-01`, today];
  if (grain === 'month') return [`${today.slice(0, 4)}-01-01`, today];
  return [`${Number(today.slice(0, 4)) - 4}-01-01`, today];
}

const CodeQuery = z.object({ type: z.string().regex(/^\d{1,2}$/) }).strict();
const CodeBody = z
  .object({ type: z.string().regex(/^\d{1,2}$/), content: z.unknown(), note: z.string().max(200).optional() })
  .strict();

export async function powerRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  /** A station's yield by day, month or year (the query of the history page and its export). */
  async function stationHistory(req: FastifyRequest, query: unknown) {
    const ctx = requireCtx(req);
    const q = HisQuery.safeParse(query);
    if (!q.success)
      throw new FieldInputError(String(q.error.issues[0].path[0] ?? 'query'), {
        zh: '查询参数无效',
        en: 'Invalid query',
      });
    const { stationId, grain } = q.data;
    const [dFrom, dTo] = defaultRange(grain);
    const from = parseDay(q.data.from ?? dFrom);
    const to = dayStart(parseDay(q.data.to ?? dTo) + 30 * 3_600_000);
    if (from >= to || to - from > 11 * 366 * 86_400_000)
      throw new FieldInputError('from', {
        zh: '时间范围无效(最长十年)',
        en: 'Invalid range (ten years at most)',
      });
    const station = await stationOf(db, ctx, stationId);
    const invs = (await invertersOf(db, ctx, [stationId])).filter(
      (i) => i.deviceId && (!q.data.inverterId || String(i.id) === q.data.inverterId),
    );
    if (q.data.inverterId && !invs.length) throw notFound();
    const days = daysBetween(from, to);
    const energies = await dailyEnergy(
      db,
      invs.map((i) => ({ deviceId: String(i.deviceId), ratedPower: num(i.ratedPower) })),
      days,
    );
    // income: each day at the tariff in force that day, to the cent, summed per period (as a profit's)
    const versions = await tariffVersions(db, ctx, stationId);
    const byDay = periodEnergy(days, energies, 'day');
    const incomes = new Map<string, number>();
    for (const [day, energy] of byDay) {
      if (energy === null) continue;
      const p = periodOf(day, grain);
      incomes.set(p, (incomes.get(p) ?? 0) + incomeByDays([[day, energy]], versions, station.tariff).cents);
    }
    const rows: StationYield[] = periodEnergy(days, energies, grain).map(([period, energy]) => ({
      period,
      energy,
      fullLoadHours: fullLoadHours(energy, q.data.inverterId ? num(invs[0].ratedPower) : station.capacity),
      income: energy === null ? null : (incomes.get(period) ?? 0) / 100,
    }));
    return { q: q.data, station, rows };
  }

  /** A station's yield by day, month or year: energy, full-load hours, income at the tariffs in force. */
  app.get('/powerStationHisData/page', async (req, reply) => {
    await requireAnyPermission(db, req, HISTORY_CODES);
    return answerKept(req, reply, db, requireCtx(req), YIELD_READS, async () => {
      const { q, station, rows } = await stationHistory(req, req.query);
      return {
        ...pageOf(rows, q),
        station,
        grain: q.grain,
        // `total` is the page's (how many periods): the range's energy has a name of its own
        energyTotal: sumEnergy(rows.map((r) => r.energy)),
      };
    });
  });

  /** The same history as an Excel workbook (every period of the range, no paging). */
  app.get('/powerStationHisData/export', async (req, reply) => {
    await requireAnyPermission(db, req, HISTORY_CODES);
    const { station, rows } = await stationHistory(req, {
      ...(req.query as object),
      current: '1',
      size: '10',
    });
    const en = req.lang === 'en';
    async function* all() {
      yield rows as unknown as Record<string, unknown>[];
    }
    await sendXlsx(
      reply,
      `${station.name}-${en ? 'energy' : '发电量'}`,
      [
        { key: 'period', header: en ? 'Period' : '时间', width: 14 },
        { key: 'energy', header: en ? 'Energy (kWh)' : '发电量(kWh)' },
        { key: 'fullLoadHours', header: en ? 'Full-load hours' : '等效利用小时' },
        { key: 'income', header: en ? 'Income (CNY)' : '收益(元)' },
      ],
      all(),
    );
    return reply;
  });

  /**
   * The live page of one station (`id`; without it the first the caller may read, null when none): its
   * collectors and inverters as the core last heard them, and the stations the page may pick from.
   */
  app.get('/powerStation/live', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, POWER_SCREENS.live.code);
    const q = z.object({ id: idString.optional() }).strict().safeParse(req.query);
    if (!q.success) throw new FieldInputError('id', { zh: '请选择电站', en: 'Choose a station' });
    // the stations the page may pick from; without an id, the first of them
    const stations = (
      await db
        .select({ id: powerStation.id, name: powerStation.name })
        .from(powerStation)
        .where(await readableRows('powerStation', ctx))
        .orderBy(asc(powerStation.name), asc(powerStation.id))
        .limit(500)
    ).map((r) => ({ id: String(r.id), name: String(r.name) }));
    const id = q.data.id ?? stations[0]?.id;
    if (!id) return ok(req, null);
    const station = await stationOf(db, ctx, id);
    const now = Date.now();
    const [invs, collectors] = await Promise.all([
      invertersOf(db, ctx, [station.id]),
      db
        .select({
          id: dataCollector.id,
          serial: dataCollector.serial,
          deviceId: dataCollector.deviceId,
          reportInterval: device.reportInterval,
          lastAt: telemetryState.lastAt,
          lastValues: telemetryState.lastValues,
        })
        .from(dataCollector)
        .leftJoin(
          device,
          and(eq(device.id, dataCollector.deviceId), eq(device.tenantId, dataCollector.tenantId)),
        )
        .leftJoin(telemetryState, eq(telemetryState.deviceId, device.id))
        .where(and(await readableRows('dataCollector', ctx), eq(dataCollector.stationId, station.id)))
        .orderBy(asc(dataCollector.serial)),
    ]);
    const inverters = invs.map((r) => tileOf(r, now));
    const today = await todayEnergy(db, invs);
    const answer: StationLive = {
      stations,
      id: station.id,
      name: station.name,
      capacity: station.capacity,
      power: Math.round(inverters.reduce((a, i) => a + (i.power ?? 0), 0) * 100) / 100,
      energyToday: today.get(station.id) ?? null,
      collectors: collectors.map((c) => ({
        id: String(c.id),
        serial: String(c.serial),
        deviceId: c.deviceId ? String(c.deviceId) : null,
        online: c.deviceId !== null && onlineAt(c.lastAt, c.reportInterval, now),
        lastSeenAt: c.lastAt ? formatDateTime(new Date(c.lastAt)) : null,
        signal: ((c.lastValues ?? {}) as Record<string, number>).signalStrength ?? null,
      })),
      inverters,
    };
    return ok(req, answer);
  });

  /** The energy overview: every station's power and today's energy, this month's yield, the ranking. */
  app.get('/powerStation/overview', async (req, reply) => {
    await requirePermission(db, req, POWER_SCREENS.overview.code);
    return answerKept(req, reply, db, requireCtx(req), OVERVIEW_READS, () => energyOverview(requireCtx(req)));
  });

  /** The overview's figures for a caller: what the stations, inverters, alarms and roll-ups now say. */
  async function energyOverview(ctx: RequestContext): Promise<EnergyOverview> {
    const stations = await db
      .select({ id: powerStation.id, name: powerStation.name, capacity: powerStation.capacity })
      .from(powerStation)
      .where(await readableRows('powerStation', ctx))
      .orderBy(asc(powerStation.name))
      .limit(500);
    const ids = stations.map((s) => String(s.id));
    const now = Date.now();
    const invs = await inverterPowerOf(db, ctx, ids, now);
    const monthStart = parseDay(`${dayLabel(dayStart(now)).slice(0, 7)}-01`);
    const days = daysBetween(monthStart, now);
    // one read of the month's counters: today is its last day
    const withDevice = invs.filter((i) => i.deviceId);
    const devices = withDevice.map((i) => String(i.deviceId));
    // the open alarms are counted while the counters are read
    const alarmsCounted = devices.length
      ? db
          .select({ n: sql<number>`count(*)::int` })
          .from(deviceAlarm)
          .where(
            and(
              await readableRows('deviceAlarm', ctx),
              sql`${deviceAlarm.deviceId} = any(${`{${devices.join(',')}}`}::bigint[])`,
              sql`${deviceAlarm.state} <> ${ALARM_STATE.closed}`,
            ),
          )
      : Promise.resolve([{ n: 0 }]);
    const [energies, [alarms]] = await Promise.all([
      dailyEnergy(
        db,
        withDevice.map((i) => ({ deviceId: String(i.deviceId), ratedPower: i.ratedPower })),
        days,
      ),
      alarmsCounted,
    ]);
    const month = periodEnergy(days, energies, 'day');
    const byStation = new Map<string, typeof invs>();
    for (const i of invs) {
      const sid = String(i.stationId);
      const list = byStation.get(sid);
      if (list) list.push(i);
      else byStation.set(sid, [i]);
    }
    // each station's month and today, in one pass over its inverters' days
    const stationMonth = new Map<string, EnergySum>();
    const stationToday = new Map<string, EnergySum>();
    for (const i of withDevice) {
      const e = energies.get(String(i.deviceId)) ?? [];
      if (!stationMonth.has(i.stationId)) {
        stationMonth.set(i.stationId, new EnergySum());
        stationToday.set(i.stationId, new EnergySum());
      }
      const month = stationMonth.get(i.stationId) as EnergySum;
      for (const x of e) month.add(x.energy);
      stationToday.get(i.stationId)?.add(e[days.length - 1]?.energy);
    }
    const rows = stations.map((s) => {
      const id = String(s.id);
      const power = (byStation.get(id) ?? []).reduce((a, i) => a + (i.power ?? 0), 0);
      return {
        id,
        name: String(s.name),
        capacity: Number(s.capacity),
        power: Math.round(power * 100) / 100,
        energyToday: stationToday.get(id)?.value ?? null,
      };
    });
    const answer: EnergyOverview = {
      stations: rows,
      power: Math.round(rows.reduce((a, r) => a + r.power, 0) * 100) / 100,
      energyToday: sumEnergy(rows.map((r) => r.energyToday)),
      month,
      ranking: rows
        .map((r) => ({
          id: r.id,
          name: r.name,
          hours: fullLoadHours(stationMonth.get(r.id)?.value ?? null, r.capacity),
        }))
        .sort((a, b) => (b.hours ?? -1) - (a.hours ?? -1)),
      openAlarms: Number(alarms?.n ?? 0),
    };
    return answer;
  }

  /** The latest collection settings of a type (null before the first submit). */
  app.get('/code/get', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'power_code');
    const q = CodeQuery.safeParse(req.query);
    if (!q.success) throw new FieldInputError('type', { zh: '请选择配置类型', en: 'Choose a settings type' });
    const [row] = await db
      .select({
        id: collectSetting.id,
        type: collectSetting.type,
        version: collectSetting.version,
        content: collectSetting.content,
        note: collectSetting.note,
        createTime: collectSetting.createTime,
      })
      .from(collectSetting)
      .where(and(await readableRows('collectSetting', ctx), eq(collectSetting.type, q.data.type)))
      .orderBy(desc(collectSetting.version))
      .limit(1);
    if (!row) return ok(req, null);
    return ok(req, {
      id: String(row.id),
      type: row.type,
      version: Number(row.version),
      content: JSON.parse(String(row.content)),
      note: row.note ?? null,
      createTime: row.createTime ? formatDateTime(new Date(row.createTime as string)) : null,
    });
  });

  /**
   * A new version of a type's settings: checked against the type's schema (CODE_SCHEMAS), numbered one past
   * the tenant's latest of that type (a transaction-scoped lock per tenant and type: two submits at once
   * get two numbers), written through the versions' own write path.
   */
  app.post('/code/submit', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'power_code_submit');
    const b = CodeBody.safeParse(req.body ?? {});
    if (!b.success)
      throw new FieldInputError(String(b.error.issues[0].path[0] ?? 'content'), {
        zh: '采集配置无效',
        en: 'Invalid settings',
      });
    const content = typeof b.data.content === 'string' ? safeJson(b.data.content) : b.data.content;
    if (!Object.values(CODE_TYPE).includes(b.data.type as never))
      throw new FieldInputError('type', { zh: '采集配置类型无效', en: 'Unknown settings type' });
    const problem = codeProblem(b.data.type, content);
    if (problem) throw new FieldInputError('content', problem);
    const m = mountedResource('collectSetting');
    const written = await db.transaction(async (tx0) => {
      const tx = tx0 as unknown as Db;
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`power-code:${ctx.tenantId}:${b.data.type}`}))`,
      );
      const [top] = await tx
        .select({ v: sql<number>`coalesce(max(${collectSetting.version}), 0)::int` })
        .from(collectSetting)
        .where(and(eq(collectSetting.tenantId, ctx.tenantId), eq(collectSetting.type, b.data.type)));
      const version = Number(top?.v ?? 0) + 1;
      const [w] = await insertRows(
        m,
        ctx,
        tx,
        [{ type: b.data.type, version, content: JSON.stringify(content), note: b.data.note ?? null }],
        { answer: true },
      );
      return { id: String(w.row.id), version };
    });
    m.changed();
    return ok(req, { ...written, type: b.data.type });
  });
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
