import { randomBytes } from 'node:crypto';
import {
  ALARM_STATE,
  checkThresholds,
  DEFAULT_TIME_ZONE,
  DEVICE_KINDS,
  type DeviceKindKey,
  metricByCode,
  metricById,
  POWER_SCREENS,
  TELEMETRY_SCREENS,
} from '@smart/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { transaction, updateRow } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { schema } from '../../platform/db';
import { sendXlsx } from '../../platform/excel';
import { formatDateTime, formatInstant } from '../../platform/format';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { qualified } from '../../platform/sql';
import { connectPassword, deviceIdentity } from './broker';
import { historyOf } from './history';
import { forgetDevices } from './ingest';
import { readingsOf } from './readings';
import { device, deviceAlarm, telemetryChunk, telemetryRollup, telemetryState } from './tables';

/** What differs from the engine's pattern in the telemetry core's resources. */

/** the permission suffixes of `device` that may read a device's readings: its list and the monitoring screens */
export const READING_CODES = [
  '',
  ...Object.values(TELEMETRY_SCREENS).map((s) => s.code.replace(/^device/, '')),
  // the PV stations' live page (`device_power`): its power curves are the inverters' histories
  POWER_SCREENS.live.code.replace(/^device/, ''),
];

/** A device's secret: 32 random bytes, URL-safe; shown once, when made. */
const newSecret = () => randomBytes(32).toString('base64url');

/**
 * What a device needs to connect to the embedded broker, answered once beside its secret: client id and
 * username (its identity), the connect password derived from the secret, and the topic it publishes to.
 */
function connectInfo(tenantId: string, kind: string, serial: string, secret: string) {
  const identity = deviceIdentity(tenantId, kind, serial);
  return {
    clientId: identity,
    username: identity,
    password: connectPassword(secret, identity),
    topic: `${identity}/up`,
  };
}

/** what a device's row answers beside its columns: what its readings say */
const live = {
  lastSeenAt: sql`(select to_char(s.last_at at time zone ${process.env.TZ || DEFAULT_TIME_ZONE}, 'YYYY-MM-DD HH24:MI:SS') from ${telemetryState} s where s.device_id = ${qualified(device.id)})`,
  online: sql`(select case when s.last_at >= now() - make_interval(secs => 3 * greatest(coalesce(${qualified(device.reportInterval)}, 300), 10)) then 1 else 0 end from ${telemetryState} s where s.device_id = ${qualified(device.id)})`,
  lastValues: sql`(select s.last_values from ${telemetryState} s where s.device_id = ${qualified(device.id)})`,
};

/** The time range of a history or an export: ms since the epoch or ISO texts; at most ~13 months. */
const range = z
  .object({
    deviceId: idString,
    metric: z.string().max(40).optional(),
    from: z.coerce.number().int().positive().optional(),
    to: z.coerce.number().int().positive().optional(),
    points: z.coerce.number().int().min(10).max(2000).optional(),
  })
  .strict();

function rangeOf(q: { from?: number; to?: number }) {
  const to = q.to ?? Date.now();
  const from = q.from ?? to - 86_400_000;
  if (from >= to || to - from > 400 * 86_400_000)
    throw new FieldInputError('from', {
      zh: '时间范围无效(最长 400 天)',
      en: 'Invalid time range (400 days at most)',
    });
  return { from, to };
}

