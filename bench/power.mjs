// Photovoltaic workloads of 智慧管理系统: `npm run bench` (builds first, runs the other benches, then this) or
// `node bench/power.mjs` (uses what is built). PostgreSQL only (DATABASE_URL; `_power` appended to its
// database name), like the telemetry bench.
//
// The issue's fleet is 200 stations × 10 inverters with a year of 5-minute readings: 2 000 inverter-years,
// about 105 000 instants × 13 metrics each, 2.7 billion readings — days of writing and ~300 GB on this
// machine. So the rows are scaled, and say so:
//   1. Ingestion: ONE inverter-year (105 120 instants × 13 metrics, as the simulator's inverters report)
//      written through the HTTP ingestion and the core's writer; time, readings per second, bytes per stored
//      reading, and what the fleet would take at that rate.
//   2. The fleet's daily roll-ups (what yield is computed from): 200 stations × 10 inverters, each with a
//      lifetime counter's daily bucket for every day of the last year (732 000 rows), written by SQL in the
//      shape the writer gives them; then a station's daily yield over one year (powerStationHisData/page,
//      grain day) one request at a time and at 50 connections, and the energy overview over all 200
//      stations (powerStation/overview): first while a batch of readings lands 10 times a second (every
//      answer made again), then between batches (the answer kept: platform/crud/answers.ts answerKept).
//
// Environment: DATABASE_URL (required), BENCH_SECONDS (load per row, default 10), POWER_INGEST=off (skip 1).
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
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
  sleep,
  startServer,
  stopProcess,
  withPgClient,
} from './lib.mjs';
import { CONNECTIONS, LOAD_SECONDS, num, suffixedDbUrl, telemetryBytesPerReading } from './measure.mjs';

const log = makeLog('power');
const STATIONS = 200;
const PER_STATION = 10;
const DAYS = 366;
const STEP_MS = 300_000;
/** the inverters' daily counter buckets are local days (the server's zone, Asia/Shanghai by default) */
const ZONE = process.env.TZ || 'Asia/Shanghai';
const POWER = '/api/dfem-hope-power';
/** telemetry metric ids (packages/contracts METRICS): the lifetime counter; grain 3 is a day */
const ENERGY_TOTAL = 43;
const GRAIN_DAY = 3;

/** One inverter's readings at `at` (a sun bell, like the simulator's), and its lifetime counter. */
function inverterValues(at, counter) {
  const hour = (((at / 3_600_000 + 8) % 24) + 24) % 24;
  const sun = Math.max(0, Math.sin(((hour - 6.5) / 12) * Math.PI));
  const power = 50 * sun * (0.85 + 0.15 * Math.sin(at / 7_200_000));
  const volts = sun > 0 ? 560 + 70 * sun : 0;
  const values = {
    acPower: power,
    energyToday: 0,
    energyTotal: counter,
    inverterTemperature: 18 + 28 * sun,
    inverterState: sun > 0 ? 1 : 0,
  };
  for (let i = 1; i <= 4; i++) {
    values[`pv${i}Voltage`] = volts;
    values[`pv${i}Current`] = volts ? (power * 1000) / 4 / volts : 0;
  }
  return values;
}

