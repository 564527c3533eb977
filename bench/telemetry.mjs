// Telemetry workloads of 智慧管理系统: `npm run bench` (builds first, runs the other benches, then this) or
// `node bench/telemetry.mjs` (uses what is built). PostgreSQL only (DATABASE_URL; `_telemetry` appended to its
// database name): ingestion is a PostgreSQL deployment's job, and the simulator adds its stations directly.
//
//   1. Ingestion through MQTT into PostgreSQL, the offered load swept upward: SIM_DEVICES weather stations
//      (7 metrics an instant, SIM_BATCH instants a message, QoS 1) publish for INGEST_SECONDS at each of
//      SWEEP readings/s; readings stored per second in each step (PostgreSQL's own count of rows inserted),
//      the peak, each later step against the peak (while stored/s still rises by more than 5 %, a step at
//      twice the last offer is added, twice at most), and every reading published stored in the end (the
//      broker holds what the server does not take yet). Beside it a plain COPY of as many rows (psql \copy).
//      The broker: a Mosquitto of the bench's own when `mosquitto` is installed (its queue per client
//      unbounded, as a deployment that wants no QoS 1 reading dropped sets it: README "Telemetry"), else
//      MQTT_URL (default mqtt://127.0.0.1:1883), else the server's own.
//   2. Bytes per stored reading (partitions and their index, after the run).
//   3. History of one device over one year of 5-minute readings (105 120, written through the HTTP
//      ingestion): answered as ≤ 1 000 points, one request at a time and at 50 connections.
//
// Environment: DATABASE_URL (required), MQTT_URL, INGEST_SECONDS (per step, default 60), SIM_DEVICES (default
// 2000), SWEEP (readings/s offered, default 14000,28000,56000,112000), SIM_BATCH (instants per message,
// default 10), BENCH_SECONDS.
import { execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adminSession,
  authHeaders,
  cpuSeconds,
  freePort,
  installExitHandlers,
  load,
  makeLog,
  migratedDatabase,
  root,
  runMain,
  runToolJson,
  sleep,
  startServer,
  stopProcess,
  tracked,
  withPgClient,
} from './lib.mjs';
import { CONNECTIONS, LOAD_SECONDS, num, suffixedDbUrl, telemetryBytesPerReading } from './measure.mjs';

const log = makeLog('telemetry');
const INGEST_SECONDS = Number(process.env.INGEST_SECONDS ?? 60);
const SIM_DEVICES = Number(process.env.SIM_DEVICES ?? 2000);
const SWEEP = (process.env.SWEEP ?? '14000,28000,56000,112000').split(',').map(Number);
const SIM_BATCH = Number(process.env.SIM_BATCH ?? 10);
/** a weather station's metrics: the readings of one instant */
const READINGS_PER_INSTANT = 7;
const API = '/api/dfem-hope-manage/smartPlant/deviceManage';

function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || 1883), u.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.setTimeout(1000, () => {
      s.destroy();
      resolve(false);
    });
  });
}

const count = (url) =>
  withPgClient(url, async (c) =>
    Number((await c.query('select count(*)::bigint as n from telemetry_reading')).rows[0].n),
  );

/**
 * rows PostgreSQL has inserted into the readings' partitions: its statistics, no scan of the table (each
 * server connection reports them at least once a second while it writes)
 */
const inserted = (url) =>
  withPgClient(url, async (c) => {
    return Number(
      (
        await c.query(
          `select coalesce(sum(n_tup_ins), 0)::bigint as n from pg_stat_user_tables where relname like 'telemetry_reading%'`,
        )
      ).rows[0].n,
    );
  });

/** runs the simulator (apps/server/src/tools/simulate.ts) to its end; its last line (JSON totals) */
function simulate(args, env, onOutput) {
  return runToolJson('simulator', 'apps/server/src/tools/simulate.ts', args, env, 'simulator', onOutput);
}

/** the bench's own Mosquitto, when it started one */
let brokerProcess;

