/**
 * The device simulator (`npm run simulate -- …`): publishes signed readings, as real devices would, to an
 * MQTT broker — the demo village's devices by default, or N simulated weather stations it first adds to the
 * database (`--provision`, PostgreSQL via DATABASE_URL) for load tests.
 *
 *   --url mqtt://127.0.0.1:1883   the broker (the server's embedded one, or Mosquitto)
 *   --devices N --provision        N stations SIM-00001… in tenant 000000 (created if missing)
 *   --rate R                       messages per second in all (default: one per device per second)
 *   --batch B                      readings (instants) per message (default 1)
 *   --duration S                   stop after S seconds (default: run until stopped)
 *   --qos 0|1
 *
 * Each device connects as itself: client id and username its identity `000000/<kind>/<serial>`, password
 * its connect password (broker.ts), as the server's embedded broker requires.
 *
 * Prints what it sent every 5 seconds and, at the end, one JSON line with the totals.
 */
import { parseArgs } from 'node:util';
import { DEVICE_KIND } from '@smart/contracts';
import mqtt from 'mqtt';
import { POWER_DEMO_DEVICES } from '../modules/power/seed';
import { connectPassword, deviceIdentity } from '../modules/telemetry/broker';
import { DEMO_DEVICES } from '../modules/telemetry/seed';
import { demoSecret, readingsAt, signedMessage } from '../modules/telemetry/simulator';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883' },
    devices: { type: 'string' },
    provision: { type: 'boolean', default: false },
    rate: { type: 'string' },
    batch: { type: 'string', default: '1' },
    duration: { type: 'string' },
    qos: { type: 'string', default: '0' },
  },
});

interface Sim {
  kind: string;
  serial: string;
  secret: string;
}

async function provision(n: number): Promise<Sim[]> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('--provision needs DATABASE_URL (PostgreSQL)');
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sims = Array.from({ length: n }, (_, i) => {
    const serial = `SIM-${String(i + 1).padStart(5, '0')}`;
    return { kind: DEVICE_KIND.weather, serial, secret: demoSecret(serial) };
  });
  for (let i = 0; i < sims.length; i += 500) {
    const part = sims.slice(i, i + 500);
    await client.query(
      `insert into hope_device (tenant_id, name, kind, serial, report_interval, secret)
       select '000000', '模拟气象站 ' || s, $1, s, 60, k from unnest($2::text[], $3::text[]) as u(s, k)
       on conflict do nothing`,
      [DEVICE_KIND.weather, part.map((x) => x.serial), part.map((x) => x.secret)],
    );
  }
  await client.end();
  return sims;
}

const devices: Sim[] = args.provision
  ? await provision(Number(args.devices ?? 100))
  : [
      ...DEMO_DEVICES.filter(([, kind]) => kind !== DEVICE_KIND.camera).map(([, kind, serial]) => ({
        kind,
        serial,
      })),
      // the demo stations' collectors and inverters (the silent ones send nothing, as in the server)
      ...POWER_DEMO_DEVICES.map(([kind, serial]) => ({ kind, serial })),
    ]
      .filter((d) => Object.keys(readingsAt(d.kind, d.serial, Date.now())).length)
      .slice(0, Number(args.devices ?? Number.POSITIVE_INFINITY))
      .map((d) => ({ ...d, secret: demoSecret(d.serial) }));
const rate = Number(args.rate ?? devices.length);
const batch = Math.max(1, Number(args.batch));
const qos = Number(args.qos) === 1 ? 1 : 0;
// each device connects as itself (its identity as client id and username, its connect password), as the
// embedded broker requires; a broker of one's own (MQTT_URL) may ignore the credentials
const clients = new Map<string, mqtt.MqttClient>();
const connecting = args.duration === '0' ? [] : devices;
for (let i = 0; i < connecting.length; i += 100)
  await Promise.all(
    connecting.slice(i, i + 100).map(async (d) => {
      const identity = deviceIdentity('000000', d.kind, d.serial);
      clients.set(
        d.serial,
        await mqtt.connectAsync(args.url, {
          clientId: identity,
          username: identity,
          password: connectPassword(d.secret, identity),
          reconnectPeriod: 2000,
        }),
      );
    }),
  );
let messages = 0;
let readings = 0;
const started = Date.now();
// every device connected: the bench's measuring window starts here
console.log(`publishing from ${devices.length} devices`);
let turn = 0;
/**
 * per device, the time of the last instant it sent: a message holds the instants since, each sent once (a
 * device's first message, the last `batch` milliseconds: never an instant an earlier run may have sent)
 */
const lastSent = new Map<string, number>();

async function sendOne() {
  const d = devices[turn++ % devices.length];
  const now = Date.now();
  const since = Math.min(lastSent.get(d.serial) ?? now - batch, now - batch);
  lastSent.set(d.serial, now);
  const group = Array.from({ length: batch }, (_, i) => {
    const ts = Math.round(since + ((now - since) * (i + 1)) / batch);
    return { ts, values: readingsAt(d.kind, d.serial, ts) };
  });
  const payload = signedMessage(d.secret, batch === 1 ? group[0] : { readings: group });
  await clients.get(d.serial)!.publishAsync(`000000/${d.kind}/${d.serial}/up`, payload, { qos });
  messages++;
  readings += group.reduce((s, g) => s + Object.keys(g.values).length, 0);
}

const report = setInterval(() => {
  const s = (Date.now() - started) / 1000;
  console.log(
    `${s.toFixed(0)} s: ${messages} messages, ${readings} readings (${Math.round(readings / s)}/s)`,
  );
}, 5000);
const stopAt = args.duration ? started + Number(args.duration) * 1000 : Number.POSITIVE_INFINITY;
let stopping = false;
process.on('SIGINT', () => {
  stopping = true;
});
process.on('SIGTERM', () => {
  stopping = true;
});
// a steady pace: each 10 ms tick sends what the rate owes by now, at once (each device is its own client;
// with QoS 1 one after another would be held to one broker round trip a message)
while (!stopping && Date.now() < stopAt) {
  const owed = Math.floor(((Date.now() - started) / 1000) * rate) - messages;
  if (owed > 0) await Promise.all(Array.from({ length: owed }, sendOne));
  await new Promise((r) => setTimeout(r, 10));
}
clearInterval(report);
await Promise.all([...clients.values()].map((c) => c.endAsync()));
const seconds = (Date.now() - started) / 1000;
console.log(
  JSON.stringify({ messages, readings, seconds, readingsPerSecond: Math.round(readings / seconds) }),
);
