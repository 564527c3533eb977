// A long day (issue 38): `node bench/soak.mjs` with DATABASE_URL=postgres://… (what is built is measured;
// `npm run build` first). One instance behind HAProxy, then two (`npm run cluster`'s recipe, scripts/cluster.mjs),
// on one PostgreSQL (the database of DATABASE_URL with `_soak` appended, seeded by the first start) and Redis
// (REDIS_URL, default redis://127.0.0.1:6379), each loaded for SOAK_MINUTES (default 10) at 50 connections
// with a clerk's mix: villager pages (random pages, village groups, sexes, surnames), the to-do list, the
// home, a weather station's day of readings, and every tenth request a notice written. Per minute:
// requests, failures, p50/p99 and each instance's RSS; then whether memory stayed flat (after minute 2
// within ±15 %), no request failed, and the two instances' throughput over the one's. Progress to stderr;
// the table to stdout and to bench/last-soak.md.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error a plain ES module of the repository's scripts, without types
import { startCluster } from '../scripts/cluster.mjs';
import {
  adminSession,
  authHeaders,
  here,
  installExitHandlers,
  load,
  makeLog,
  rssMb,
  runMain,
  withPgClient,
} from './lib.mjs';
import { fmt, machineLine, num, suffixedDbUrl } from './measure.mjs';

installExitHandlers();
const log = makeLog('soak');

const DATABASE_URL = process.env.DATABASE_URL || '';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const MINUTES = Math.max(1, Number(process.env.SOAK_MINUTES) || 10);
const CONNECTIONS = 50;
/** memory is flat when every minute from the second on is within this of minute 2's */
const RSS_BAND = 0.15;

const SURNAMES = '王李张刘陈杨黄赵吴周';
const WEATHER_STATION = '1190000000001800001'; // TELEMETRY_DEMO.weatherId
const pick = (n) => Math.floor(Math.random() * n);
const JSON_BODY = { 'content-type': 'application/json' };

/** the clerk's mix: what a request of the soak asks, by its number */
function mixedRequest(n) {
  if (n % 10 === 0)
    return {
      method: 'POST',
      path: '/api/dfem-desk/notice/submit',
      body: JSON.stringify({
        title: `值班通知 ${n}`,
        category: '1',
        releaseTime: '2026-11-29 08:00:00',
        content: '今日值班安排',
      }),
    };
  const r = pick(9);
  if (r < 5) {
    const q = [`current=${1 + pick(5)}`, 'size=10'];
    if (pick(2)) q.push(`villageGroup=${1 + pick(6)}`);
    if (!pick(3)) q.push(`sex=${1 + pick(2)}`);
    if (!pick(3)) q.push(`name=${encodeURIComponent(SURNAMES[pick(SURNAMES.length)])}`);
    return { method: 'GET', path: `/api/dfem-hope-manage/villager/page?${q.join('&')}` };
  }
  if (r < 7) return { method: 'GET', path: '/api/dfem-flow/work/todo-list?current=1&size=10' };
  if (r < 8) return { method: 'GET', path: '/api/dfem-desk/home' };
  return {
    method: 'GET',
    path: `/api/dfem-hope-manage/smartPlant/deviceManage/history?deviceId=${WEATHER_STATION}&metric=airTemperature`,
  };
}