/** CPU seconds used so far by this bench's children that have ended (the simulator runs): /proc/self/stat */
function endedChildrenCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // cutime and cstime are the stat file's 16th and 17th fields, in clock ticks
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** CPU seconds of the server, the broker (when the bench's own) and the simulator runs so far */
const cpuOf = (server) => ({
  server: cpuSeconds(server.child.pid),
  broker: brokerProcess ? cpuSeconds(brokerProcess.pid) : Number.NaN,
  simulator: endedChildrenCpu(),
});

/**
 * A Mosquitto of the bench's own on a free port: its queue per client unbounded (Mosquitto's default keeps
 * 1 000 QoS 1 messages a client and drops the rest), no persistence. Null when `mosquitto` is not installed.
 */
async function ownBroker() {
  try {
    execFileSync('mosquitto', ['-h'], { stdio: 'ignore' });
  } catch (e) {
    if (e.code === 'ENOENT') return null;
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-mosquitto-'));
  chmodSync(dir, 0o777); // Mosquitto started by root runs as its own user, and writes its log here
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 0',
      'max_inflight_messages 100',
      `log_dest file ${join(dir, 'mosquitto.log')}`,
      '',
    ].join('\n'),
  );
  brokerProcess = tracked(spawn('mosquitto', ['-c', conf], { stdio: 'ignore' }));
  const url = `mqtt://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && !(await reachable(url)); i++) await sleep(100);
  log(`the bench's Mosquitto: ${url}, its log ${join(dir, 'mosquitto.log')}`);
  return url;
}

