// Benchmark of 智慧管理系统: `npm run bench` (builds first) or `node bench/run.mjs` (uses what is built).
//
//   bytes on the wire to show /login and the signed-in home (Debian Chromium, PGlite server only)
//   the shell in the browser: a kept-alive tab's click-to-visible time, and the JS heap after opening 20
//   tabs and closing them again, round after round (it must not grow beyond the first round)
//   throughput and latency of two authenticated API routes over 100 000 seeded users (autocannon, 50 connections)
//   the users page again with READ_CACHE=false (every request read from the database), and the same SQL
//   behind a bare Fastify route (bench/bare-server.mjs): framework overhead ratio
//   start-up time on an existing data folder, resident memory after the load
//
// PGlite always; PostgreSQL too when DATABASE_URL is set (the database is created when missing).
// Progress goes to stderr; the table to stdout and to bench/last-run.md.
// Environment: DATABASE_URL, BENCH_SECONDS (load per route, default 10), BENCH_DATA (data folder root,
// default <repo>/.bench-data), WEB_DIST (default apps/web/dist).
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { measureWeb, ROUNDS } from './browser.mjs';
import {
  API_MENU,
  adminSession,
  assertServerBuilt,
  elapsed,
  freePort,
  getJson,
  here,
  installExitHandlers,
  load,
  makeLog,
  migratedDatabase,
  READ_FROM_DATABASE,
  root,
  rssMb,
  runMain,
  startProcess,
  startServer,
  stopProcess,
  withPgClient,
} from './lib.mjs';
import { buildTable as buildTableOf, CONNECTIONS, kb, LOAD_SECONDS } from './measure.mjs';
import { openPglite } from './pglite.mjs';

const bareMain = join(here, 'bare-server.mjs');
const webDist = resolve(process.env.WEB_DIST ?? join(root, 'apps', 'web', 'dist'));
const dataRoot = resolve(process.env.BENCH_DATA ?? join(root, '.bench-data'));
const DATABASE_URL = process.env.DATABASE_URL || '';
const WARMUP_SECONDS = 2;
const USERS = 100_000;
const log = makeLog('bench');
installExitHandlers();

// ---------------------------------------------------------------------------------------------------------
// seeding 100 000 users with one statement, through a direct connection (never through the running server)

const BENCH_ACCOUNT = `account ~ '^bench[0-9]+$'`;
const SEED_SQL = `
BEGIN;
DELETE FROM blade_user_dept WHERE user_id IN (SELECT id FROM blade_user WHERE ${BENCH_ACCOUNT});
DELETE FROM blade_user WHERE ${BENCH_ACCOUNT};
INSERT INTO blade_user (tenant_id, account, password, name, real_name, email, phone, sex, status, create_time, update_time)
SELECT '000000', 'bench' || n, 'not-a-hash: bench users cannot sign in', 'bench' || n, '用户' || n,
       'bench' || n || '@example.com', '138' || lpad(n::text, 8, '0'), n % 2 + 1, 1,
       timestamptz '2023-01-01 00:00:00+08' + n * interval '7 minutes',
       timestamptz '2023-01-01 00:00:00+08' + n * interval '7 minutes'
FROM generate_series(1, ${USERS}) AS n;
INSERT INTO blade_user_dept (user_id, dept_id)
SELECT id, 1123598813738675202 + (substr(account, 6)::int % 4) FROM blade_user WHERE ${BENCH_ACCOUNT};
COMMIT;
`;
/** A settled table, as autovacuum leaves it on PostgreSQL (fresh statistics, visibility map); cheap when done. */
const VACUUM_SQL = ['VACUUM ANALYZE blade_user', 'VACUUM ANALYZE blade_user_dept'];
const COUNT_SQL = `SELECT count(*)::int AS n FROM blade_user WHERE tenant_id = '000000' AND is_deleted = 0 AND ${BENCH_ACCOUNT}`;

/** Adds the bench users unless they are there, then settles the tables; `exec` runs several statements. */
async function seedUsers(label, query, exec) {
  const { rows } = await query(COUNT_SQL);
  if (rows[0].n === USERS) log(`${label}: ${USERS} bench users already there`);
  else {
    log(`${label}: inserting ${USERS} users (${rows[0].n} were there)…`);
    const t0 = performance.now();
    await exec(SEED_SQL);
    log(`${label}: seeded in ${Math.round(performance.now() - t0)} ms`);
  }
  for (const q of VACUUM_SQL) await exec(q); // one statement each: VACUUM refuses a transaction
}

