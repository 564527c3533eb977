// Several server instances behind HAProxy, on one PostgreSQL, one Redis and one MQTT broker: what a
// deployment of more than one server looks like, on one machine. `npm run cluster` starts it and prints where
// to open it; the cluster tests (apps/server/test/cluster/) start it through startCluster() below.
//
//   DATABASE_URL  postgres://postgres@127.0.0.1:5432/smart_cluster (the database is made when missing)
//   REDIS_URL     redis://127.0.0.1:6379
//   MQTT_URL      mqtt://127.0.0.1:1883 (every instance subscribes through one shared subscription)
//   INSTANCES     2; PORT 8080 (the proxy), the instances on PORT+1, PORT+2, …
//
// Needs the built server (`npm run build`) and HAProxy (`apt-get install -y haproxy`).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = join(root, 'apps/server/dist/main.js');
const requireServer = createRequire(join(root, 'apps/server/package.json'));

/** A free TCP port of 127.0.0.1. */
export const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Creates the database of `url` when it does not exist (connecting to the server's `postgres` database). */
export async function ensureDatabase(url) {
  const pg = requireServer('pg');
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${url}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** Waits until GET `url` answers 200; throws after `ms`, or at once when `alive()` says the process ended. */
export async function waitReady(url, ms = 60_000, alive = () => true) {
  const end = Date.now() + ms;
  let last = '';
  while (Date.now() < end) {
    if (!alive()) throw new Error(`${url}: the process ended before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = e.cause?.code ?? e.message;
    }
    await sleep(150);
  }
  throw new Error(`${url} not ready after ${ms} ms (${last})`);
}

/**
 * The HAProxy configuration: the instances in one backend, round robin, each checked every second on
 * /api/ready (down after two failures, up again after one success). A request whose connection to an
 * instance failed is tried on another (`conn-failure`: nothing was sent, so writes too). A GET or HEAD
 * that an instance dropped without an answer (killed in the middle of it, or an idle connection the proxy
 * reused just as the instance died) is tried on another as well (`empty-response`); a write is not tried
 * again, since the dead instance may have done it (the client sees the failure and decides).
 * `option forwardfor` adds the client's address, which the instances believe from 127.0.0.1 (TRUST_PROXY).
 */
export function haproxyConfig({ proxyPort, instances, host = '127.0.0.1' }) {
  return `global
  maxconn 4096
  log stderr format short local0 notice

defaults
  mode http
  log global
  option dontlognull
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  retries 2
  option redispatch
  retry-on conn-failure empty-response

frontend console
  bind ${host}:${proxyPort}
  option forwardfor
  default_backend servers

backend servers
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  http-request disable-l7-retry unless METH_GET || METH_HEAD
  default-server inter 1s fall 2 rise 1 observe layer4 error-limit 1 on-error mark-down
${instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`).join('\n')}
`;
}

/**
 * Starts the instances and the proxy. Answers { proxyUrl, instances, haproxy, dir, stop() }; each instance
 * { name, port, url, env, child, start(), stop(signal) }. The first instance starts alone (it migrates and
 * seeds a new database), the others after it together.
 */
export async function startCluster(opts = {}) {
  const {
    instances: count = 2,
    databaseUrl,
    redisUrl,
    mqttUrl,
    proxyPort = await freePort(),
    ports,
    env = {},
    dir = mkdtempSync(join(tmpdir(), 'smart-cluster-')),
    output = (name, line) => process.stdout.write(`[${name}] ${line}\n`),
  } = opts;
  if (!existsSync(serverMain))
    throw new Error(`${serverMain} is missing: build the server first (npm run build -w apps/server)`);
  if (spawnSync('haproxy', ['-v']).error)
    throw new Error('haproxy is not installed: apt-get install -y haproxy');
  if (!databaseUrl) throw new Error('startCluster: databaseUrl is required');
  await ensureDatabase(databaseUrl);
  mkdirSync(dir, { recursive: true });
  // one signing key and one data folder for all (a token signed by one is checked by the others; a file
  // uploaded through one is read through any: in a deployment of several hosts, a shared volume or S3)
  const secretFile = join(dir, 'jwt-secret');
  if (!existsSync(secretFile))
    writeFileSync(secretFile, randomBytes(48).toString('base64url'), { mode: 0o600 });
  const jwtSecret = readFileSync(secretFile, 'utf8').trim();
  const dataDir = join(dir, 'data');

  const children = new Set();
  function forward(name, stream) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) if (line.trim()) output(name, line);
    });
  }

  const instances = [];
  for (let n = 1; n <= count; n++) {
    const port = ports?.[n - 1] ?? (await freePort());
    const instance = {
      name: `s${n}`,
      port,
      url: `http://127.0.0.1:${port}`,
      child: undefined,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
        ...(mqttUrl ? { MQTT_URL: mqttUrl } : { MQTT_PORT: '-1' }),
        // the proxy is the only peer whose X-Forwarded-For is believed: the audit log and the sign-in
        // throttles see the browser's address, not the proxy's
        TRUST_PROXY: '127.0.0.1',
        // on SIGTERM an instance says it is not ready and keeps serving while the proxy's checks (every 1 s,
        // down after 2) take it out of rotation, then drains (README "Readiness and shutdown")
        DRAIN_DELAY_MS: process.env.DRAIN_DELAY_MS ?? '2500',
        // each instance's connections named in pg_stat_activity (node-postgres reads PGAPPNAME)
        PGAPPNAME: `smart-s${n}`,
        JWT_SECRET: jwtSecret,
        DATA_DIR: dataDir,
        // the demo cameras' clips are made once, by the first, into the shared folder
        DEMO_VIDEO: n === 1 ? (env.DEMO_VIDEO ?? 'on') : 'off',
        ...env,
        ...(n === 1 ? {} : { DEMO_VIDEO: 'off' }),
      },
      /** starts (again) and waits until it is ready */
      async start() {
        const child = spawn(process.execPath, [serverMain], {
          cwd: root,
          env: instance.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        instance.child = child;
        children.add(child);
        child.on('exit', () => children.delete(child));
        forward(instance.name, child.stdout);
        forward(instance.name, child.stderr);
        await waitReady(`${instance.url}/api/ready`, 90_000, () => child.exitCode === null && !child.killed);
      },
      /** stops it with `signal` (SIGTERM: drains; SIGKILL: mid-whatever) and waits for its end */
      async stop(signal = 'SIGTERM') {
        const child = instance.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const ended = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await ended;
      },
    };
    instances.push(instance);
  }

  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig({ proxyPort, instances }));
  let haproxy;
  const stop = async () => {
    await Promise.all(instances.map((i) => i.stop('SIGTERM')));
    if (haproxy && haproxy.exitCode === null) {
      const ended = new Promise((r) => haproxy.once('exit', r));
      haproxy.kill('SIGTERM');
      await ended;
    }
  };
  try {
    await instances[0].start();
    await Promise.all(instances.slice(1).map((i) => i.start()));
    // -db: in the foreground, not as a daemon; it ends with this process
    haproxy = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(haproxy);
    forward('haproxy', haproxy.stdout);
    forward('haproxy', haproxy.stderr);
    await waitReady(`http://127.0.0.1:${proxyPort}/api/ready`, 20_000, () => haproxy.exitCode === null);
  } catch (e) {
    for (const c of children) c.kill('SIGKILL');
    throw e;
  }
  return {
    proxyUrl: `http://127.0.0.1:${proxyPort}`,
    proxyPort,
    instances,
    haproxy,
    dir,
    configFile: cfg,
    stop,
  };
}

// `npm run cluster`: starts it, prints where to open it, stops everything on Ctrl-C
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8080);
  const count = Number(process.env.INSTANCES ?? 2);
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smart_cluster';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const mqttUrl = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
  const dir = resolve(root, process.env.CLUSTER_DIR ?? 'data/cluster');
  const env = {};
  for (const k of ['LOG_LEVEL', 'TELEMETRY_SIMULATOR', 'WECHAT_SANDBOX', 'SMS_SANDBOX', 'DEMO_VIDEO'])
    if (process.env[k]) env[k] = process.env[k];
  const cluster = await startCluster({
    instances: count,
    databaseUrl,
    redisUrl,
    mqttUrl,
    proxyPort: port,
    ports: Array.from({ length: count }, (_, i) => port + 1 + i),
    env: { LOG_LEVEL: 'warn', ...env },
    dir,
  }).catch((e) => {
    console.error(`\n  cluster: ${e.message}\n`);
    process.exit(1);
  });
  console.log(`
  智慧管理系统, ${count} instances behind HAProxy:

    open      ${cluster.proxyUrl}/          (sign in as admin / admin, tenant 000000)
${cluster.instances.map((i) => `    ${i.name}        ${i.url}/api/ready`).join('\n')}
    database  ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}
    redis     ${redisUrl.replace(/\/\/[^@/]*@/, '//…@')}
    mqtt      ${mqttUrl}
    haproxy   ${cluster.configFile}

  Ctrl-C stops them all.
`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      console.log('\n  cluster: stopping the instances (they finish their requests) and the proxy');
      await cluster.stop();
      process.exit(0);
    });
  for (const i of cluster.instances)
    i.child.on('exit', (code, signal) => {
      if (!stopping)
        console.error(`  cluster: ${i.name} ended (${signal ?? code}); the proxy sends to the others`);
    });
}