/** `instances` servers behind the proxy, loaded minute by minute */
async function soak(instances, databaseUrl) {
  // a fresh database each run, seeded by the first start: the two runs start from the same rows (the notices
  // the one instance wrote made the two slower)
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const name = new URL(databaseUrl).pathname.slice(1);
  await withPgClient(maintenance.toString(), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const cluster = await startCluster({
    instances,
    databaseUrl,
    redisUrl: REDIS_URL,
    env: { LOG_LEVEL: 'warn', DEMO_VIDEO: 'off', TELEMETRY_SIMULATOR: 'on', CAPTCHA_MODE: 'false' },
    output: () => {},
  });
  try {
    const base = cluster.proxyUrl;
    const auth = authHeaders(await adminSession(base));
    // every kind of request answers before the load (a broken one would only show as failures)
    for (const n of [10, 1, 2, 3, 4, 5, 6, 7, 8]) {
      const { method, path, body } = mixedRequest(n);
      const res = await fetch(base + path, {
        method,
        headers: body ? { ...auth, ...JSON_BODY } : auth,
        body,
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    }
    let n = 0;
    const minutes = [];
    for (let m = 1; m <= MINUTES; m++) {
      // autocannon hands each request the one before it, headers and all: a GET after a write must not keep
      // its body nor its content-length (the proxy refuses such a request with a 400)
      const r = await load(base, auth, 60, CONNECTIONS, (req) => {
        const next = mixedRequest(++n);
        return {
          ...req,
          body: undefined,
          ...next,
          headers: next.body ? { ...auth, ...JSON_BODY } : { ...auth },
        };
      });
      const rss = cluster.instances.map((i) => rssMb(i.child.pid));
      minutes.push({ ...r, rss });
      log(
        `${instances} instance(s), minute ${m}: ${num(r.total)} requests, ${r.failed} failed, ` +
          `p50 ${r.p50} ms, p99 ${r.p99} ms, RSS ${rss.map((x) => `${x.toFixed(0)} MB`).join(' + ')}`,
      );
    }
    return minutes;
  } finally {
    await cluster.stop();
  }
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** from minute 2 on, each instance's RSS within the band of its minute-2 value */
function flatMemory(minutes) {
  if (minutes.length < 2) return { flat: true, worst: 0 };
  let worst = 0;
  for (const m of minutes.slice(1))
    m.rss.forEach((x, i) => {
      worst = Math.max(worst, Math.abs(x / minutes[1].rss[i] - 1));
    });
  return { flat: worst <= RSS_BAND, worst };
}

async function main() {
  if (!DATABASE_URL)
    throw new Error('DATABASE_URL=postgres://… is required: the instances share one PostgreSQL');
  const databaseUrl = suffixedDbUrl(DATABASE_URL, '_soak');
  const name = new URL(databaseUrl).pathname.slice(1);
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  const runs = {};
  for (const instances of [1, 2]) runs[instances] = await soak(instances, databaseUrl);

  const lines = [
    '| instances | minute | requests | failed | p50 | p99 | RSS per instance |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [instances, minutes] of Object.entries(runs))
    minutes.forEach((m, i) => {
      lines.push(
        `| ${instances} | ${i + 1} | ${num(m.total)} | ${m.failed} | ${m.p50} ms | ${m.p99} ms | ${m.rss.map((x) => `${x.toFixed(0)} MB`).join(' + ')} |`,
      );
    });
  const summary = ['', '| | one instance | two behind the proxy | goal |', '|---|---|---|---|'];
  const total = (ms) => ms.reduce((a, m) => a + m.total, 0);
  const failed = (ms) => ms.reduce((a, m) => a + m.failed, 0);
  const rps = (ms) => total(ms) / (ms.length * 60);
  const mem = [flatMemory(runs[1]), flatMemory(runs[2])];
  summary.push(
    `| requests (req/s) | ${num(total(runs[1]))} (${rps(runs[1]).toFixed(0)}) | ${num(total(runs[2]))} (${rps(runs[2]).toFixed(0)}) | — |`,
    `| failed | ${failed(runs[1])} | ${failed(runs[2])} | 0 ${failed(runs[1]) + failed(runs[2]) === 0 ? '✅' : '❌'} |`,
    `| RSS after minute 2, widest move | ${pct(mem[0].worst)} | ${pct(mem[1].worst)} | within ±15 % ${mem[0].flat && mem[1].flat ? '✅' : '❌'} |`,
    `| throughput, two / one | — | ${(rps(runs[2]) / rps(runs[1])).toFixed(2)} | — |`,
  );
  const table = [...lines, ...summary].join('\n');
  const facts =
    `${new Date().toISOString()} · Node ${process.version} · ${MINUTES} min per run at ${CONNECTIONS} connections, ` +
    `autocannon in the same machine · PostgreSQL ${name}, Redis · ${machineLine(loadAtStart)} · ` +
    `took ${fmt.s((Date.now() - started) / 1000)}`;
  writeFileSync(join(here, 'last-soak.md'), `Soak: a long day behind the proxy\n\n${facts}\n\n${table}\n`);
  process.stdout.write(`${table}\n`);
}

runMain(main);
