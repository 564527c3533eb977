import { createHmac } from 'node:crypto';
import { DEVICE_KIND, DEVICE_KINDS, type DeviceKindKey, metricByCode } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { device } from './tables';

/**
 * The device simulator: credible readings of each kind as a pure function of (serial, time) — a weather
 * station's day (warm afternoons, dew at dawn, light from sunrise to sunset, a shower now and then), soil
 * that dries slowly, pest counts that peak at night, a slope that creeps. The seed backfills history with
 * it; the server publishes the demo devices' readings with it when TELEMETRY_SIMULATOR=on (`npm start`);
 * `npm run simulate` publishes to a broker with it (tests and the bench).
 *
 * Demo devices carry a secret derived from their serial (`demoSecret`): public, like the demo's admin/admin.
 * A device whose secret was reset is no longer simulated.
 */

const DEMO_KEY = 'smart-demo-device';
export const demoSecret = (serial: string) =>
  createHmac('sha256', DEMO_KEY).update(serial).digest('base64url');

/** A device's signed message (what a real device sends): `{ data, sig }`. */
export function signedMessage(secret: string, data: unknown): string {
  const text = JSON.stringify(data);
  return JSON.stringify({ data: text, sig: createHmac('sha256', secret).update(text).digest('hex') });
}

/** deterministic noise in [-1, 1] for (serial, slot) */
function noise(serial: string, slot: number, salt = 0): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < serial.length; i++) h = Math.imul(h ^ serial.charCodeAt(i), 16777619);
  h = Math.imul(h ^ slot, 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (((h ^ (h >>> 16)) >>> 0) / 4294967295) * 2 - 1;
}

/** smooth noise: interpolated between hourly knots */
function drift(serial: string, at: number, salt: number, periodMs = 3_600_000): number {
  const k = at / periodMs;
  const i = Math.floor(k);
  const f = k - i;
  const s = f * f * (3 - 2 * f);
  return noise(serial, i, salt) * (1 - s) + noise(serial, i + 1, salt) * s;
}

const clamp = (code: string, v: number) => {
  const m = metricByCode.get(code)!;
  const r = 10 ** m.digits;
  return Math.round(Math.min(m.max, Math.max(m.min, v)) * r) / r;
};

/** hour of the day in China (the demo village's clock), fractional */
const hourOf = (at: number) => (((at / 3_600_000 + 8) % 24) + 24) % 24;

/** rain now and then: a shower lasting a few hours on about one day in five */
function rainAt(serial: string, at: number): number {
  const day = Math.floor(at / 86_400_000);
  if (noise(serial.slice(0, 2), day, 7) < 0.6) return 0;
  const h = hourOf(at);
  const start = 10 + Math.floor((noise(serial.slice(0, 2), day, 8) + 1) * 5);
  if (h < start || h > start + 3) return 0;
  return Math.max(0, 4 + 6 * drift(serial.slice(0, 2), at, 9, 1_800_000));
}

