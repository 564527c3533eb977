import {
  ALARM_KIND,
  ALARM_STATE,
  alarmText,
  judgeStrings,
  metricByCode,
  SMS_PARAM_MAX,
  STRING_ALARM,
  stringDeviationOf,
} from '@smart/contracts';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type RequestContext, serverActor } from '../../platform/auth/context';
import { mountedResource, readableRows } from '../../platform/crud/refs';
import { insertRows } from '../../platform/crud/write';
import { type Db, schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { notDeleted } from '../../platform/sql';
import { flowNotice } from '../flow/tables';
import { queueSms } from '../resource/sms/send';
import { paramNumber } from '../system/params';
import type { Crossing, StringReading } from './ingest';
import { deviceAlarm, device as deviceTable } from './tables';

/**
 * Device alarms: rows of the `deviceAlarm` resource, written by the server through the engine's write path.
 *
 * - A threshold alarm is raised by the batch holding the first reading past a threshold, unless that device's
 *   metric already has one open (neither recovered nor closed). Servers take a transaction-scoped advisory
 *   lock per device and metric before they look, so two servers never raise the same alarm twice.
 * - It recovers (`recoveredAt`) when a later reading is back within the thresholds; an offline alarm
 *   recovers when the device reports again. A person acknowledges and closes it, with a note.
 * - The device's responsible person gets a notice when an alarm is raised, if their data scope on devices
 *   lets them see the device (alarms, their counts and notices follow the devices' scope).
 */

/** The server acting on a tenant's rows (no person): alarms it raises are written as its own. */
export const telemetryActor = (tenantId: string): RequestContext => serverActor(tenantId, 'telemetry');

const alarmResource = () => mountedResource('deviceAlarm');

/**
 * Open alarms of a kind (device|metric), as this server last read them: a batch stamps recoveries only
 * for these instead of asking about every metric it carried. Read again every few seconds, so an alarm
 * another server raised is known here soon after.
 */
const openCaches = new Map<string, { keys: Set<string>; until: number }>();
const OPEN_TTL_MS = 5_000;

async function openAlarms(tx: Db, kind: string): Promise<Set<string>> {
  const hit = openCaches.get(kind);
  if (hit && hit.until > Date.now()) return hit.keys;
  const rows = await tx
    .select({ deviceId: deviceAlarm.deviceId, metric: deviceAlarm.metric })
    .from(deviceAlarm)
    .where(
      and(
        eq(deviceAlarm.kind, kind),
        ne(deviceAlarm.state, ALARM_STATE.closed),
        isNull(deviceAlarm.recoveredAt),
        notDeleted(deviceAlarm.isDeleted),
      ),
    );
  const keys = new Set(rows.map((r) => `${r.deviceId}|${r.metric}`));
  openCaches.set(kind, { keys, until: Date.now() + OPEN_TTL_MS });
  return keys;
}

/** Readings back within the thresholds, and devices reporting again: their open alarms recover. */
export async function stampRecoveries(
  tx: Db,
  backOnline: string[],
  within: { deviceId: string; metric: string; at: number }[],
) {
  const open = await openAlarms(tx, ALARM_KIND.threshold);
  const recovered = within.filter((w) => open.has(`${w.deviceId}|${w.metric}`));
  for (const w of recovered) {
    await tx
      .update(deviceAlarm)
      .set({ recoveredAt: new Date(w.at), updateTime: new Date() } as never)
      .where(
        and(
          eq(deviceAlarm.deviceId, w.deviceId),
          eq(deviceAlarm.metric, w.metric),
          eq(deviceAlarm.kind, ALARM_KIND.threshold),
          isNull(deviceAlarm.recoveredAt),
          sql`${deviceAlarm.raisedAt} <= ${new Date(w.at)}`,
        ),
      );
    open.delete(`${w.deviceId}|${w.metric}`);
  }
  if (backOnline.length)
    await tx
      .update(deviceAlarm)
      .set({ recoveredAt: new Date(), updateTime: new Date() } as never)
      .where(
        and(
          inArray(deviceAlarm.deviceId, backOnline),
          eq(deviceAlarm.kind, ALARM_KIND.offline),
          isNull(deviceAlarm.recoveredAt),
        ),
      );
  if (recovered.length || backOnline.length) alarmResource().changed();
}

/** advisory lock keys: one per device and metric (the metric's number; 0 for "offline") */
const lockOf = (deviceId: string, metric: number) =>
  sql`pg_advisory_xact_lock(${deviceId}::bigint # ${metric}::bigint)`;

/** Raises the batch's threshold alarms that are not open yet (inside the batch's transaction). */
export async function raiseThresholdAlarms(tx: Db, crossings: Crossing[]) {
  const sorted = [...crossings].sort((a, b) =>
    a.device.id === b.device.id ? a.metric.id - b.metric.id : a.device.id < b.device.id ? -1 : 1,
  );
  for (const c of sorted) await tx.execute(sql`select ${lockOf(c.device.id, c.metric.id)}`);
  const open = await tx
    .select({ deviceId: deviceAlarm.deviceId, metric: deviceAlarm.metric })
    .from(deviceAlarm)
    .where(
      and(
        inArray(
          deviceAlarm.deviceId,
          sorted.map((c) => c.device.id),
        ),
        eq(deviceAlarm.kind, ALARM_KIND.threshold),
        ne(deviceAlarm.state, ALARM_STATE.closed),
        isNull(deviceAlarm.recoveredAt),
        notDeleted(deviceAlarm.isDeleted),
      ),
    );
  const isOpen = new Set(open.map((o) => `${o.deviceId}|${o.metric}`));
  const fresh = sorted.filter((c) => !isOpen.has(`${c.device.id}|${c.metric.code}`));
  const cached = openCaches.get(ALARM_KIND.threshold);
  for (const c of fresh) {
    await writeAlarm(tx, c.device, {
      kind: ALARM_KIND.threshold,
      metric: c.metric.code,
      value: String(c.value),
      threshold: String(c.threshold),
      at: c.at,
    });
    cached?.keys.add(`${c.device.id}|${c.metric.code}`);
  }
}

/** the string check's settings (system parameters), read again every half minute */
let stringSettings: { deviation: number; minCurrent: number; until: number } | undefined;
async function stringSettingsOf(tx: Db) {
  if (stringSettings && stringSettings.until > Date.now()) return stringSettings;
  const { params, defaults } = STRING_ALARM;
  const deviation = await paramNumber(tx, params.deviation, defaults.deviation);
  stringSettings = {
    deviation: deviation < 100 ? deviation : defaults.deviation,
    minCurrent: await paramNumber(tx, params.minCurrent, defaults.minCurrent),
    until: Date.now() + 30_000,
  };
  return stringSettings;
}

/**
 * The under-performing string check of the batch's inverters (inside its transaction), on each inverter's
 * latest string currents: a string below its siblings' median by more than the set share (while that
 * median is meaningful) raises one `string` alarm per device and string until it is back in line, when it
 * recovers. Costs nothing more than the settings' and the open alarms' cached reads while all is well.
 */
export async function judgeStringAlarms(tx: Db, readings: StringReading[]) {
  const { deviation, minCurrent } = await stringSettingsOf(tx);
  const low: { r: StringReading; metric: string; value: number; floor: number }[] = [];
  const fine: { r: StringReading; metric: string }[] = [];
  for (const r of readings)
    for (const j of judgeStrings(r.currents, stringDeviationOf(r.device.thresholds, deviation), minCurrent))
      if (j.low) low.push({ r, metric: j.metric, value: j.value, floor: j.floor });
      else fine.push({ r, metric: j.metric });
  if (!low.length && !fine.length) return;
  const open = await openAlarms(tx, ALARM_KIND.string);
  let changed = false;
  for (const f of fine) {
    const key = `${f.r.device.id}|${f.metric}`;
    if (!open.has(key)) continue;
    await tx
      .update(deviceAlarm)
      .set({ recoveredAt: new Date(f.r.at), updateTime: new Date() } as never)
      .where(
        and(
          eq(deviceAlarm.deviceId, f.r.device.id),
          eq(deviceAlarm.metric, f.metric),
          eq(deviceAlarm.kind, ALARM_KIND.string),
          isNull(deviceAlarm.recoveredAt),
          sql`${deviceAlarm.raisedAt} <= ${new Date(f.r.at)}`,
        ),
      );
    open.delete(key);
    changed = true;
  }
  if (changed) alarmResource().changed();
  // the ones this server knows open are left; the others are looked at under a lock per device and string
  const fresh = low
    .filter((l) => !open.has(`${l.r.device.id}|${l.metric}`))
    .sort((a, b) =>
      a.r.device.id === b.r.device.id
        ? a.metric.localeCompare(b.metric)
        : a.r.device.id < b.r.device.id
          ? -1
          : 1,
    );
  if (!fresh.length) return;
  for (const l of fresh)
    await tx.execute(sql`select ${lockOf(l.r.device.id, STRING_LOCK + metricByCode.get(l.metric)!.id)}`);
  const already = await tx
    .select({ deviceId: deviceAlarm.deviceId, metric: deviceAlarm.metric })
    .from(deviceAlarm)
    .where(
      and(
        inArray(
          deviceAlarm.deviceId,
          fresh.map((l) => l.r.device.id),
        ),
        eq(deviceAlarm.kind, ALARM_KIND.string),
        ne(deviceAlarm.state, ALARM_STATE.closed),
        isNull(deviceAlarm.recoveredAt),
        notDeleted(deviceAlarm.isDeleted),
      ),
    );
  const isOpen = new Set(already.map((o) => `${o.deviceId}|${o.metric}`));
  for (const l of fresh) {
    const key = `${l.r.device.id}|${l.metric}`;
    if (isOpen.has(key)) {
      open.add(key);
      continue;
    }
    await writeAlarm(tx, l.r.device, {
      kind: ALARM_KIND.string,
      metric: l.metric,
      value: String(l.value),
      threshold: String(l.floor),
      at: l.r.at,
    });
    isOpen.add(key);
    open.add(key);
  }
}

/** the string check's locks are apart from the threshold alarms' of the same metric */
const STRING_LOCK = 1_000;

/** Writes one alarm through the engine's write path, and tells the device's responsible person. */
async function writeAlarm(
  tx: Db,
  dev: { id: string; tenantId: string; name: string; responsibleId: string | null },
  a: { kind: string; metric?: string; value?: string; threshold?: string; at: number },
) {
  const m = alarmResource();
  const [written] = await insertRows(
    m,
    telemetryActor(dev.tenantId),
    tx,
    [
      {
        deviceId: dev.id,
        kind: a.kind,
        metric: a.metric ?? null,
        value: a.value ?? null,
        threshold: a.threshold ?? null,
        state: ALARM_STATE.raised,
        raisedAt: formatDateTime(new Date(a.at)),
      },
    ],
    { answer: true },
  );
  if (dev.responsibleId && (await reachesDevice(tx, dev.tenantId, dev.responsibleId, dev.id))) {
    const row = { kind: a.kind, metric: a.metric, value: a.value, threshold: a.threshold };
    await tx.insert(flowNotice).values({
      tenantId: dev.tenantId,
      userId: dev.responsibleId,
      // the notices list names what a notice is about: here an alarm, not a process
      processInstanceId: `device-alarm:${written.row.id}`,
      title: `设备告警:${dev.name} ${alarmText(row, 'zh')}`.slice(0, 255),
      titleEn: `Device alarm: ${dev.name} ${alarmText(row, 'en')}`.slice(0, 255),
    });
    // and a text message, when the tenant has an SMS config enabled (sent once this commits: the outbox)
    const [person] = await tx
      .select({ phone: schema.user.phone })
      .from(schema.user)
      .where(eq(schema.user.id, dev.responsibleId));
    if (person?.phone && /^1[3-9]\d{9}$/.test(person.phone))
      await queueSms(tx, dev.tenantId, person.phone, {
        device: dev.name.slice(0, SMS_PARAM_MAX),
        metric: (a.metric ?? a.kind).slice(0, SMS_PARAM_MAX),
        value: a.value ?? '',
        threshold: a.threshold ?? '',
        time: formatDateTime(new Date(a.at)),
      });
  }
  m.changed();
}

/**
 * Whether a user may see a device as a request of theirs would: a live account of the device's tenant,
 * whose live roles' data scope on devices (with any of their departments) lets the device through. An
 * alarm's notice goes to the device's responsible person only then: notices follow the devices' scope.
 */
async function reachesDevice(tx: Db, tenantId: string, userId: string, deviceId: string): Promise<boolean> {
  const [person] = await tx
    .select({ id: schema.user.id })
    .from(schema.user)
    .where(
      and(
        eq(schema.user.id, userId),
        eq(schema.user.tenantId, tenantId),
        eq(schema.user.status, 1),
        notDeleted(schema.user.isDeleted),
      ),
    )
    .limit(1);
  if (!person) return false;
  const roles = await tx
    .select({ id: schema.userRole.roleId })
    .from(schema.userRole)
    .innerJoin(schema.role, eq(schema.role.id, schema.userRole.roleId))
    .where(
      and(
        eq(schema.userRole.userId, userId),
        eq(schema.role.tenantId, tenantId),
        notDeleted(schema.role.isDeleted),
      ),
    );
  const depts = await tx
    .select({ id: schema.userDept.deptId })
    .from(schema.userDept)
    .where(eq(schema.userDept.userId, userId));
  for (const dept of depts.length ? depts.map((d) => String(d.id)) : ['']) {
    const ctx = {
      tenantId,
      userId,
      deptId: dept,
      roleIds: roles.map((r) => String(r.id)),
      account: '',
      clientId: 'telemetry',
    } as unknown as RequestContext;
    const [hit] = await tx
      .select({ id: deviceTable.id })
      .from(deviceTable)
      .where(and(eq(deviceTable.id, deviceId), await readableRows('device', ctx, tx)))
      .limit(1);
    if (hit) return true;
  }
  return false;
}

/**
 * The offline check (every TELEMETRY_OFFLINE_CHECK_MS on every server): devices whose last reading is older
 * than three report intervals and not yet known silent are marked so and get an offline alarm — each once:
 * the state rows are claimed with FOR UPDATE SKIP LOCKED, so of two servers exactly one takes a device.
 */
export async function raiseOfflineAlarms(db: Db, log?: FastifyBaseLogger): Promise<number> {
  try {
    return await db.transaction(async (tx0) => {
      const tx = tx0 as unknown as Db;
      const silent = await tx.execute(sql`select d.id, d.tenant_id, d.name, d.responsible_id
        from telemetry_state s join ${deviceTable} d on d.id = s.device_id
        where s.offline = 0 and d.is_deleted = 0
          and s.last_at < now() - make_interval(secs => 3 * greatest(coalesce(d.report_interval, 300), 10))
        order by s.device_id
        limit 500
        for update of s skip locked`);
      const rows =
        (silent as { rows?: Record<string, unknown>[] }).rows ??
        (silent as unknown as Record<string, unknown>[]);
      if (!rows.length) return 0;
      const ids = rows.map((r) => String(r.id));
      await tx.execute(
        sql`update telemetry_state set offline = 1 where device_id = any(${`{${ids.join(',')}}`}::bigint[])`,
      );
      for (const r of rows)
        await writeAlarm(
          tx,
          {
            id: String(r.id),
            tenantId: String(r.tenant_id),
            name: String(r.name),
            responsibleId: r.responsible_id ? String(r.responsible_id) : null,
          },
          { kind: ALARM_KIND.offline, at: Date.now() },
        );
      return rows.length;
    });
  } catch (err) {
    log?.error({ err }, 'telemetry offline check failed');
    return 0;
  }
}