async function seedPglite(pgdata) {
  const client = await openPglite(pgdata);
  try {
    await seedUsers(
      'PGlite',
      (q) => client.query(q),
      (q) => client.exec(q),
    );
  } finally {
    await client.close();
  }
}

function seedPostgres(url) {
  return withPgClient(url, (c) =>
    seedUsers(
      'PostgreSQL',
      (q) => c.query(q),
      (q) => c.query(q),
    ),
  );
}

async function measureRoute(label, url, headers) {
  await load(url, headers, WARMUP_SECONDS, 10);
  const r = await load(url, headers, LOAD_SECONDS, CONNECTIONS);
  log(
    `${label}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.total} requests` +
      (r.bad ? `, ${r.bad}` : ''),
  );
  return r;
}

// ---------------------------------------------------------------------------------------------------------
// one database: start-up, load on the two routes, memory, then the bare server on the same data

const API_PAGE = '/api/dfem-user/page?current=1&size=10';
const BARE_PAGE = '/bare/user/page?current=1&size=10';

/** Fills `out` as it goes, so what was measured before a failure still reaches the table. */
async function benchDatabase(kind, withBrowser, out) {
  const dataDir = join(dataRoot, kind);
  // 1. a migrated and seeded database with the bench users, seeded while no server runs
  const { isPg, label, pgdata } = await migratedDatabase(kind, DATABASE_URL, dataDir, webDist);
  if (isPg) await seedPostgres(DATABASE_URL);
  else await seedPglite(pgdata);

  // 2. start-up on the existing folder / database
  let server;
  let session;
  try {
    server = await startServer(dataDir, isPg ? DATABASE_URL : undefined, webDist);
    out.startMs = server.ms;
    log(`${label}: server (pid ${server.child.pid}) answering after ${server.ms} ms`);

    session = await adminSession(server.base);
    const headers = { 'blade-auth': `bearer ${session.access_token}` };

    // sanity: both routes answer, and the page sees the seeded users
    const menu = await getJson(server.base + API_MENU, headers);
    const page = await getJson(server.base + API_PAGE, headers);
    if (!menu.success || !Array.isArray(menu.data)) throw new Error(`menu/routes: unexpected answer`);
    if (!page.success || page.data.total < USERS) throw new Error(`user/page: total ${page.data?.total}`);
    out.realPage = page.data;
    log(`${label}: menu/routes has ${menu.data.length} top menus; user/page total ${page.data.total}`);

    // 3. load
    out.menu = await measureRoute(`${label} menu/routes`, server.base + API_MENU, headers);
    out.page = await measureRoute(`${label} user/page`, server.base + API_PAGE, headers);
    out.rssMb = rssMb(server.child.pid);
    log(`${label}: server RSS after the load ${out.rssMb.toFixed(0)} MB`);

    // 4. the browser (bytes do not depend on the database: PGlite only)
    if (withBrowser) {
      try {
        out.web = await measureWeb(server.base, webDist);
      } catch (err) {
        log(`web FAILED: ${err.stack ?? err}`);
        out.web = { error: String(err.message ?? err).split('\n')[0] };
      }
    }
  } finally {
    if (server) await stopProcess(server);
  }

  // 5. the same page with the read cache off: every request is answered by the database, like the bare route's
  let uncached;
  try {
    uncached = await startServer(dataDir, isPg ? DATABASE_URL : undefined, webDist, READ_FROM_DATABASE);
    const headers = { 'blade-auth': `bearer ${(await adminSession(uncached.base)).access_token}` };
    out.pageUncached = await measureRoute(
      `${label} user/page (READ_CACHE=false)`,
      uncached.base + API_PAGE,
      headers,
    );
  } finally {
    if (uncached) await stopProcess(uncached);
  }

  // 6. the bare server on the same data, while the real one is stopped (one PGlite folder, one process)
  const port = await freePort();
  const env = { ...process.env, PORT: String(port) };
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  if (isPg) env.DATABASE_URL = DATABASE_URL;
  else env.PGLITE_DIR = pgdata;
  const bare = await startProcess('bare server', bareMain, env, port, '/ready');
  try {
    const base = `http://127.0.0.1:${port}`;
    const bp = await getJson(base + BARE_PAGE);
    const same =
      bp.total === out.realPage.total &&
      bp.records.map((r) => String(r.id)).join() === out.realPage.records.map((r) => String(r.id)).join();
    if (!same) {
      out.bareMismatch = true;
      log(`WARNING ${label}: the bare route's answer differs from the real one: is PAGE_SQL in sync?`);
    }
    out.bare = await measureRoute(`${label} bare user/page`, base + BARE_PAGE, {});
  } finally {
    await stopProcess(bare);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// the table

const fmt = {
  kb: (n) => kb(n),
  ms: (n) => `${Math.round(n)} ms`,
  lat: (n) => `${Number(n).toFixed(n < 10 ? 2 : 1)} ms`,
  rps: (n) => `${Math.round(n).toLocaleString('en-US')} req/s`,
  mb: (n) => `${n.toFixed(0)} MB`,
  ratio: (n) => n.toFixed(2),
};

function buildTable(res) {
  const webCell = (key) => {
    const r = res.pglite;
    if (!r?.web && r?.error) return { value: undefined, text: 'error' };
    if (!r?.web || r.web.missing) return { value: undefined, text: 'n/a (web not built)' };
    if (r.web.error) return { value: undefined, text: `error: ${r.web.error}` };
    const m = r.web[key];
    const notes = [m.note, key === 'home' && r.web.injected ? 'tokens injected' : ''].filter(Boolean);
    return {
      value: m.total,
      suspect: Boolean(m.note),
      text: `${fmt.kb(m.total)} (${m.files} files)${notes.length ? ` — ${notes.join(', ')}` : ''}`,
    };
  };
  const shellCell = (value, text) => {
    const w = res.pglite?.web?.shell;
    if (!w) return { value: undefined, text: res.pglite?.web?.missing ? 'n/a (web not built)' : 'n/a' };
    if (w.error) return { value: undefined, text: `error: ${w.error}` };
    const v = value(w);
    return { value: v, text: text(v, w) };
  };
  const rows = [
    {
      name: 'Bytes to show /login (JS+CSS on the wire, cold cache)',
      cells: { pglite: webCell('login'), postgres: { text: '—' } },
      target: '≤ 150 KB',
      ok: (v) => v <= 150 * 1024,
    },
    {
      name: 'Bytes to show the signed-in home /wel/index (JS+CSS, cold cache)',
      cells: { pglite: webCell('home'), postgres: { text: '—' } },
      target: '≤ 250 KB',
      ok: (v) => v <= 250 * 1024,
    },
    {
      name: 'Sign-in to the home workplace visible (form submitted → its parts shown, one request)',
      cells: {
        pglite: (() => {
          const w = res.pglite?.web;
          if (!w || w.missing) return { value: undefined, text: 'n/a (web not built)' };
          if (w.signInHomeMs === undefined)
            return { value: undefined, text: w.injected ? 'n/a (tokens injected)' : 'n/a (not shown)' };
          return { value: w.signInHomeMs, text: fmt.ms(w.signInHomeMs) };
        })(),
        postgres: { text: '—' },
      },
      target: '≤ 1500 ms',
      ok: (v) => v <= 1500,
    },
    {
      name: 'Kept-alive tab: click to its content visible (median of 10)',
      cells: {
        pglite: shellCell(
          (w) => w.switchMs,
          (v) => `${v.toFixed(1)} ms`,
        ),
        postgres: { text: '—' },
      },
      target: '≤ 100 ms',
      ok: (v) => v <= 100,
    },
    {
      name: `JS heap after opening 20 tabs and closing them, rounds 1 → ${ROUNDS} (after GC; objects = heap without V8's code and metadata)`,
      cells: {
        pglite: shellCell(
          (w) => {
            const first = w.rounds[0];
            const last = w.rounds.at(-1);
            // DOM nodes left behind count as growth too
            return Math.max((last.objects - first.objects) / first.objects, last.nodes > first.nodes ? 1 : 0);
          },
          (v, w) => {
            const mb = (n) => `${(n / 1048576).toFixed(1)}`;
            const [first, last] = [w.rounds[0], w.rounds.at(-1)];
            return (
              `objects ${w.rounds.map((r) => mb(r.objects)).join(' → ')} MB (${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)} %); ` +
              `heap ${mb(first.heap)} → ${mb(last.heap)} MB; DOM nodes ${first.nodes} → ${last.nodes}`
            );
          },
        ),
        postgres: { text: '—' },
      },
      target: 'no growth beyond round 1 (objects ≤ +5 %, no DOM nodes left)',
      ok: (v) => v <= 0.05,
    },
    {
      name: 'Start-up to answering /oauth/settings (existing data)',
      get: (r) => r.startMs,
      f: fmt.ms,
      target: '≤ 3000 ms',
      ok: (v) => v <= 3000,
    },
    {
      name: 'GET menu/routes: throughput (50 conns)',
      src: 'menu',
      load: true,
      get: (r) => r.menu?.rps,
      f: fmt.rps,
    },
    { name: 'GET menu/routes: p50 latency', src: 'menu', load: true, get: (r) => r.menu?.p50, f: fmt.lat },
    {
      name: 'GET menu/routes: p99 latency',
      src: 'menu',
      load: true,
      get: (r) => r.menu?.p99,
      f: fmt.lat,
      target: '≤ 20 ms (PostgreSQL)',
      ok: (v) => v <= 20,
      only: 'postgres',
    },
    {
      name: 'GET user/page (100k users): throughput (50 conns; the page is remembered until users change)',
      src: 'page',
      load: true,
      get: (r) => r.page?.rps,
      f: fmt.rps,
    },
    { name: 'GET user/page: p50 latency', src: 'page', load: true, get: (r) => r.page?.p50, f: fmt.lat },
    {
      name: 'GET user/page: p99 latency',
      src: 'page',
      load: true,
      get: (r) => r.page?.p99,
      f: fmt.lat,
      target: '≤ 20 ms (PostgreSQL)',
      ok: (v) => v <= 20,
      only: 'postgres',
    },
    {
      name: 'GET user/page with READ_CACHE=false (every request read from the database): throughput',
      src: 'pageUncached',
      load: true,
      get: (r) => r.pageUncached?.rps,
      f: fmt.rps,
    },
    {
      name: 'GET user/page with READ_CACHE=false: p99 latency',
      src: 'pageUncached',
      load: true,
      get: (r) => r.pageUncached?.p99,
      f: fmt.lat,
    },
    {
      name: 'Bare Fastify, same SQL as user/page: throughput',
      src: 'bare',
      load: true,
      get: (r) => r.bare?.rps,
      f: fmt.rps,
    },
    // the floor: what any server answering this page through node-postgres reaches on this machine
    {
      name: 'Bare Fastify, same SQL: p99 latency',
      src: 'bare',
      load: true,
      get: (r) => r.bare?.p99,
      f: fmt.lat,
    },
    {
      name: 'Ratio user/page as the product answers it / bare route (throughput)',
      get: (r) => (r.page && r.bare ? r.page.rps / r.bare.rps : undefined),
      f: fmt.ratio,
      target: '≥ 0.7',
      ok: (v) => v >= 0.7,
    },
    {
      // like with like: the real route reading the database on every request, against the bare route
      name: 'Framework overhead ratio on the database path: user/page with READ_CACHE=false / bare',
      get: (r) => (r.pageUncached && r.bare ? r.pageUncached.rps / r.bare.rps : undefined),
      f: fmt.ratio,
      target: '≥ 0.7',
      ok: (v) => v >= 0.7,
    },
    { name: 'Server resident memory after the load (VmRSS)', get: (r) => r.rssMb, f: fmt.mb },
  ];
  return buildTableOf(rows, res);
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  assertServerBuilt();
  log(
    `data in ${dataRoot}; ${LOAD_SECONDS} s per route at ${CONNECTIONS} connections; ` +
      `PostgreSQL ${DATABASE_URL ? 'on' : 'off (set DATABASE_URL)'}; web ${existsSync(join(webDist, 'index.html')) ? 'built' : 'not built'}`,
  );
  const results = {};
  const errors = [];
  for (const kind of DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']) {
    try {
      results[kind] = {};
      await benchDatabase(kind, kind === 'pglite', results[kind]);
    } catch (err) {
      log(`${kind} FAILED: ${err.stack ?? err}`);
      results[kind].error = String(err.message ?? err);
      errors.push(kind);
    }
  }
  const table = buildTable(results);
  const seconds = elapsed();
  const notes = [];
  for (const [kind, r] of Object.entries(results)) {
    if (r.error) notes.push(`- ${kind}: ${r.error.split('\n')[0]}`);
    if (r.bareMismatch)
      notes.push(
        `- ${kind}: the bare route answered different rows than the real one (PAGE_SQL out of sync?)`,
      );
  }
  const md = [
    `# Benchmark, last run`,
    '',
    `${new Date().toISOString()} · Node ${process.version} · ${LOAD_SECONDS} s per route, ${CONNECTIONS} connections, ` +
      `autocannon in the same machine · ${USERS.toLocaleString('en-US')} seeded users · took ${seconds} s`,
    '',
    table,
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
  writeFileSync(join(here, 'last-run.md'), md);
  process.stdout.write(`${table}\n`);
  log(`done in ${seconds} s (table also in bench/last-run.md)`);
  if (errors.length) process.exitCode = 1;
}

await runMain(main, log);
