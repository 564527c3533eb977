// Helpers shared by the bench scripts (bench/*.mjs) and their bare servers: child processes killed by their
// own pid, free ports, the built server's environment, a migrated database, a server tool's JSON answer,
// sign-in, the server's password hash, the countersign process, autocannon, a process's CPU time and memory,
// the run's outer frame. What measures and reports (routes, downloads, the results table) is measure.mjs.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
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
/** the signed-in user's menu: a route the bench loads, and where the browser rows find the tabs to open */
export const API_MENU = '/api/dfem-system/menu/routes';

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

/** Tracks a child process: killed with the others when the bench ends or is stopped. Answers it. */
export function tracked(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
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
  const child = tracked(
    spawn(process.execPath, [...nodeArgs, script], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
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
export function runToolJson(name, script, args, env, echo, onOutput) {
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn(process.execPath, ['--import', 'tsx', script, ...args], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (echo) process.stderr.write(`[${echo}] ${d}`);
      onOutput?.(String(d));
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

/**
 * autocannon for `seconds` at `connections`; req/s, p50, p99 (ms) and anything that was not a 2xx. Given
 * `paths`, each request asks for one of them at random (on `url`'s origin); given a function, it makes each
 * request from autocannon's (its path, method, headers, body).
 */
export async function load(url, headers, seconds, connections, paths) {
  const setupRequest =
    typeof paths === 'function'
      ? paths
      : paths && ((req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)] }));
  const requests = setupRequest && [{ setupRequest }];
  const r = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1, requests });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    /** requests that were not answered with a 2xx, timed out or failed */
    failed: r.non2xx + r.errors,
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
