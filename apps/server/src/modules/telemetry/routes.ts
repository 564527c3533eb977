import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  ALARM_STATE,
  DEVICE_KIND,
  deviceResource,
  metricByCode,
  metricsOfKind,
  TELEMETRY_SCREENS,
} from '@smart/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import type { OverviewCall } from '../../platform/area';
import { requireCtx } from '../../platform/auth/context';
import { answerKept } from '../../platform/crud/answers';
import { containsFilter } from '../../platform/crud/query';
import { mountedResource, readableRows } from '../../platform/crud/refs';
import { insertRows } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { PageQuery, pagedList } from '../../platform/paging';
import { imageKind } from '../../platform/storage';
import { storageRefused } from '../resource/oss';
import { telemetryActor } from './alarms';
import { rowsOf, zoneOffsetMs } from './ingest';
import { device, deviceAlarm, GRAIN, telemetryRollup, telemetryState } from './tables';

/**
 * The monitoring calls of spec §7 (dfem-hope-manage: agricultureWeather, soil, pest, slopeDetection,
 * common/index harmful figures; dfem-hope-slope: slopeDevice/page) over the telemetry core, and the HTTP
 * ingestion for devices that cannot speak MQTT. Each monitoring call asks for its screen's code and reads
 * only the devices the caller may read (the device resource's constraint: tenant, live rows, data scope).
 */

const SCREEN_OF: Record<string, string> = {
  [DEVICE_KIND.weather]: TELEMETRY_SCREENS.weather.code,
  [DEVICE_KIND.soil]: TELEMETRY_SCREENS.soil.code,
  [DEVICE_KIND.pest]: TELEMETRY_SCREENS.pest.code,
  [DEVICE_KIND.slope]: TELEMETRY_SCREENS.slope.code,
};

/** what a monitoring answer shows of a device, with its last reading beside it (`telemetry_state`) */
const LIVE_COLUMNS = {
  id: device.id,
  name: device.name,
  serial: device.serial,
  location: device.location,
  reportInterval: device.reportInterval,
  lastAt: telemetryState.lastAt,
  lastValues: telemetryState.lastValues,
};

/** a device row as answered: online while its last reading is within three report intervals */
function liveOf(r: {
  id: unknown;
  name: unknown;
  serial: unknown;
  location: unknown;
  reportInterval: unknown;
  lastAt: unknown;
}) {
  const lastMs = r.lastAt ? new Date(r.lastAt as string).getTime() : 0;
  return {
    id: String(r.id),
    name: r.name,
    serial: r.serial,
    location: r.location,
    online: lastMs && Date.now() - lastMs <= 3 * Math.max(10, Number(r.reportInterval ?? 300)) * 1000 ? 1 : 0,
    lastSeenAt: r.lastAt ? new Date(r.lastAt as string).toISOString() : null,
  };
}

/** devices of a kind the caller may read, with what their readings say */
/** the device's name as its definition declares it (a contains search, with its indexes) */
const DEVICE_NAME = deviceResource.fields.find((f) => f.name === 'name');

async function devicesOf(
  db: Db,
  req: FastifyRequest,
  kind: string,
  q: { current: number; size: number; name?: string },
) {
  const ctx = requireCtx(req);
  const where = and(
    await readableRows('device', ctx),
    eq(device.kind, kind),
    q.name ? containsFilter(device.name, q.name, DEVICE_NAME) : undefined,
  );
  return pagedList(q, {
    rows: db
      .select({
        ...LIVE_COLUMNS,
        openAlarms: sql<number>`(select count(*)::int from ${deviceAlarm} a where a.device_id = ${device.id} and a.is_deleted = 0 and a.state <> ${ALARM_STATE.closed})`,
      })
      .from(device)
      .leftJoin(telemetryState, eq(telemetryState.deviceId, device.id))
      .where(where)
      .orderBy(asc(device.serial), asc(device.id)),
    total: db.select({ total: sql<number>`count(*)::int` }).from(device).where(where),
    records: (rows) =>
      rows.map((r) => ({ ...liveOf(r), lastValues: r.lastValues ?? null, openAlarms: Number(r.openAlarms) })),
  });
}

