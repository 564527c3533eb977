// Helpers shared by the bench scripts (bench/*.mjs) and their bare servers: child processes killed by their
// own pid, free ports, the built server's environment, a migrated database, a server tool's JSON answer,
// sign-in, the server's password hash, the countersign process, autocannon; measuring a route, a process's
// peak memory and CPU time, a download, an exported file's rows; the results table; the run's outer frame.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..');
export const serverDir = join(root, 'apps', 'server');
export const serverMain = join(serverDir, 'dist', 'main.js');

/** The server's own dependencies (pg, PGlite, exceljs, argon2), so the bench uses the very same versions. */
export const requireServer = createRequire(join(serverDir, 'package.json'));

export const CLIENT_BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
export const TENANT = '000000';

const started = performance.now();
export const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);
export const makeLog = (tag) => (msg) => process.stderr.write(`[${tag} ${elapsed()}s] ${msg}\n`);
const log = makeLog('bench');
export const md5 = (s) => createHash('md5').update(s).digest('hex');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// child processes: every one is tracked and killed by its own pid, also when the bench fails or is stopped

const children = new Set();

export function killAll(signal = 'SIGKILL') {
  for (const child of children) {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Kills the tracked children when this process exits or is stopped; call once from the entry script. */
export function installExitHandlers() {
  process.on('exit', () => killAll());
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      log(`${signal}: stopping child processes`);
      killAll();
      process.exit(130);
    });
  }
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Spawns `node <script>` and polls `readyPath` until it answers 200; returns the process and the ms it took. */
export async function startProcess(
  name,
  script,
  env,
  port,
  readyPath,
  // BENCH_START_TIMEOUT_MS: a busy machine may take longer to migrate a new database
  timeoutMs = Number(process.env.BENCH_START_TIMEOUT_MS ?? 90_000),
) {
  const t0 = performance.now();
  // BENCH_NODE_ARGS: node options for the processes measured (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}${readyPath}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) {
        await res.arrayBuffer();
        break;
      }
    } catch {
      /* not listening yet */
    }
    if (performance.now() - t0 > timeoutMs) {
      await stopProcess({ child, name });
      throw new Error(`${name} did not answer ${readyPath} within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(10);
  }
  const ms = Math.round(performance.now() - t0);
  return { child, name, ms, output: () => output };
}

/** SIGTERM (the server finishes requests and closes the database), SIGKILL after 15 s. */
export async function stopProcess(proc) {
  const { child } = proc;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      log(`${proc.name} ignored SIGTERM for 15 s: SIGKILL`);
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 15_000);
    await exited;
    clearTimeout(timer);
  }
  children.delete(child);
}

export function serverEnv(port, dataDir, databaseUrl, webDist, extra = {}) {
  const env = { ...process.env };
  for (const k of [
    'DATABASE_URL',
    'REDIS_URL',
    'WEB_DIST',
    'JWT_SECRET',
    'PRINT_WELCOME',
    'PGLITE_DIR',
    'READ_CACHE',
  ])
    delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CAPTCHA_MODE: 'false',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
  if (webDist) env.WEB_DIST = webDist;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return Object.assign(env, extra);
}

/**
 * The server's environment for measuring the database path: list pages are not remembered, every request
 * is read from the database (as the bare routes are), so real and bare compare like with like.
 */
export const READ_FROM_DATABASE = { READ_CACHE: 'false' };

/** `main`: another build of the server (bench/flow.mjs runs a baseline checkout's beside this one's). */
export async function startServer(dataDir, databaseUrl, webDist, extra = {}, main = serverMain) {
  const port = await freePort();
  const proc = await startProcess(
    'server',
    main,
    serverEnv(port, dataDir, databaseUrl, webDist, extra),
    port,
    '/api/dfem-auth/oauth/settings',
  );
  return { ...proc, port, base: `http://127.0.0.1:${port}` };
}

/** Throws unless the server is built: the bench measures apps/server/dist, not the sources. */
export function assertServerBuilt() {
  if (!existsSync(serverMain))
    throw new Error(`${serverMain} missing: run \`npm run build\` (or \`npm run bench\`)`);
}

/** The database name of a PostgreSQL `url`, '' without one (for the log and the report). */
export const pgDatabaseName = (url) => (url ? decodeURIComponent(new URL(url).pathname.slice(1)) : '');

/**
 * Runs a server tool (`node --import tsx <script> …args` from the root) to its end; its last line of output,
 * parsed as JSON. `echo`: a tag to copy its output to stderr under as it comes.
 */
export function runToolJson(name, script, args, env, echo) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (echo) process.stderr.write(`[${echo}] ${d}`);
    });
    child.on('exit', (code) => {
      if (code) return reject(new Error(`${name} exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

/** CPU seconds a process has used (user + system, /proc/<pid>/stat): its cost, whatever else shares the cores. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are the stat file's 14th and 15th fields, in clock ticks (100 a second on Linux)
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

// ---------------------------------------------------------------------------------------------------------
// databases

export const pg = requireServer('pg');

export async function pgClient(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** Connects to `url`, creating the database (through the `postgres` database) when it is missing. */
export async function ensurePgDatabase(url) {
  try {
    const c = await pgClient(url);
    await c.end();
  } catch (err) {
    if (err.code !== '3D000') throw err;
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    const adminUrl = new URL(url);
    adminUrl.pathname = '/postgres';
    const admin = await pgClient(adminUrl.toString());
    try {
      await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      log(`PostgreSQL: created database ${name}`);
    } finally {
      await admin.end();
    }
  }
}

export async function pgHasTables(url) {
  const c = await pgClient(url);
  try {
    const { rows } = await c.query(`SELECT to_regclass('public.flow_task') IS NOT NULL AS ok`);
    return rows[0].ok;
  } finally {
    await c.end();
  }
}

/** Runs `fn` with a client of `url`, closed afterwards. */
export async function withPgClient(url, fn) {
  const c = await pgClient(url);
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * The database of one bench run (`kind` 'pglite': the folder `dataDir`/pgdata; 'postgres': `url`), created if
 * missing and migrated and seeded by a first start of the server when it has no tables yet. The bench's own
 * rows are added afterwards by the caller, while no server runs.
 */
export async function migratedDatabase(kind, url, dataDir, webDist, main = serverMain) {
  const isPg = kind === 'postgres';
  const label = isPg ? 'PostgreSQL' : 'PGlite';
  const pgdata = join(dataDir, 'pgdata');
  mkdirSync(dataDir, { recursive: true });
  if (isPg) await ensurePgDatabase(url);
  const migrated = isPg ? await pgHasTables(url) : existsSync(join(pgdata, 'PG_VERSION'));
  if (!migrated) {
    log(`${label}: first start (migrate and seed)…`);
    const first = await startServer(dataDir, isPg ? url : undefined, webDist, {}, main);
    log(`${label}: first start took ${first.ms} ms`);
    await stopProcess(first);
  }
  return { isPg, label, pgdata };
}

/** Runs a bench script's `main`: a failure is logged and sets the exit code; child processes never outlive it. */
export async function runMain(main, logTo = log) {
  try {
    await main();
  } catch (err) {
    logTo(`FAILED: ${err.stack ?? err}`);
    process.exitCode = 1;
  } finally {
    killAll();
  }
}

// ---------------------------------------------------------------------------------------------------------
// API

/** The password grant; the token answer, or null when the credentials are refused. */
export async function passwordToken(base, username, password) {
  const q = new URLSearchParams({
    tenantId: TENANT,
    username,
    password: md5(password),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${base}/api/dfem-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: CLIENT_BASIC },
  });
  const body = await res.json();
  return res.ok ? body : null;
}

export const SEEDED_ADMIN_PASSWORD = 'admin';
/** the admin's password after the bench changed it (the seeded one must be changed on first sign-in) */
export const BENCH_PASSWORD = 'Bench#Pass-2024';

/**
 * A password hash as the server stores it: argon2id of the md5 the client sends, with the server's own
 * parameters (apps/server/src/platform/auth/password.ts; verify reads them from the hash).
 */
export async function serverPasswordHash(password) {
  const { hash } = requireServer('@node-rs/argon2');
  return hash(md5(password), { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

/**
 * A BPMN process of a countersign (会签) of three: a prepare step (its assignee `taskUser`) picks the
 * `approvers`, then a parallel multi-instance task, one for each. Each bench deploys it under ids of its own.
 */
export const countersignBpmn = ({ id, key, name }) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  id="${id}" targetNamespace="http://example.com/bench">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="prepare"/>
    <userTask id="prepare" name="拟办" flowable:assignee="\${taskUser}"/>
    <sequenceFlow id="f2" sourceRef="prepare" targetRef="sign"/>
    <userTask id="sign" name="会签" flowable:assignee="\${approver}">
      <multiInstanceLoopCharacteristics isSequential="false" flowable:collection="\${approvers}" flowable:elementVariable="approver"/>
    </userTask>
    <sequenceFlow id="f3" sourceRef="sign" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

/** Signs the admin in with the bench password, changing the seeded one first when this database is new. */
export async function adminSession(base) {
  let session = await passwordToken(base, 'admin', BENCH_PASSWORD);
  if (session) return session;
  session = await passwordToken(base, 'admin', SEEDED_ADMIN_PASSWORD);
  if (!session) throw new Error('cannot sign in as admin with the bench password nor the seeded one');
  const q = new URLSearchParams({
    oldPassword: md5(SEEDED_ADMIN_PASSWORD),
    newPassword: md5(BENCH_PASSWORD),
    newPassword1: md5(BENCH_PASSWORD),
  });
  const res = await fetch(`${base}/api/dfem-user/update-password?${q}`, {
    method: 'POST',
    headers: { 'blade-auth': `bearer ${session.access_token}` },
  });
  if (!res.ok) throw new Error(`update-password failed: ${res.status} ${await res.text()}`);
  log('admin password changed from the seeded one to the bench one');
  session = await passwordToken(base, 'admin', BENCH_PASSWORD);
  if (!session) throw new Error('cannot sign in with the bench password after changing it');
  return session;
}

export const authHeaders = (session) => ({ 'blade-auth': `bearer ${session.access_token}` });

export async function getJson(url, headers = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export async function postJson(url, headers, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** autocannon for `seconds` at `connections`; req/s, p50, p99 (ms) and anything that was not a 2xx. */
export async function load(url, headers, seconds, connections) {
  const r = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    // autocannon's `errors` include its timeouts (10 s); a timed-out request has no latency sample
    bad: [
      r.non2xx && `${r.non2xx} non-2xx`,
      r.timeouts && `${r.timeouts} timed out after 10 s`,
      r.errors - r.timeouts > 0 && `${r.errors - r.timeouts} errors`,
    ]
      .filter(Boolean)
      .join(', '),
  };
}

// ---------------------------------------------------------------------------------------------------------
// measuring (bench/workloads.mjs, bench/village.mjs)

/** seconds of load per route (BENCH_SECONDS, default 10) and autocannon's connections */
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = 50;
const RSS_POLL_MS = 50;

/** The measuring steps, logging with the caller's `log` (makeLog). */
export function benchSteps(log) {
  /**
   * One request at a time first (at least 5, for at least 2 s, at most 15 s): the latency without
   * concurrency, and the warm-up. Then autocannon at 50 connections, unless one request takes longer than
   * `maxSingleMs`: then the requests it would leave in flight would keep the server busy for minutes, and the
   * answer says `skipped` (the reason) instead.
   */
  async function measureRoute(label, url, headers, { maxSingleMs = Number.POSITIVE_INFINITY } = {}) {
    const times = [];
    const t0 = performance.now();
    const spent = () => performance.now() - t0;
    while ((times.length < 5 || spent() < 2_000) && spent() < 15_000) {
      const t = performance.now();
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 300)}`);
      times.push(performance.now() - t);
    }
    // the median of the later half: the first requests also warm the server up (JIT, caches, plans)
    const warm = times.slice(Math.floor(times.length / 2)).sort((a, b) => a - b);
    const single = warm[Math.floor(warm.length / 2)];
    if (single > maxSingleMs) {
      const skipped = `no load: one request takes ${single.toFixed(0)} ms`;
      log(`${label}: one at a time ${single.toFixed(1)} ms (median of the last ${warm.length}); ${skipped}`);
      return { single, skipped };
    }
    const r = await load(url, headers, LOAD_SECONDS, CONNECTIONS);
    log(
      `${label}: one at a time ${single.toFixed(1)} ms (median of the last ${warm.length}); at ${CONNECTIONS} connections ` +
        `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.total} requests` +
        (r.bad ? `, ${r.bad}` : ''),
    );
    return { ...r, single };
  }

  /**
   * The server still works through the requests autocannon left in flight (a closed connection does not stop
   * a query): one more request answers once they are done. Waits at most `capMs`; the ms it took, or null.
   */
  async function drain(label, url, headers, capMs) {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(capMs) });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (ms > 1_000) log(`${label}: the requests left in flight took ${(ms / 1000).toFixed(1)} s to finish`);
      return ms;
    } catch {
      log(`${label}: still busy with the requests left in flight after ${capMs / 1000} s`);
      return null;
    }
  }

  /** Runs one workload; a failure is recorded under `key` and the other workloads still run. */
  async function step(out, key, label, fn) {
    try {
      await fn();
    } catch (err) {
      log(`${label} FAILED: ${err.stack ?? err}`);
      out.errors[key] = String(err.message ?? err).split('\n')[0];
    }
  }

  return { measureRoute, drain, step };
}