/** the device within the caller's reach, or "not found" */
async function reachableDevice(db: Db, scope: ReturnType<typeof sql>, id: string) {
  const [row] = await db
    .select({ id: device.id, kind: device.kind, name: device.name, serial: device.serial })
    .from(device)
    .where(and(scope, eq(device.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return {
    id: String(row.id),
    kind: String(row.kind) as DeviceKindKey,
    name: String(row.name),
    serial: String(row.serial),
  };
}

function metricOf(kind: DeviceKindKey, code: string | undefined) {
  const metrics = DEVICE_KINDS[kind]?.metrics ?? [];
  const name = code ?? metrics[0];
  if (!name || !metrics.includes(name))
    throw new FieldInputError('metric', { zh: '该设备没有这个指标', en: 'The device has no such metric' });
  return metricByCode.get(name)!;
}

/** `deviceManage/history`: one metric of a device as a chart's points (history.ts). */
const historyEndpoint = endpoint({
  method: 'GET',
  path: 'history',
  codeSuffix: READING_CODES,
  query: range,
  // what historyOf reads (readings.ts: raw and compacted readings; the roll-ups for long ranges)
  keptWhileUnchanged: [device, 'telemetry_reading', telemetryChunk, telemetryRollup],
  async handler({ resource, scope, query }) {
    const dev = await reachableDevice(resource.db, scope, query.deviceId);
    const metric = metricOf(dev.kind, query.metric);
    const { from, to } = rangeOf(query);
    return historyOf(resource.db, dev.id, metric, from, to, query.points ?? 1000);
  },
});

const EXPORT_MAX = 1_000_000;
/** `deviceManage/readings/export`: a device's raw readings over a range, streamed as Excel. */
const readingsExportEndpoint = endpoint({
  method: 'GET',
  path: 'readings/export',
  codeSuffix: READING_CODES,
  query: range.omit({ points: true }),
  async handler({ req, reply, resource, scope, query }) {
    const dev = await reachableDevice(resource.db, scope, query.deviceId);
    const metrics = (DEVICE_KINDS[dev.kind]?.metrics ?? []).map((c) => metricByCode.get(c)!);
    const wanted = query.metric ? [metricOf(dev.kind, query.metric)] : metrics;
    const { from, to } = rangeOf(query);
    const tz = process.env.TZ || 'Asia/Shanghai';
    const en = req.lang === 'en';
    const db = resource.db;
    async function* batches() {
      let after = from - 1;
      let sent = 0;
      while (sent < EXPORT_MAX) {
        const rows = await readingsOf(
          db,
          dev.id,
          wanted.map((m) => m.id),
          after,
          to,
          5000,
        );
        if (!rows.length) return;
        sent += rows.length;
        // the next page starts after the last whole millisecond read (readings of one instant stay together)
        const last = rows[rows.length - 1].at;
        const whole = rows.length === 5000 ? rows.filter((r) => r.at < last) : rows;
        after = whole.length ? whole[whole.length - 1].at : last;
        yield whole.map((r) => {
          const m = metricById.get(r.metric)!;
          return {
            at: formatInstant(r.at, tz),
            metric: en ? m.label.en : m.label.zh,
            value: r.value,
            unit: m.unit,
          };
        });
        if (!whole.length) return;
      }
    }
    await sendXlsx(
      reply,
      `${dev.serial}-${en ? 'readings' : '读数'}`,
      [
        { key: 'at', header: en ? 'Time' : '时间', width: 22 },
        { key: 'metric', header: en ? 'Metric' : '指标' },
        { key: 'value', header: en ? 'Value' : '数值' },
        { key: 'unit', header: en ? 'Unit' : '单位', width: 10 },
      ],
      batches(),
    );
    return reply;
  },
});

/** `deviceManage/secret` (POST `{ id }`): a new secret for a device, shown once; the old one stops working. */
const secretEndpoint = endpoint({
  method: 'POST',
  path: 'secret',
  codeSuffix: '_edit',
  query: z.object({}).strict(),
  body: z.object({ id: idString }).strict(),
  async handler({ reply, ctx, resource, scope, body }) {
    const dev = await reachableDevice(resource.db, scope, body.id);
    const secret = newSecret();
    await transaction(resource.db, (tx) => resource.patch(ctx, tx, dev.id, { secret }, scope));
    reply.header('cache-control', 'no-store');
    return { id: dev.id, secret, connect: connectInfo(ctx.tenantId, dev.kind, dev.serial, secret) };
  },
});

function deviceHooks(onChanged: () => void): ResourceHooks {
  return {
    beside: live,
    listAliases: ['list'],
    updatePath: 'update',
    // the family's removal: GET delete/mark?ids=&remark= (the reason kept on the removed rows)
    removeRoutes: [
      { method: 'GET', path: 'delete/mark', remark: { param: 'remark', field: 'deleteRemark' } },
    ],
    beforeWrite(_ctx, record, _mode, _id, original) {
      const kind = String(record.kind ?? original?.kind ?? '');
      const problem = checkThresholds(kind, record.thresholds ?? original?.thresholds);
      if (problem) throw new FieldInputError('thresholds', problem);
    },
    // the secret is made here, in the creating transaction, and answered once with the new row
    async afterCreate(ctx, row, tx) {
      const secret = newSecret();
      const devices = mountedResource('device');
      await devices.patch(ctx, tx, String(row.id), { secret }, await devices.tenantConstraint(ctx));
      const tenantId = String(row.tenantId ?? ctx.tenantId);
      return { secret, connect: connectInfo(tenantId, String(row.kind), String(row.serial), secret) };
    },
    onChanged,
    endpoints: [historyEndpoint, readingsExportEndpoint, secretEndpoint],
  };
}

/** who acts, by name, for an alarm's acknowledgement or closing */
async function nameOf(db: Db, userId: string, account: string) {
  const [who] = await db
    .select({ name: schema.user.realName })
    .from(schema.user)
    .where(eq(schema.user.id, userId))
    .limit(1);
  return (who?.name || account).slice(0, 40);
}

const alarmAction = (path: 'acknowledge' | 'close') =>
  endpoint({
    method: 'POST',
    path,
    codeSuffix: '_handle',
    query: z.object({}).strict(),
    body: z
      .object({
        id: idString,
        note: path === 'close' ? z.string().trim().min(1).max(500) : z.string().trim().max(500).optional(),
      })
      .strict(),
    async handler({ ctx, resource, scope, body }) {
      const db = resource.db;
      const [row] = await db
        .select({ state: deviceAlarm.state, note: deviceAlarm.note })
        .from(deviceAlarm)
        .where(and(scope, eq(deviceAlarm.id, body.id)))
        .limit(1);
      if (!row) throw notFound();
      if (row.state === ALARM_STATE.closed)
        throw new FieldInputError('id', { zh: '告警已关闭', en: 'The alarm is already closed' });
      const by = await nameOf(db, ctx.userId, ctx.account);
      const now = formatDateTime(new Date());
      const note = body.note ? (row.note ? `${row.note}\n${body.note}` : body.note).slice(0, 500) : row.note;
      const record: Record<string, unknown> =
        path === 'close'
          ? { state: ALARM_STATE.closed, closedAt: now, closedBy: by, note }
          : { state: ALARM_STATE.acknowledged, acknowledgedAt: now, acknowledgedBy: by, note };
      if (path === 'acknowledge' && row.state !== ALARM_STATE.raised)
        throw new FieldInputError('id', { zh: '告警已确认', en: 'The alarm is already acknowledged' });
      const written = await updateRow(resource, ctx, db, body.id, record, scope);
      if (!written) throw notFound();
      resource.changed();
      return { id: body.id, state: record.state };
    },
  });

/** `deviceAlarm/counts`: the caller's alarms not closed, by kind and state (figures and the home page). */
const alarmCountsEndpoint = endpoint({
  method: 'GET',
  path: 'counts',
  codeSuffix: '',
  query: z.object({}).strict(),
  async handler({ resource, scope }) {
    const rows = await resource.db
      .select({ kind: deviceAlarm.kind, state: deviceAlarm.state, n: sql<number>`count(*)::int` })
      .from(deviceAlarm)
      .where(and(scope, sql`${deviceAlarm.state} <> ${ALARM_STATE.closed}`))
      .groupBy(deviceAlarm.kind, deviceAlarm.state)
      .orderBy(asc(deviceAlarm.kind));
    return rows.map((r) => ({ kind: String(r.kind), state: String(r.state), count: Number(r.n) }));
  },
});

/** Every resource of the core: its table and hooks, for modules/resources.ts. */
export function telemetryHooks(): Record<string, ResourceHooks> {
  return {
    device: deviceHooks(forgetDevices),
    deviceAlarm: { endpoints: [alarmAction('acknowledge'), alarmAction('close'), alarmCountsEndpoint] },
  };
}