/** the local midnight (server time zone) of today */
function todayStart() {
  const now = Date.now();
  const off = zoneOffsetMs(now);
  return Math.floor((now + off) / 86_400_000) * 86_400_000 - off;
}

/** one device of a kind within the caller's reach: its live state and today's minimum, maximum, average */
async function deviceInfo(db: Db, req: FastifyRequest, kind: string, id: string) {
  const ctx = requireCtx(req);
  const [row] = await db
    .select(LIVE_COLUMNS)
    .from(device)
    .leftJoin(telemetryState, eq(telemetryState.deviceId, device.id))
    .where(and(await readableRows('device', ctx), eq(device.kind, kind), eq(device.id, id)))
    .limit(1);
  if (!row) throw notFound();
  const today = rowsOf(
    await db.execute(sql`select metric, low, high, total / n as avg from telemetry_rollup
      where device_id = ${id} and grain = ${GRAIN.day} and bucket = to_timestamp(${todayStart() / 1000})`),
  );
  const metrics = metricsOfKind(kind).map((m) => {
    const t = today.find((x) => Number(x.metric) === m.id);
    return {
      code: m.code,
      name: req.lang === 'en' ? m.label.en : m.label.zh,
      unit: m.unit,
      digits: m.digits,
      value: (row.lastValues as Record<string, number> | null)?.[m.code] ?? null,
      todayMin: t ? Number(t.low) : null,
      todayMax: t ? Number(t.high) : null,
      todayAvg: t ? Number(t.avg) : null,
    };
  });
  const lastMs = row.lastAt ? new Date(row.lastAt).getTime() : 0;
  return {
    id: String(row.id),
    name: row.name,
    serial: row.serial,
    location: row.location,
    online:
      lastMs && Date.now() - lastMs <= 3 * Math.max(10, Number(row.reportInterval ?? 300)) * 1000 ? 1 : 0,
    lastSeenAt: row.lastAt ? new Date(row.lastAt).toISOString() : null,
    metrics,
  };
}

/** pest counts by species over [from, to) of the lamps the caller may read: per species, and per day */
async function pestCounts(db: Db, req: FastifyRequest, from: number, to: number, deviceId?: string) {
  const ctx = requireCtx(req);
  const lamps = await db
    .select({ id: device.id })
    .from(device)
    .where(
      and(
        await readableRows('device', ctx),
        eq(device.kind, DEVICE_KIND.pest),
        deviceId ? eq(device.id, deviceId) : undefined,
      ),
    );
  if (deviceId && !lamps.length) throw notFound();
  const ids = `{${lamps.map((l) => l.id).join(',')}}`;
  const rows = rowsOf(
    await db.execute(sql`select metric, (extract(epoch from bucket) * 1000)::float8 as day, sum(total)::float8 as n
      from telemetry_rollup
      where device_id = any(${ids}::bigint[]) and grain = ${GRAIN.day}
        and bucket >= to_timestamp(${from / 1000}) and bucket < to_timestamp(${to / 1000})
      group by metric, bucket order by bucket`),
  );
  const species = metricsOfKind(DEVICE_KIND.pest);
  const name = (code: string) => {
    const m = metricByCode.get(code)!;
    return req.lang === 'en' ? m.label.en : m.label.zh;
  };
  const total = species.map((m) => ({
    key: m.code,
    name: name(m.code),
    value: Math.round(rows.filter((r) => Number(r.metric) === m.id).reduce((s, r) => s + Number(r.n), 0)),
  }));
  const days = [...new Set(rows.map((r) => Number(r.day)))].sort((a, b) => a - b);
  const byDay = days.map((d) => ({
    day: new Date(d + zoneOffsetMs(d)).toISOString().slice(0, 10),
    counts: Object.fromEntries(
      species.map((m) => [
        m.code,
        Math.round(Number(rows.find((r) => Number(r.day) === d && Number(r.metric) === m.id)?.n ?? 0)),
      ]),
    ),
  }));
  return { lamps: lamps.length, total, byDay };
}

/** what the monitoring screens' answers read: the devices, their last readings, the roll-ups */
const MONITOR_READS = [device, telemetryState, telemetryRollup];