/** Samples a process's VmRSS every 50 ms until stopped; the peak and the first sample (the baseline). */
export function watchRss(pid) {
  const baseline = rssMb(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      /* the process is gone: the caller's request fails and says so */
    }
  }, RSS_POLL_MS);
  return () => {
    clearInterval(timer);
    peak = Math.max(peak, rssMb(pid));
    return { baseline, peak };
  };
}

/**
 * GETs `path` of the server into `file` (an export): seconds, bytes and the server's memory meanwhile
 * (watchRss). `what` names the route in the error of a refused download.
 */
export async function downloadMeasured(server, path, headers, file, what) {
  const stop = watchRss(server.child.pid);
  const t0 = performance.now();
  let mem;
  try {
    const res = await fetch(`${server.base}${path}`, { headers });
    if (!res.ok) throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  } finally {
    mem = stop();
  }
  return { seconds: (performance.now() - t0) / 1000, bytes: statSync(file).size, ...mem };
}

/** Rows of the first sheet, read back with exceljs's streaming reader (the whole file never sits in memory). */
export async function countXlsxRows(file) {
  const ExcelJS = requireServer('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let rows = 0;
  let header;
  for await (const sheet of reader) {
    for await (const row of sheet) {
      if (!header) header = row.values.slice(1).map(String);
      rows++;
    }
  }
  return { rows: rows - 1, header };
}

// ---------------------------------------------------------------------------------------------------------
// the table: one row per measurement, a PGlite and a PostgreSQL column, the target and whether it is met

export const num = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
export const fmt = {
  lat: (n) => `${Number(n).toFixed(n < 10 ? 2 : 1)} ms`,
  rps: (n) => `${num(Math.round(n))} req/s`,
  ratio: (n) => n.toFixed(2),
  s: (n) => `${n.toFixed(1)} s`,
  mb: (n) => `${n.toFixed(0)} MB`,
};

/**
 * The markdown table of `res` ({ pglite, postgres }: each { errors, error?, …measurements }). A row is
 * { name, get(r) → number, f(value, r) → text, src? (the key of its measurement and of its error),
 * load? (autocannon's non-2xx and timeouts are shown, and why there was no load), suspect?(r), target?,
 * ok?(value), only? ('postgres') }; or, for a measurement outside the databases' runs, { name, cells:
 * { pglite, postgres } (each { value?, suspect?, text }), target?, ok? }.
 */
export function buildTable(rows, res) {
  const lines = ['| measurement | PGlite | PostgreSQL | target | ok? |', '|---|---|---|---|---|'];
  for (const row of rows) {
    const cells = {};
    for (const kind of ['pglite', 'postgres']) {
      if (row.cells) {
        cells[kind] = row.cells[kind];
        continue;
      }
      const r = res[kind];
      if (!r) {
        cells[kind] = { text: kind === 'postgres' ? 'not run (no DATABASE_URL)' : 'not run' };
        continue;
      }
      const v = row.get(r);
      const err = row.src && r.errors?.[row.src];
      const bad = row.load && r[row.src]?.bad;
      if (v === undefined || Number.isNaN(v)) {
        const skipped = row.load && r[row.src]?.skipped;
        cells[kind] = { text: err || r.error ? 'error' : skipped || 'n/a' };
        continue;
      }
      const warn = [bad, err].filter(Boolean).join('; ');
      cells[kind] = {
        value: v,
        suspect: Boolean(warn) || Boolean(row.suspect?.(r)),
        text: row.f(v, r) + (warn ? ` (${warn}!)` : ''),
      };
    }
    let ok = '—';
    if (row.ok) {
      const judged = ['pglite', 'postgres']
        .filter((k) => !row.only || row.only === k)
        .map((k) => ({ k, v: cells[k].value, suspect: cells[k].suspect }))
        .filter((c) => c.v !== undefined);
      if (!judged.length) ok = 'n/a';
      else {
        const failed = judged
          .filter((c) => !row.ok(c.v))
          .map((c) => (c.k === 'pglite' ? 'PGlite' : 'PostgreSQL'));
        ok = failed.length
          ? `❌ ${failed.join(', ')}`
          : judged.some((c) => c.suspect)
            ? '⚠ see the cell'
            : '✅';
      }
    }
    lines.push(
      `| ${row.name} | ${cells.pglite.text} | ${cells.postgres.text} | ${row.target ?? '—'} | ${ok} |`,
    );
  }
  return lines.join('\n');
}

/** The lines under the table: every failure of a run, by database and workload. */
export function failureNotes(results) {
  const notes = [];
  for (const [kind, r] of Object.entries(results)) {
    if (r.error) notes.push(`- ${kind}: ${r.error.split('\n')[0]}`);
    for (const [k, e] of Object.entries(r.errors)) notes.push(`- ${kind}, ${k}: ${e}`);
  }
  return notes;
}

/** The machine and its load: the machine may be shared, and the load around a run says how far to trust it. */
export function machineLine(loadAtStart) {
  return (
    `${availableParallelism()} cores, load average (1 min) ${loadAtStart.toFixed(1)} at the start, ` +
    `${loadavg()[0].toFixed(1)} at the end`
  );
}

/**
 * Runs `bench(kind, out)` on PGlite, then on PostgreSQL when `url` is set. Each run's `out` ({ errors, … })
 * is kept even when the run failed, so what it measured still reaches the table. The load average at the
 * start is taken for the report's machine line.
 */
export async function benchEachDatabase(url, bench, logTo = log) {
  const loadAtStart = loadavg()[0];
  const results = {};
  const failed = [];
  // BENCH_DATABASES=postgres (or pglite) runs one of the two
  const kinds = (url ? ['pglite', 'postgres'] : ['pglite']).filter(
    (k) => !process.env.BENCH_DATABASES || process.env.BENCH_DATABASES.split(',').includes(k),
  );
  for (const kind of kinds) {
    results[kind] = { errors: {} };
    try {
      await bench(kind, results[kind]);
    } catch (err) {
      logTo(`${kind} FAILED: ${err.stack ?? err}`);
      results[kind].error = String(err.message ?? err);
    }
    if (results[kind].error || Object.keys(results[kind].errors).length) failed.push(kind);
  }
  return { results, failed, loadAtStart };
}

/**
 * The report of a run of `benchEachDatabase`: `title`, a line of what was run (`facts`, then the machine and
 * the time taken), the table, `extra` lines and the failures, written to bench/`file`; the table goes to
 * stdout, and a failed run sets the exit code.
 */
export function writeReport({ file, title, facts, table, extra = [], run, logTo = log }) {
  const seconds = elapsed();
  const machine = machineLine(run.loadAtStart);
  const notes = failureNotes(run.results);
  const md = [
    title,
    '',
    `${new Date().toISOString()} · Node ${process.version} · ${LOAD_SECONDS} s per route, ${CONNECTIONS} connections, ` +
      `autocannon in the same machine · ${facts} · ${machine} · took ${seconds} s`,
    '',
    table,
    ...(extra.length ? ['', ...extra] : []),
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
  writeFileSync(join(here, file), md);
  process.stdout.write(`${table}\n`);
  logTo(`done in ${seconds} s; ${machine} (table also in bench/${file})`);
  if (run.failed.length) process.exitCode = 1;
}

/** A database URL with `suffix` appended to its database name (smart_bench → smart_bench_work). */
export function suffixedDbUrl(url, suffix) {
  const u = new URL(url);
  u.pathname = `/${decodeURIComponent(u.pathname.slice(1)) || 'postgres'}${suffix}`;
  return u.toString();
}

/** Bytes per stored telemetry reading: the partitions of `telemetry_reading` with their index, over the rows. */
export function telemetryBytesPerReading(url) {
  return withPgClient(url, async (c) => {
    const r = await c.query(
      `select sum(pg_total_relation_size(relid))::bigint as bytes from pg_partition_tree('telemetry_reading')`,
    );
    const n = await c.query('select count(*)::bigint as n from telemetry_reading');
    return Number(r.rows[0].bytes) / Number(n.rows[0].n);
  });
}
