import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEB_CLIENT_ID, WEB_CLIENT_SECRET } from '@smart/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { serverRoot } from '../src/platform/paths';
import { md5Hex } from '../src/seed/system';
import { runTool, spawnTsx } from './fixtures';
import { dbKind } from './harness';

/**
 * Issue 38, the server as a process (`main.ts` on PGlite, as `npm start` runs it): it holds its DATA_DIR (a
 * second server on the folder refuses to start), `npm run backup` gets its copy from it while it runs, and
 * SIGTERM drains — not ready at once, the request in flight answered, exit 0, the folder let go.
 */
const root = mkdtempSync(join(tmpdir(), 'smart-main-'));
const dataDir = join(root, 'data');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  JWT_SECRET: 'main-process-test-secret-long-enough-for-hs256-0123',
  CAPTCHA_MODE: 'false',
  MQTT_PORT: '-1',
  DEMO_VIDEO: 'off',
  WEB_DIST: '/nonexistent',
  DRAIN_DELAY_MS: '1500',
  LOG_LEVEL: 'info',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

function start() {
  const { child, output } = spawnTsx(join(serverRoot, 'src/main.ts'), [], env);
  children.push(child);
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const running = new Promise<number>((resolve, reject) => {
    const look = setInterval(() => {
      const m = /is running: http:\/\/[^:]+:(\d+)\//.exec(output.out);
      if (m) {
        clearInterval(look);
        resolve(Number(m[1]));
      }
    }, 50);
    exited.then((code) => {
      clearInterval(look);
      reject(new Error(`the server exited (${code}): ${output.err}`));
    });
  });
  running.catch(() => {});
  return { child, running, exited, output: () => output.out + output.err };
}

function call(port: number, path: string, method = 'GET', body?: { text: string; gap: number }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const headers: Record<string, string | number> = {
      authorization: `Basic ${Buffer.from(`${WEB_CLIENT_ID}:${WEB_CLIENT_SECRET}`).toString('base64')}`,
    };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body.text);
    }
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (!body) return req.end();
    const half = Math.floor(body.text.length / 2);
    req.write(body.text.slice(0, half));
    setTimeout(() => req.end(body.text.slice(half)), body.gap);
  });
}

const tool = (args: string[]) => runTool('backup', args, env);

describe.runIf(dbKind === 'pglite')('the server process (main.ts)', () => {
  it('holds its folder, is backed up while running, and drains on SIGTERM', async () => {
    const a = start();
    const port = await a.running;
    // the server's own process (tsx runs it as a child of its own) holds the folder
    const pid = Number(readFileSync(join(dataDir, 'server.pid'), 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain('main.ts');
    const ready = await call(port, '/api/ready');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({
      code: 200,
      success: true,
      data: { database: 'up', sharedState: 'up' },
    });

    // a second server on the same PGlite folder refuses to start
    const b = start();
    expect(await b.exited).toBe(1);
    expect(b.output()).toContain(`Another server (pid ${pid}) holds`);

    // the backup asks the running server for its copy
    const backup = await tool(['--out', join(root, 'backups')]);
    expect(backup.code, backup.err).toBe(0);
    const [name] = readdirSync(join(root, 'backups'));
    const manifest = JSON.parse(readFileSync(join(root, 'backups', name, 'manifest.json'), 'utf8'));
    expect(manifest.database.takenBy).toBe('server');
    expect(manifest.files.count).toBeGreaterThan(0); // the seed's files and the signing key

    // SIGTERM with a request in flight (its body still arriving)
    const query = new URLSearchParams({
      tenantId: '000000',
      grant_type: 'password',
      username: 'admin',
      password: md5Hex('admin'),
      scope: 'all',
    });
    const inFlight = call(port, `/api/dfem-auth/oauth/token?${query}`, 'POST', {
      text: JSON.stringify({ note: 'a body that arrives slowly' }),
      gap: 1000,
    });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid, 'SIGTERM'); // as an orchestrator stops the server
    await new Promise((r) => setTimeout(r, 300));
    const draining = await call(port, '/api/ready');
    expect(draining.status).toBe(503);
    expect(JSON.parse(draining.body).data).toEqual({ database: 'up', sharedState: 'up', draining: true });
    const answered = await inFlight;
    expect(answered.status, answered.body).toBe(200);
    expect(JSON.parse(answered.body).access_token).toBeTruthy();
    expect(await a.exited).toBe(0);
    expect(a.output()).toContain('drained and closed');
    expect(existsSync(join(dataDir, 'server.pid'))).toBe(false);
    await expect(call(port, '/api/ready')).rejects.toThrow(/ECONNREFUSED/);
  }, 480_000);
});