const ListQuery = PageQuery.extend({ name: z.string().max(40).optional() }).strict();
const InfoQuery = z.object({ deviceId: idString }).strict();
const RangeQuery = z
  .object({
    deviceId: idString.optional(),
    from: z.coerce.number().int().positive().optional(),
    to: z.coerce.number().int().positive().optional(),
  })
  .strict();

/** routes under /api/dfem-hope-manage */
export async function telemetryRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  /** a monitoring screen's answer, kept while no device, last reading or roll-up changes (answers.ts) */
  const kept = (req: FastifyRequest, reply: FastifyReply, data: () => Promise<unknown>) =>
    answerKept(req, reply, db, requireCtx(req), MONITOR_READS, data);
  const kinds: [string, string][] = [
    ['agricultureWeather', DEVICE_KIND.weather],
    ['soil', DEVICE_KIND.soil],
  ];
  for (const [path, kind] of kinds) {
    app.get(`/${path}/page`, { schema: { querystring: ListQuery } }, async (req, reply) => {
      await requirePermission(db, req, SCREEN_OF[kind]);
      return kept(req, reply, () => devicesOf(db, req, kind, req.query as z.infer<typeof ListQuery>));
    });
    app.get(`/${path}/device/info`, { schema: { querystring: InfoQuery } }, async (req, reply) => {
      await requirePermission(db, req, SCREEN_OF[kind]);
      return kept(req, reply, () => deviceInfo(db, req, kind, (req.query as { deviceId: string }).deviceId));
    });
  }
  /** the trap lamps (beside the spec's calls, like agricultureWeather/page and soil/page for theirs) */
  app.get('/pest/page', { schema: { querystring: ListQuery } }, async (req, reply) => {
    await requirePermission(db, req, SCREEN_OF[DEVICE_KIND.pest]);
    return kept(req, reply, () =>
      devicesOf(db, req, DEVICE_KIND.pest, req.query as z.infer<typeof ListQuery>),
    );
  });
  app.get('/slopeDetection/page', { schema: { querystring: ListQuery } }, async (req, reply) => {
    await requirePermission(db, req, SCREEN_OF[DEVICE_KIND.slope]);
    return kept(req, reply, () =>
      devicesOf(db, req, DEVICE_KIND.slope, req.query as z.infer<typeof ListQuery>),
    );
  });
  /** one lamp: its state and today's catch */
  app.get('/pest/bulb/info', { schema: { querystring: InfoQuery } }, async (req, reply) => {
    await requirePermission(db, req, SCREEN_OF[DEVICE_KIND.pest]);
    return kept(req, reply, () =>
      deviceInfo(db, req, DEVICE_KIND.pest, (req.query as { deviceId: string }).deviceId),
    );
  });
  /** counts by species per day over a range (default: the last 30 days), one lamp or all */
  app.get('/pest/detail/list', { schema: { querystring: RangeQuery } }, async (req, reply) => {
    await requirePermission(db, req, SCREEN_OF[DEVICE_KIND.pest]);
    const q = req.query as z.infer<typeof RangeQuery>;
    const to = q.to ?? todayStart() + 86_400_000;
    const from = q.from ?? to - 30 * 86_400_000;
    if (from >= to || to - from > 400 * 86_400_000) throw notFound();
    return kept(req, reply, () => pestCounts(db, req, from, to, q.deviceId));
  });
}

/** routes under /api/dfem-hope-slope (the family's slope service) */
export async function slopeRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  app.get('/slopeDevice/page', { schema: { querystring: ListQuery } }, async (req, reply) => {
    await requirePermission(db, req, SCREEN_OF[DEVICE_KIND.slope]);
    return answerKept(req, reply, db, requireCtx(req), MONITOR_READS, () =>
      devicesOf(db, req, DEVICE_KIND.slope, req.query as z.infer<typeof ListQuery>),
    );
  });
}

/**
 * HTTP ingestion (under /api/telemetry): `POST /<tenant>/<kind>/<serial>/up` with the same signed message
 * as MQTT. No token: the signature with the device's secret is the credential. Answers how many readings
 * were taken; a refused message is a 400 naming the reason.
 */
/** a photo's signature covers its time and its bytes' SHA-256: a captured upload cannot be replayed later */
const PHOTO_WINDOW_MS = 5 * 60_000;
const PHOTO_MAX_BYTES = 2 * 1024 * 1024;