async function main() {
  installExitHandlers();
  const base = process.env.DATABASE_URL;
  if (!base) {
    log('DATABASE_URL is not set: the telemetry bench runs on PostgreSQL only; skipped');
    return;
  }
  const url = suffixedDbUrl(base, '_telemetry');
  const dataDir = join(root, '.bench-data', 'telemetry');
  await migratedDatabase('postgres', url, dataDir);
  const mqttUrl =
    (!process.env.MQTT_URL && (await ownBroker())) || process.env.MQTT_URL || 'mqtt://127.0.0.1:1883';
  const broker = (await reachable(mqttUrl)) ? { MQTT_URL: mqttUrl } : { MQTT_PORT: '0' };
  log(`broker: ${broker.MQTT_URL ?? `the server’s own (no broker answers at ${mqttUrl})`}`);
  const results = {};

  // 1. ingestion: stations provisioned (idempotent), then the offered load swept upward
  await simulate(['--provision', '--devices', String(SIM_DEVICES), '--duration', '0'], { DATABASE_URL: url });
  const server = await startServer(dataDir, url, undefined, {
    ...broker,
    TELEMETRY_OFFLINE_CHECK_MS: '600000',
  });
  try {
    const brokerUrl = broker.MQTT_URL;
    if (!brokerUrl) throw new Error('no MQTT broker reachable for the ingestion row');
    await sleep(1000); // the server's subscription is in place
    const before = await count(url);
    const insertedBefore = await inserted(url);
    results.steps = [];
    let published = 0;
    // the steps asked for, then doubled while stored/s still rose by more than 5 % (at most 2 more): the sweep
    // ends past the peak
    const offers = [...SWEEP];
    for (let i = 0; i < offers.length; i++) {
      const offered = offers[i];
      const rate = Math.max(1, Math.round(offered / (READINGS_PER_INSTANT * SIM_BATCH)));
      // the window: from the simulator's first message (its devices connected) to its last
      let window;
      const sent = await simulate(
        [
          '--url',
          brokerUrl,
          '--provision',
          '--devices',
          String(SIM_DEVICES),
          '--rate',
          String(rate),
          '--batch',
          String(SIM_BATCH),
          '--qos',
          '1',
          '--duration',
          String(INGEST_SECONDS),
        ],
        { DATABASE_URL: url },
        (out) => {
          if (!window && out.includes('publishing from'))
            window = inserted(url).then((n) => ({ n, t: performance.now(), cpu: cpuOf(server) }));
        },
      );
      const start = await window;
      const end = { n: await inserted(url), t: performance.now(), cpu: cpuOf(server) };
      published += sent.readings;
      const seconds = (end.t - start.t) / 1000;
      // cores used on average: the server and the broker over the window, the simulator over its whole run
      // (its connecting included: an upper bound)
      const cores = Object.fromEntries(
        Object.keys(end.cpu).map((k) => [k, (end.cpu[k] - start.cpu[k]) / seconds]),
      );
      const step = {
        offered: sent.readingsPerSecond,
        storedPerS: (end.n - start.n) / seconds,
        cores,
      };
      step.asked = offered;
      results.steps.push(step);
      log(`offered ${num(offered)} readings/s: ${JSON.stringify(step)}`);
      const before = results.steps.at(-2);
      if (
        i === offers.length - 1 &&
        before &&
        step.storedPerS > 1.05 * before.storedPerS &&
        offers.length < SWEEP.length + 2
      )
        offers.push(offered * 2);
    }
    // what the broker still holds (pushback past the peak) is stored once publishing stopped: until nothing
    // more comes for 20 s (PostgreSQL's statistics while waiting, one exact count at the end)
    for (let last = -1, still = 0, i = 0; still < 20 && i < 1200; i++) {
      const n = await inserted(url);
      if (n - insertedBefore >= published) break;
      still = n === last ? still + 1 : 0;
      last = n;
      await sleep(1000);
    }
    const stored = (await count(url)) - before;
    results.ingest = { published, stored, lost: published - stored };
    log(`ingestion sweep: ${JSON.stringify(results.ingest)}`);

    // a plain COPY of as many rows as the peak step stored (at most 2 million) into a table of the same
    // shape, for the ratio
    const rows = Math.max(
      1,
      Math.min(2_000_000, Math.round(Math.max(...results.steps.map((x) => x.storedPerS)) * INGEST_SECONDS)),
    );
    const csv = join(tmpdir(), 'telemetry-copy.csv');
    const lines = [];
    const now = Date.now();
    for (let i = 0; i < rows; i++)
      lines.push(
        `${1 + (i % SIM_DEVICES)},${new Date(now - i * 10).toISOString()},${(20 + (i % 100) / 10).toFixed(1)},${1 + (i % 7)}`,
      );
    writeFileSync(csv, `${lines.join('\n')}\n`);
    await withPgClient(url, async (c) => {
      await c.query('drop table if exists bench_copy');
      await c.query(
        'create table bench_copy (device_id bigint not null, at timestamptz not null, value float8 not null, metric smallint not null)',
      );
      await c.query('create index on bench_copy (device_id, metric, at)');
    });
    const c0 = performance.now();
    execFileSync('psql', [url, '-q', '-c', `\\copy bench_copy from '${csv}' csv`]);
    const copyS = (performance.now() - c0) / 1000;
    results.copyPerS = rows / copyS;
    await withPgClient(url, (c) => c.query('drop table bench_copy'));
    log(`COPY of ${rows} rows: ${copyS.toFixed(2)} s`);

    // 2. bytes per reading
    results.bytes = await telemetryBytesPerReading(url);

    // 3. one year of 5-minute readings of one soil station, written through the HTTP ingestion
    const session = await adminSession(server.base);
    const headers = authHeaders(session);
    const serial = 'BENCH-YEAR';
    const dev = await fetch(`${server.base}${API}/page?serial=${serial}`, { headers }).then((r) => r.json());
    let device = dev.data.records.find((r) => r.serial === serial);
    let secret;
    if (!device) {
      const made = await fetch(`${server.base}${API}/submit`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: '一年的墒情站', kind: '2', serial, reportInterval: 300 }),
      }).then((r) => r.json());
      device = made.data;
      secret = made.data.secret;
      const end = Date.now() - (Date.now() % 300_000);
      const start = end - 365 * 86_400_000;
      let batch = [];
      const send = async () => {
        // a year back: older than the live window, so sent as a signed backfill
        const text = JSON.stringify({ backfill: true, readings: batch });
        const sig = createHmac('sha256', secret).update(text).digest('hex');
        const res = await fetch(`${server.base}/api/telemetry/000000/2/${serial}/up`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: text, sig }),
        });
        if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`);
        batch = [];
      };
      for (let at = start; at < end; at += 300_000) {
        batch.push({
          ts: at,
          values: { soilMoisture: 25 + 8 * Math.sin(at / 86_400_000) + 2 * Math.sin(at / 3_600_000) },
        });
        if (batch.length === 5000) await send();
      }
      if (batch.length) await send();
      // the ingestion writes in batches: wait until the whole year is stored
      const expected = Math.round((end - start) / 300_000);
      for (let i = 0; i < 240; i++) {
        const n = await withPgClient(url, async (c) =>
          Number(
            (await c.query('select count(*) as n from telemetry_reading where device_id = $1', [device.id]))
              .rows[0].n,
          ),
        );
        if (n >= expected) break;
        await sleep(500);
      }
    }
    const to = Date.now();
    const q = `deviceId=${device.id}&metric=soilMoisture&from=${to - 365 * 86_400_000}&to=${to}`;
    const one = await fetch(`${server.base}${API}/history?${q}`, { headers }).then((r) => r.json());
    results.historyPoints = one.data.points.length;
    results.history1 = await load(`${server.base}${API}/history?${q}`, headers, LOAD_SECONDS, 1);
    results.history50 = await load(`${server.base}${API}/history?${q}`, headers, LOAD_SECONDS, CONNECTIONS);
  } finally {
    await stopProcess(server);
  }

  const r = results;
  const peak = Math.max(...r.steps.map((x) => x.storedPerS));
  const peakAt = r.steps.findIndex((x) => x.storedPerS === peak);
  const table = [
    '| measurement | PostgreSQL | target | ok? |',
    '|---|---|---|---|',
    ...r.steps.map(
      (x, i) =>
        `| ingestion through MQTT, QoS 1, offered ${num(x.asked)} readings/s (${num(x.offered)} sent; cores used: server ${x.cores.server.toFixed(2)}, broker ${x.cores.broker.toFixed(2)}, simulator ≤ ${x.cores.simulator.toFixed(2)}): stored/s | ${num(x.storedPerS)}${i > peakAt ? ` (${(x.storedPerS / peak).toFixed(2)} of the peak)` : i === peakAt ? ' (the peak)' : ''} | ${i > peakAt ? '≥ 0.9 of the peak' : '—'} | ${i > peakAt ? (x.storedPerS >= 0.9 * peak ? '✅' : '❌') : '—'} |`,
    ),
    `| ingestion: the peak, readings/s stored | ${num(peak)} | ≥ 100 000 | ${peak >= 100_000 ? '✅' : '❌'} |`,
    `| plain COPY of as many rows, rows/s | ${num(r.copyPerS)} (the peak is ${(peak / r.copyPerS).toFixed(2)}× of it) | ≥ 0.3× | ${peak / r.copyPerS >= 0.3 ? '✅' : '❌'} |`,
    `| readings published with QoS 1 over the sweep, not stored in the end | ${num(r.ingest.lost)} of ${num(r.ingest.published)} | 0 | ${r.ingest.lost === 0 ? '✅' : '❌'} |`,
    `| bytes per stored reading (table and index) | ${r.bytes.toFixed(1)} | — | — |`,
    `| history of a year of 5-minute readings: points answered | ${r.historyPoints} | ≤ 1 000 | ${r.historyPoints <= 1000 ? '✅' : '❌'} |`,
    `| history, one request at a time: p50 / p99 ms | ${r.history1.p50} / ${r.history1.p99} (${num(r.history1.rps)} req/s${r.history1.bad ? `, ${r.history1.bad}` : ''}) | p50 ≤ 50 | ${r.history1.p50 <= 50 ? '✅' : '❌'} |`,
    `| history at ${CONNECTIONS} connections: req/s, p50 / p99 ms | ${num(r.history50.rps)}, ${r.history50.p50} / ${r.history50.p99}${r.history50.bad ? ` (${r.history50.bad})` : ''} | p99 ≤ 200 | ${r.history50.p99 <= 200 && !r.history50.bad ? '✅' : '❌'} |`,
  ].join('\n');
  const md = `# Telemetry bench\n\n${new Date().toISOString()} · Node ${process.version}\n\n${table}\n`;
  writeFileSync(join(root, 'bench', 'last-telemetry.md'), md);
  process.stdout.write(`${table}\n`);
}

await runMain(main, log);