/** The values a device of `kind` reports at `at`. */
export function readingsAt(kind: string, serial: string, at: number): Record<string, number> {
  const h = hourOf(at);
  const day = Math.sin(((h - 9) / 24) * 2 * Math.PI); // warmest about 15:00
  const sun = Math.max(0, Math.sin(((h - 6) / 12) * Math.PI)); // 06:00–18:00
  const rain = rainAt(serial, at);
  const v: Record<string, number> = {};
  switch (kind) {
    case DEVICE_KIND.weather:
      v.airTemperature = 17 + 7 * day + 1.5 * drift(serial, at, 1) - (rain ? 3 : 0);
      v.airHumidity = 68 - 18 * day + 6 * drift(serial, at, 2) + (rain ? 20 : 0);
      v.windSpeed = Math.abs(2.2 + 1.5 * sun + 1.8 * drift(serial, at, 3, 1_200_000));
      v.windDirection = (((150 + 90 * drift(serial, at, 4, 7_200_000)) % 360) + 360) % 360;
      v.rainfall = rain;
      v.pressure = 1008 + 4 * drift(serial, at, 5, 21_600_000) - 1.2 * day;
      v.illuminance = sun * (rain ? 18_000 : 75_000) * (0.85 + 0.15 * drift(serial, at, 6, 900_000));
      break;
    case DEVICE_KIND.soil: {
      const wet = Math.max(0, rain) * 0.4;
      v.soilMoisture = 27 + 4 * drift(serial, at, 11, 43_200_000) - 1.5 * sun + wet;
      v.soilTemperature = 18 + 3 * Math.sin(((h - 12) / 24) * 2 * Math.PI) + drift(serial, at, 12);
      v.soilEc = 1.1 + 0.2 * drift(serial, at, 13, 21_600_000);
      v.soilPh = 6.5 + 0.2 * drift(serial, at, 14, 86_400_000);
      v.soilNitrogen = 105 + 12 * drift(serial, at, 15, 86_400_000);
      v.soilPhosphorus = 32 + 5 * drift(serial, at, 16, 86_400_000);
      v.soilPotassium = 135 + 15 * drift(serial, at, 17, 86_400_000);
      break;
    }
    case DEVICE_KIND.pest: {
      // lamps catch at night: most between 20:00 and 02:00
      const night = Math.max(0, Math.cos(((h - 23) / 24) * 2 * Math.PI));
      v.pestPlanthopper = Math.round(night * (35 + 20 * drift(serial, at, 21)));
      v.pestStemBorer = Math.round(night * (8 + 5 * drift(serial, at, 22)));
      v.pestLeafFolder = Math.round(night * (6 + 4 * drift(serial, at, 23)));
      v.pestArmyworm = Math.round(Math.max(0, night * (1 + 2 * drift(serial, at, 24))));
      v.pestCutworm = Math.round(night * (4 + 3 * drift(serial, at, 25)));
      v.pestOther = Math.round(night * (10 + 6 * drift(serial, at, 26)));
      break;
    }
    case DEVICE_KIND.slope: {
      // creeping about 0.2 mm a day, a little faster in rain
      const days = (at - Date.UTC(2026, 0, 1)) / 86_400_000;
      v.displacement = 3 + 0.2 * days * 0.1 + 0.3 * drift(serial, at, 31, 21_600_000) + (rain ? 0.2 : 0);
      v.tiltX = 0.4 + 0.15 * drift(serial, at, 32, 43_200_000);
      v.tiltY = -0.3 + 0.15 * drift(serial, at, 33, 43_200_000);
      v.slopeRainfall = rain;
      break;
    }
  }
  for (const k of Object.keys(v)) v[k] = clamp(k, Number.isFinite(v[k]) ? v[k] : 0);
  return v;
}

/** The kinds the simulator speaks for (those with metrics). */
export const SIMULATED_KINDS = (Object.keys(DEVICE_KINDS) as DeviceKindKey[]).filter(
  (k) => DEVICE_KINDS[k].metrics.length > 0,
);

/**
 * The in-process simulator: every demo device of tenant 000000 that still has its demo secret reports
 * now and then every report interval (re-read each minute, so a device added or reset is followed).
 */
export async function startSimulator(
  db: Db,
  publish: (topic: string, payload: string) => Promise<void>,
  log: FastifyBaseLogger,
): Promise<() => void> {
  let devices: { serial: string; kind: string; interval: number; secret: string; next: number }[] = [];
  const load = async () => {
    const rows = await db
      .select({
        serial: device.serial,
        kind: device.kind,
        interval: device.reportInterval,
        secret: device.secret,
      })
      .from(device)
      .where(
        and(
          eq(device.tenantId, '000000'),
          inArray(device.kind, SIMULATED_KINDS),
          notDeleted(device.isDeleted),
        ),
      );
    const known = new Map(devices.map((d) => [d.serial, d.next]));
    devices = rows
      .filter((r) => r.secret && r.secret === demoSecret(String(r.serial)))
      .map((r) => ({
        serial: String(r.serial),
        kind: String(r.kind),
        interval: Math.max(10, Number(r.interval ?? 300)),
        secret: String(r.secret),
        next: known.get(String(r.serial)) ?? 0,
      }));
  };
  await load();
  log.info({ devices: devices.length }, 'device simulator publishing the demo devices');
  const tick = () => {
    const now = Date.now();
    for (const d of devices) {
      if (d.next > now) continue;
      d.next = now + d.interval * 1000;
      const payload = signedMessage(d.secret, { ts: now, values: readingsAt(d.kind, d.serial, now) });
      void publish(`000000/${d.kind}/${d.serial}/up`, payload);
    }
  };
  tick();
  const every = setInterval(tick, 1000);
  const reload = setInterval(() => void load().catch((err) => log.error({ err }, 'simulator')), 60_000);
  every.unref();
  reload.unref();
  return () => {
    clearInterval(every);
    clearInterval(reload);
  };
}
