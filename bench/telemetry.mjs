// Telemetry workloads of 智慧管理系统: `npm run bench` (builds first, runs the other benches, then this) or
// `node bench/telemetry.mjs` (uses what is built). PostgreSQL only (DATABASE_URL; `_telemetry` appended to its
// database name): ingestion is a PostgreSQL deployment's job, and the simulator adds its stations directly.
//
//   1. Ingestion through MQTT into PostgreSQL: the server subscribed to Mosquitto (MQTT_URL, default
//      mqtt://127.0.0.1:1883; the server's own broker when none answers), the simulator publishing signed
//      readings of SIM_DEVICES weather stations (7 metrics a message) for 60 s; readings per second stored,
//      and beside it a plain COPY of the same number of rows into a table of the same shape (psql \copy).
//   2. Bytes per stored reading (partitions and their index, after the run).
//   3. History of one device over one year of 5-minute readings (105 120, written through the HTTP
//      ingestion): answered as ≤ 1 000 points, one request at a time and at 50 connections.
//
// Environment: DATABASE_URL (required), MQTT_URL, INGEST_SECONDS (default 60), SIM_DEVICES (default 2000),
// SIM_RATE (messages per second, default 2000), SIM_BATCH (instants per message, default 1), BENCH_SECONDS.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adminSession,
  authHeaders,
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
  withPgClient,
} from './lib.mjs';
import { CONNECTIONS, LOAD_SECONDS, num, suffixedDbUrl, telemetryBytesPerReading } from './measure.mjs';

const log = makeLog('telemetry');
const INGEST_SECONDS = Number(process.env.INGEST_SECONDS ?? 60);
const SIM_DEVICES = Number(process.env.SIM_DEVICES ?? 2000);
const SIM_RATE = Number(process.env.SIM_RATE ?? 2000);
const SIM_BATCH = Number(process.env.SIM_BATCH ?? 1);
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

/** runs the simulator (apps/server/src/tools/simulate.ts) to its end; its last line (JSON totals) */
function simulate(args, env) {
  return runToolJson('simulator', 'apps/server/src/tools/simulate.ts', args, env, 'simulator');
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
  const mqttUrl = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
  const broker = (await reachable(mqttUrl)) ? { MQTT_URL: mqttUrl } : { MQTT_PORT: '0' };
  log(`broker: ${broker.MQTT_URL ?? `the server’s own (no broker answers at ${mqttUrl})`}`);
  const results = {};

  // 1. ingestion: stations provisioned (idempotent), then published for INGEST_SECONDS
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
    const t0 = performance.now();
    const sent = await simulate(
      [
        '--url',
        brokerUrl,
        '--provision',
        '--devices',
        String(SIM_DEVICES),
        '--rate',
        String(SIM_RATE),
        '--batch',
        String(SIM_BATCH),
        '--duration',
        String(INGEST_SECONDS),
      ],
      { DATABASE_URL: url },
    );
    const during = await count(url);
    const publishS = (performance.now() - t0) / 1000;
    // what was still on its way when publishing stopped
    let after = during;
    for (let i = 0; i < 60; i++) {
      await sleep(500);
      const n = await count(url);
      if (n === after && n - before >= sent.readings * 0.999) break;
      after = n;
    }
    after = await count(url);
    const drainS = (performance.now() - t0) / 1000;
    results.ingest = {
      published: sent.readings,
      publishedPerS: sent.readingsPerSecond,
      stored: after - before,
      storedPerS: (after - before) / drainS,
      duringPerS: (during - before) / publishS,
      lost: sent.readings - (after - before),
    };
    log(`ingestion: ${JSON.stringify(results.ingest)}`);

    // a plain COPY of as many rows into a table of the same shape, for the ratio
    const rows = Math.max(1, after - before);
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
  const table = [
    '| measurement | PostgreSQL | target | ok? |',
    '|---|---|---|---|',
    `| ingestion through MQTT, readings/s stored (${SIM_DEVICES} stations, ${INGEST_SECONDS} s) | ${num(r.ingest.storedPerS)} (published ${num(r.ingest.publishedPerS)}/s, ${num(r.ingest.lost)} not stored) | ≥ 10 000 | ${r.ingest.storedPerS >= 10_000 ? '✅' : '❌'} |`,
    `| plain COPY of the same rows, rows/s | ${num(r.copyPerS)} (ingestion is ${(r.ingest.storedPerS / r.copyPerS).toFixed(2)}× of it) | — | — |`,
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