/** 200 stations of 10 inverters (devices of the core) and a year of their counters' daily roll-ups. */
async function provisionFleet(url) {
  await withPgClient(url, async (c) => {
    const have = await c.query(
      `select count(*)::int as n from hope_power_station where name like 'BENCH-ST-%'`,
    );
    if (have.rows[0].n >= STATIONS) return;
    log('provisioning 200 stations, 2 000 inverters and a year of their daily roll-ups…');
    await c.query('begin');
    await c.query(
      `insert into hope_power_station (tenant_id, name, capacity, owner_village, tariff, create_user)
       select '000000', 'BENCH-ST-' || lpad(s::text, 3, '0'), 500, '测试村', '0.3949', 1123598821738675201
       from generate_series(1, $1) s`,
      [STATIONS],
    );
    await c.query(
      `insert into hope_device (tenant_id, name, kind, serial, report_interval, secret, create_user)
       select '000000', '测试逆变器 ' || i, '6', 'BENCH-INV-' || lpad(i::text, 5, '0'), 300, md5(i::text), 1123598821738675201
       from generate_series(1, $1) i`,
      [STATIONS * PER_STATION],
    );
    await c.query(
      `insert into hope_inverter (tenant_id, serial, model, rated_power, strings, mppt, station_id, device_id, create_user)
       select '000000', d.serial, 'SUN2000-50KTL', 50, 4, 2, s.id, d.id, 1123598821738675201
       from hope_device d
       join hope_power_station s on s.name = 'BENCH-ST-' || lpad(((substr(d.serial, 11)::int - 1) / $1 + 1)::text, 3, '0')
       where d.serial like 'BENCH-INV-%'`,
      [PER_STATION],
    );
    // each counter: a base of its own, 150–250 kWh a day, the bucket's last reading at 23:55
    await c.query(
      `insert into telemetry_rollup (device_id, metric, grain, bucket, n, total, low, high, last, last_at)
       select d.id, $1, $2, b.day, 288, 0, b.start, b.finish, b.finish, b.day + interval '23 hours 55 minutes'
       from hope_device d
       cross join lateral (
         select (date_trunc('day', now() at time zone $3) - (k || ' days')::interval) at time zone $3 as day,
                d.id % 10000 * 10 + ($4 - k - 1) * (150 + d.id % 100) as start,
                d.id % 10000 * 10 + ($4 - k) * (150 + d.id % 100) as finish
         from generate_series(0, $4 - 1) k
       ) b
       where d.serial like 'BENCH-INV-%'
       on conflict do nothing`,
      [ENERGY_TOTAL, GRAIN_DAY, ZONE, DAYS],
    );
    await c.query(
      `insert into telemetry_state (device_id, tenant_id, last_at, last_values)
       select id, '000000', now(), jsonb_build_object('acPower', 30 + id % 10, 'inverterState', 1)
       from hope_device where serial like 'BENCH-INV-%'
       on conflict do nothing`,
    );
    await c.query('commit');
    await c.query('analyze telemetry_rollup');
  });
}

