/**
 * Starts the production server (apps/server/dist/main.js, serving apps/web/dist) on a free port with a
 * fresh DATA_DIR and CAPTCHA_MODE=false, waits until it answers, and hands the base URL to the tests
 * through E2E_BASE_URL. The returned teardown stops that process by its own pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The built web app the tests run against: WEB_DIST when set, else apps/web/dist. */
export function webDist(): string {
  return process.env.WEB_DIST ? resolve(process.env.WEB_DIST) : join(root, 'apps/web/dist');
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export async function waitForServer(url: string, child: ChildProcess, logFile: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with code ${child.exitCode} before answering; see ${logFile}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms; see ${logFile}`);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    const timer = setTimeout(() => {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    if (child.pid) process.kill(child.pid, 'SIGTERM');
  });
}

export default async function globalSetup() {
  const main = join(root, 'apps/server/dist/main.js');
  // WEB_DIST (as the server reads it) tests another build of the web app than apps/web/dist
  const web = join(webDist(), 'index.html');
  for (const file of [main, web]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` before the e2e tests`);
  }
  const port = await freePort();
  // the server's own MQTT broker, on a free port (the machine's Mosquitto may hold 1883)
  const mqttPort = await freePort();
  // the WeChat sandbox as `npm start` runs it (modules/wechat/sandbox: the demo account's menu, followers,
  // drafts, publishing and comments), on a free port of its own
  const wechatPort = await freePort();
  // the SMS sandbox likewise (modules/resource/sms/sandbox.ts: the demo config's provider and its receipts)
  const smsPort = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'smart-e2e-'));
  const logFile = join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dataDir, 'data'),
      WEB_DIST: webDist(),
      CAPTCHA_MODE: 'false',
      LOG_LEVEL: 'warn',
      MQTT_PORT: String(mqttPort),
      WECHAT_SANDBOX: 'on',
      WECHAT_SANDBOX_PORT: String(wechatPort),
      SMS_SANDBOX: 'on',
      SMS_SANDBOX_PORT: String(smsPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(`${baseURL}/api/dfem-auth/oauth/settings`, child, logFile, 90_000);
  } catch (error) {
    await stop(child);
    throw error;
  }
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_MQTT_URL = `mqtt://127.0.0.1:${mqttPort}`;
  process.env.E2E_WECHAT_URL = `http://127.0.0.1:${wechatPort}`;
  process.env.E2E_AUTH_FILE = join(dataDir, 'admin-storage-state.json');

  return async () => {
    await stop(child);
    log.end();
    if (!process.env.E2E_KEEP_DATA) await rm(dataDir, { recursive: true, force: true });
  };
}
