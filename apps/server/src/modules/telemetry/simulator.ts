import { createHash, createHmac } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { DEVICE_KIND, DEVICE_KINDS, type DeviceKindKey, metricByCode } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { device } from './tables';

/**
 * The device simulator: credible readings of each kind as a pure function of (serial, time) — a weather
 * station's day (warm afternoons, dew at dawn, light from sunrise to sunset, a shower now and then), soil
 * that dries slowly, pest counts that peak at night, a slope that creeps, inverters that make power in a
 * bell from sunrise to sunset under the day's clouds (their lifetime counters rising by the energy and
 * reset now and then, a fault hour now and then) and collectors with a signal and a heartbeat (one silent). The seed backfills history with
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

// ---- photovoltaic inverters and their data collectors -------------------------------------------------

/** the rated power the simulator gives every inverter (kW) */
export const PV_RATED_KW = 50;
/** the demo's devices that never report: the second station's broken collector and the inverter behind it */
export const SILENT_SERIALS = new Set(['DC-0002', 'INV-0004']);
const DAY_MS = 86_400_000;
const SLOT_MS = 300_000;
/** the local (China) day number of `at` */
const pvDay = (at: number) => Math.floor((at + 8 * 3_600_000) / DAY_MS);
/** the local midnight of day `d` */
const pvDayStart = (d: number) => d * DAY_MS - 8 * 3_600_000;
/** the day the demo inverters' counters start counting */
const PV_START_DAY = pvDay(Date.UTC(2025, 0, 1));

/**
 * An inverter's output (kW) at `at`: a bell from sunrise (06:30) to sunset (18:30), scaled by the day's
 * weather (the village shares it: clear, hazy or overcast) and by passing clouds; 0 while it is in fault.
 */
function pvPower(serial: string, at: number): number {
  const h = hourOf(at);
  if (h < 6.5 || h > 18.5 || pvFault(serial, at)) return 0;
  const sun = Math.sin(((h - 6.5) / 12) * Math.PI) ** 1.5;
  // the day's sky: from overcast (45 % of a clear day's sun) to clear — no day a tenth of the next
  const clear = 0.725 + 0.275 * noise('PV', pvDay(at), 51);
  const clouds = 1 - 0.35 * Math.max(0, drift('PV', at, 52, 1_200_000));
  return PV_RATED_KW * 0.82 * sun * clear * clouds * (1 + 0.03 * noise(serial, pvDay(at), 53));
}

/** a fault now and then: on about one day in seven an inverter stops between 13:00 and 14:00 */
const pvFault = (serial: string, at: number) => {
  const h = hourOf(at);
  return h >= 13 && h < 14 && noise(serial, pvDay(at), 54) > 0.72;
};

/** energy (kWh) made from `from` until `to` (5-minute slots from `from`, each at its middle) */
function pvEnergyBetween(serial: string, from: number, to: number): number {
  let e = 0;
  for (let s = from; s < to; s += SLOT_MS) {
    const width = Math.min(SLOT_MS, to - s);
    e += (pvPower(serial, s + SLOT_MS / 2) * width) / 3_600_000;
  }
  return e;
}

/** energy (kWh) made from the local midnight of `at`'s day until `at` */
const pvEnergyToday = (serial: string, at: number) => pvEnergyBetween(serial, pvDayStart(pvDay(at)), at);

/** a counter reset now and then: on about one day in twenty-five the counter restarts from 0 at noon */
const pvResetDay = (serial: string, d: number) => noise(serial, d, 55) > 0.92;
const NOON_MS = 12 * 3_600_000;

/** each inverter's lifetime counter at the start of each day since PV_START_DAY (memo, extended on demand) */
const counterStarts = new Map<string, number[]>();
function pvCounterAtDayStart(serial: string, d: number): number {
  let starts = counterStarts.get(serial);
  if (!starts) {
    starts = [20_000 + 5_000 * (noise(serial, 0, 56) + 1)];
    counterStarts.set(serial, starts);
  }
  while (starts.length <= d - PV_START_DAY) {
    const day = PV_START_DAY + starts.length - 1;
    const begin = pvDayStart(day);
    const end = pvDayStart(day + 1);
    const prev = starts[starts.length - 1];
    starts.push(
      pvResetDay(serial, day)
        ? pvEnergyBetween(serial, begin + NOON_MS, end)
        : prev + pvEnergyBetween(serial, begin, end),
    );
  }
  return starts[Math.max(0, d - PV_START_DAY)];
}