export async function ingestRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  // a lamp's photo arrives as the image itself
  app.addContentTypeParser(
    ['image/jpeg', 'image/png'],
    { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES },
    (_req, body, done) => done(null, body),
  );
  /**
   * A trap lamp's photo: the JPEG or PNG as the body, `x-timestamp` (ms) and `x-signature` (hex
   * HMAC-SHA256 with the device's secret of `<timestamp>.<hex SHA-256 of the body>`). Checked by content,
   * stored like any uploaded image, listed in 虫情图片 through the engine's write path.
   */
  app.post(
    '/:tenant/:kind/:serial/photo',
    { config: { public: true }, bodyLimit: PHOTO_MAX_BYTES },
    async (req, reply) => {
      const p = req.params as { tenant: string; kind: string; serial: string };
      const refuse = (reason: string) =>
        reply.code(400).send({ code: 400, success: false, msg: reason, data: null });
      const body = req.body;
      if (!Buffer.isBuffer(body)) return refuse('malformed');
      const ts = Number(req.headers['x-timestamp']);
      const sig = String(req.headers['x-signature'] ?? '');
      if (!Number.isFinite(ts) || Math.abs(Date.now() - ts) > PHOTO_WINDOW_MS || !/^[0-9a-f]{64}$/i.test(sig))
        return refuse('malformed');
      const dev = await app.telemetry.ingestor.deviceOf(p.tenant, p.serial);
      if (!dev || dev.kind !== p.kind || dev.kind !== DEVICE_KIND.pest) return refuse('unknownDevice');
      const digest = createHash('sha256').update(body).digest('hex');
      const expected = createHmac('sha256', dev.secret).update(`${ts}.${digest}`).digest();
      if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return refuse('badSignature');
      const kind = imageKind(body);
      if (!kind) return refuse('notAnImage');
      const name = `${randomUUID()}.${kind}`;
      const path = `/api/dfem-hope-manage/file/image/${name}`;
      // where the tenant's files go now (its enabled storage config), written down with that config like
      // an upload, so it is read from there whichever config is enabled later (modules/resource/oss.ts)
      const target = await app.storageConfigs.forUpload(dev.tenantId);
      await target.store.put(`village/${name}`, body).catch((e) => {
        throw storageRefused(e);
      });
      await app.uploads.keep(telemetryActor(dev.tenantId), path, body.length, target.ossId);
      const m = mountedResource('pestPhoto');
      const [written] = await db.transaction((tx) =>
        insertRows(
          m,
          telemetryActor(dev.tenantId),
          tx as unknown as Db,
          [
            {
              deviceId: dev.id,
              takenAt: formatDateTime(new Date(ts)),
              photo: path,
            },
          ],
          { answer: true },
        ),
      );
      m.changed();
      return ok(req, { id: String(written.row.id) });
    },
  );

  app.post(
    '/:tenant/:kind/:serial/up',
    { config: { public: true }, bodyLimit: 1024 * 1024 },
    async (req, reply) => {
      const p = req.params as { tenant: string; kind: string; serial: string };
      const result = await app.telemetry.ingestor.accept(
        p.tenant,
        p.kind,
        p.serial,
        JSON.stringify(req.body ?? null),
      );
      // behind (or closing): not taken, and the device is told to send it again a moment later
      if (result.reason === 'overloaded')
        return reply
          .code(503)
          .header('retry-after', '1')
          .send({ code: 503, success: false, msg: result.reason, data: result });
      if (result.reason)
        return reply.code(400).send({ code: 400, success: false, msg: result.reason, data: result });
      return ok(req, result);
    },
  );
}

/** 今日虫害 (农业概览, `common/index/today/harmful`): today's catch by species, all lamps the caller may read */
export async function pestToday({ req, db }: OverviewCall) {
  const from = todayStart();
  return (await pestCounts(db, req, from, from + 86_400_000)).total;
}

/** 其他虫害 (农业概览, `common/index/other/harmful`): the 30 days before today, by species and by day */
export async function pestOtherDays({ req, db }: OverviewCall) {
  const to = todayStart();
  return pestCounts(db, req, to - 30 * 86_400_000, to);
}