/** One inverter-year through the HTTP ingestion; answers time, readings and bytes. */
async function ingestYear(base, headers, url) {
  const serial = 'BENCH-INV-YEAR';
  const made = await fetch(`${base}/api/dfem-hope-manage/smartPlant/deviceManage/submit`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: '一年的逆变器',
      kind: '6',
      serial: `${serial}-${Date.now() % 100000}`,
      reportInterval: 300,
    }),
  }).then((r) => r.json());
  if (!made.success) throw new Error(`device: ${JSON.stringify(made)}`);
  const { id, secret, serial: madeSerial } = made.data;
  const end = Date.now() - (Date.now() % STEP_MS);
  const start = end - 365 * 86_400_000;
  const perMessage = Math.floor(5000 / 13);
  let counter = 100_000;
  let batch = [];
  let sent = 0;
  const inFlight = new Set();
  let retries = 0;
  /** one signed message; refused as overloaded (the writer is behind), it is sent again, as a device would */
  const post = async (body) => {
    for (;;) {
      const res = await fetch(`${base}/api/telemetry/000000/6/${madeSerial}/up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (res.ok) return;
      const text = await res.text();
      if (!text.includes('overloaded')) throw new Error(`ingest: ${res.status} ${text}`);
      retries++;
      await sleep(200);
    }
  };
  const send = (readings) => {
    const text = JSON.stringify({ readings });
    const sig = createHmac('sha256', secret).update(text).digest('hex');
    const p = post(JSON.stringify({ data: text, sig })).then(() => inFlight.delete(p));
    inFlight.add(p);
    return p;
  };
  const before = await withPgClient(url, async (c) =>
    Number((await c.query('select count(*)::bigint as n from telemetry_reading')).rows[0].n),
  );
  const t0 = performance.now();
  for (let at = start; at < end; at += STEP_MS) {
    const values = inverterValues(at, counter);
    counter += (values.acPower * STEP_MS) / 3_600_000;
    values.energyTotal = Math.round(counter * 100) / 100;
    sent += 13;
    batch.push({ ts: at, values });
    if (batch.length === perMessage) {
      send(batch);
      batch = [];
      // a few messages on their way at once, as several collectors would send
      if (inFlight.size >= 4) await Promise.race(inFlight);
    }
  }
  if (batch.length) send(batch);
  await Promise.all(inFlight);
  let stored = 0;
  for (let i = 0; i < 600; i++) {
    stored = await withPgClient(url, async (c) =>
      Number(
        (await c.query('select count(*)::bigint as n from telemetry_reading where device_id = $1', [id]))
          .rows[0].n,
      ),
    );
    if (stored >= sent) break;
    await sleep(250);
  }
  const seconds = (performance.now() - t0) / 1000;
  const bytes = await telemetryBytesPerReading(url);
  log(
    `one inverter-year: ${sent} readings sent, ${stored} stored in ${seconds.toFixed(1)} s (${before} before, ${retries} messages sent again while the writer was behind)`,
  );
  return { sent, stored, seconds, perS: stored / seconds, bytes };
}

const BATCHES_PER_S = 10;
/**
 * Runs `work` while a batch of readings lands every 1/BATCHES_PER_S s, as the writer commits them for a busy
 * fleet: one inverter's state and today's counter bucket move (the tables the overview and the yield read).
 */
async function whileReadingsArrive(url, work) {
  let writing = true;
  const writer = withPgClient(url, async (c) => {
    const [{ id }] = (await c.query(`select id from hope_device where serial = 'BENCH-INV-00001'`)).rows;
    while (writing) {
      await c.query('begin');
      await c.query(
        `update telemetry_state set last_at = now(), last_values = last_values || jsonb_build_object('acPower', random() * 50) where device_id = $1`,
        [id],
      );
      await c.query(
        `update telemetry_rollup set high = high + 0.01, last = last + 0.01, last_at = now()
         where device_id = $1 and metric = $2 and grain = $3 and bucket = (select max(bucket) from telemetry_rollup where device_id = $1 and metric = $2 and grain = $3)`,
        [id, ENERGY_TOTAL, GRAIN_DAY],
      );
      await c.query('commit');
      await sleep(1000 / BATCHES_PER_S);
    }
  });
  try {
    await work();
  } finally {
    writing = false;
    await writer;
  }
}

async function main() {
  installExitHandlers();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    log('DATABASE_URL is not set: the power bench runs on PostgreSQL only; skipped');
    return;
  }
  const url = suffixedDbUrl(baseUrl, '_power');
  const dataDir = join(root, '.bench-data', 'power');
  await migratedDatabase('postgres', url, dataDir);
  await provisionFleet(url);
  const server = await startServer(dataDir, url, undefined, { TELEMETRY_OFFLINE_CHECK_MS: '600000' });
  const r = {};
  try {
    const session = await adminSession(server.base);
    const headers = authHeaders(session);
    if (process.env.POWER_INGEST !== 'off') r.ingest = await ingestYear(server.base, headers, url);
    const [station] = (
      await withPgClient(url, (c) =>
        c.query(`select id::text from hope_power_station where name = 'BENCH-ST-001'`),
      )
    ).rows;
    const day = (ms) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
    const yearUrl = `${server.base}${POWER}/powerStationHisData/page?stationId=${station.id}&grain=day&from=${day(Date.now() - 364 * 86_400_000)}&to=${day(Date.now())}&size=10`;
    const check = await fetch(yearUrl, { headers }).then((x) => x.json());
    if (!check.success) throw new Error(`history: ${JSON.stringify(check)}`);
    r.yearDays = check.data.total;
    r.yearKnown = check.data.records.filter((x) => x.energy !== null).length;
    const overviewUrl = `${server.base}${POWER}/powerStation/overview`;
    const ov = await fetch(overviewUrl, { headers }).then((x) => x.json());
    if (!ov.success) throw new Error(`overview: ${JSON.stringify(ov)}`);
    r.overviewStations = ov.data.stations.length;
    // while readings arrive, each batch changes what the figures read: every answer is made again
    await whileReadingsArrive(url, async () => {
      r.year1 = await load(yearUrl, headers, LOAD_SECONDS, 1);
      r.year50 = await load(yearUrl, headers, LOAD_SECONDS, CONNECTIONS);
      r.overview1 = await load(overviewUrl, headers, LOAD_SECONDS, 1);
      r.overview50 = await load(overviewUrl, headers, LOAD_SECONDS, CONNECTIONS);
    });
    // between batches (a quiet fleet, or the minutes between 5-minute readings): the kept answer
    r.yearKept = await load(yearUrl, headers, LOAD_SECONDS, CONNECTIONS);
    r.overviewKept = await load(overviewUrl, headers, LOAD_SECONDS, CONNECTIONS);
  } finally {
    await stopProcess(server);
  }

  const fleet = STATIONS * PER_STATION;
  const rows = ['| measurement | PostgreSQL | target | ok? |', '|---|---|---|---|'];
  if (r.ingest) {
    const fleetHours = (r.ingest.stored * fleet) / r.ingest.perS / 3600;
    rows.push(
      `| one inverter-year of 5-minute readings (${num(r.ingest.sent)} readings, 13 metrics) through the HTTP ingestion: time, readings/s | ${r.ingest.seconds.toFixed(1)} s, ${num(r.ingest.perS)}/s (${num(r.ingest.stored)} stored) | — | — |`,
      `| bytes per stored reading (table and index) | ${r.ingest.bytes.toFixed(1)} | — | — |`,
      `| the fleet's year (200 stations × 10 inverters, ${num(r.ingest.stored * fleet)} readings) at that rate, extrapolated | ${fleetHours.toFixed(0)} h, ${num((r.ingest.bytes * r.ingest.stored * fleet) / 1e9)} GB | — | — |`,
    );
  }
  rows.push(
    `| a station's daily yield over one year (${r.yearDays} days, 10 inverters), ${BATCHES_PER_S} batches of readings landing a second, one request at a time: p50 / p99 ms | ${r.year1.p50} / ${r.year1.p99} (${num(r.year1.rps)} req/s${r.year1.bad ? `, ${r.year1.bad}` : ''}) | p50 ≤ 30 | ${r.year1.p50 <= 30 ? '✅' : '❌'} |`,
    `| the same at ${CONNECTIONS} connections: req/s, p50 / p99 ms | ${num(r.year50.rps)}, ${r.year50.p50} / ${r.year50.p99}${r.year50.bad ? ` (${r.year50.bad})` : ''} | p99 ≤ 100 | ${r.year50.p99 <= 100 && !r.year50.bad ? '✅' : '❌'} |`,
    `| the energy overview over ${r.overviewStations} stations (${fleet} inverters, this month by day), ${BATCHES_PER_S} batches a second, one request at a time: p50 / p99 ms | ${r.overview1.p50} / ${r.overview1.p99} (${num(r.overview1.rps)} req/s${r.overview1.bad ? `, ${r.overview1.bad}` : ''}) | p50 ≤ 50 | ${r.overview1.p50 <= 50 ? '✅' : '❌'} |`,
    `| the overview at ${CONNECTIONS} connections: req/s, p50 / p99 ms | ${num(r.overview50.rps)}, ${r.overview50.p50} / ${r.overview50.p99}${r.overview50.bad ? ` (${r.overview50.bad})` : ''} | p99 ≤ 200 | ${r.overview50.p99 <= 200 && !r.overview50.bad ? '✅' : '❌'} |`,
    `| between batches (nothing changed): a station's yield at ${CONNECTIONS} connections, req/s, p50 / p99 ms | ${num(r.yearKept.rps)}, ${r.yearKept.p50} / ${r.yearKept.p99}${r.yearKept.bad ? ` (${r.yearKept.bad})` : ''} | p99 ≤ 100 | ${r.yearKept.p99 <= 100 && !r.yearKept.bad ? '✅' : '❌'} |`,
    `| between batches: the overview at ${CONNECTIONS} connections, req/s, p50 / p99 ms | ${num(r.overviewKept.rps)}, ${r.overviewKept.p50} / ${r.overviewKept.p99}${r.overviewKept.bad ? ` (${r.overviewKept.bad})` : ''} | p99 ≤ 200 | ${r.overviewKept.p99 <= 200 && !r.overviewKept.bad ? '✅' : '❌'} |`,
  );
  const table = rows.join('\n');
  const md = `# Power bench\n\n${new Date().toISOString()} · Node ${process.version}\n\nScaled: one inverter-year through the writer; the fleet's daily roll-ups written by SQL (see the head of bench/power.mjs). The yield and overview rows run while a batch of readings lands ${BATCHES_PER_S} times a second (each answer made again), then between batches (the kept answer).\n\n${table}\n`;
  writeFileSync(join(root, 'bench', 'last-power.md'), md);
  process.stdout.write(`${table}\n`);
}

await runMain(main, log);