/** the lifetime counter at `at`: rising by the energy made, restarting from 0 at noon of a reset day */
function pvCounter(serial: string, at: number): number {
  const d = pvDay(at);
  if (d < PV_START_DAY) return pvCounterAtDayStart(serial, PV_START_DAY);
  const today = pvEnergyToday(serial, at);
  const noon = pvDayStart(d) + NOON_MS;
  if (pvResetDay(serial, d) && at >= noon) return today - pvEnergyToday(serial, noon);
  return pvCounterAtDayStart(serial, d) + today;
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
    case DEVICE_KIND.inverter: {
      if (SILENT_SERIALS.has(serial)) return {};
      const p = pvPower(serial, at);
      const fault = pvFault(serial, at);
      v.acPower = p;
      v.energyToday = pvEnergyToday(serial, at);
      v.energyTotal = pvCounter(serial, at);
      const lit = p > 0.05;
      for (let i = 1; i <= 4; i++) {
        const volts = lit || fault ? 560 + 70 * sun + 8 * drift(serial, at, 60 + i) : 0;
        v[`pv${i}Voltage`] = volts;
        v[`pv${i}Current`] = lit ? (p * 1000) / 4 / Math.max(1, volts) : 0;
      }
      v.inverterTemperature = 16 + 6 * day + 28 * (p / PV_RATED_KW) + drift(serial, at, 65);
      v.inverterState = fault ? 2 : lit ? 1 : 0;
      break;
    }
    case DEVICE_KIND.collector:
      if (SILENT_SERIALS.has(serial)) return {};
      v.signalStrength = -78 + 9 * drift(serial, at, 66, 1_800_000);
      v.heartbeat = 1;
      break;
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

/** A PNG of RGB pixels (`rgb` row by row), encoded by hand: the simulator's trap photos need no library. */
function png(width: number, height: number, rgb: Uint8Array): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A trap lamp's photo at `at`: its sticky board with about as many insects as it counted that hour. */
export function trapPhoto(serial: string, at: number): Buffer {
  const w = 160;
  const h = 120;
  const rgb = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) rgb.set([236, 222, 160], i * 3); // the yellow board
  const counts = readingsAt(DEVICE_KIND.pest, serial, at);
  const insects = Math.min(
    80,
    Object.values(counts).reduce((a, b) => a + b, 0),
  );
  for (let k = 0; k < insects; k++) {
    const cx = Math.floor(((noise(serial, at + k, 41) + 1) / 2) * (w - 8)) + 4;
    const cy = Math.floor(((noise(serial, at + k, 42) + 1) / 2) * (h - 6)) + 3;
    const rx = 2 + Math.floor(((noise(serial, k, 43) + 1) / 2) * 3);
    for (let y = -2; y <= 2; y++)
      for (let x = -rx; x <= rx; x++)
        if ((x * x) / (rx * rx) + (y * y) / 4 <= 1) rgb.set([60, 45, 30], ((cy + y) * w + cx + x) * 3);
  }
  return png(w, h, rgb);
}

/** The headers a lamp signs its photo with: `<time>.<SHA-256 of the image>` under its secret. */
export function photoHeaders(secret: string, image: Buffer, at = Date.now()) {
  const digest = createHash('sha256').update(image).digest('hex');
  return {
    'content-type': 'image/png',
    'x-timestamp': String(at),
    'x-signature': createHmac('sha256', secret).update(`${at}.${digest}`).digest('hex'),
  };
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
  /** uploads a lamp's photo as the lamp would (the HTTP photo route) */
  sendPhoto?: (serial: string, image: Buffer, headers: Record<string, string>) => Promise<void>,
): Promise<() => void> {
  const photoAt = new Map<string, number>();
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
      const values = readingsAt(d.kind, d.serial, now);
      // a silent demo device (the broken collector) says nothing
      if (Object.keys(values).length) {
        const payload = signedMessage(d.secret, { ts: now, values });
        void publish(`000000/${d.kind}/${d.serial}/up`, payload);
      }
      // a lamp photographs its board every hour (and once at start)
      if (sendPhoto && d.kind === DEVICE_KIND.pest && (photoAt.get(d.serial) ?? 0) <= now) {
        photoAt.set(d.serial, now + 3_600_000);
        const image = trapPhoto(d.serial, now);
        sendPhoto(d.serial, image, photoHeaders(d.secret, image, now)).catch((err) =>
          log.error({ err }, 'simulator photo'),
        );
      }
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
