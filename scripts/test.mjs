// The whole test suite, in the order that fails fastest: types and lint, unit and API tests
// (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), then the production build, the cluster tests (with
// TEST_DATABASE_URL, REDIS_URL and haproxy) and the browser tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['types and lint', 'npm', ['run', 'check']],
  ['unit and API tests', 'npx', ['vitest', 'run']],
  ['production build', 'npm', ['run', 'build']],
];
// two built servers behind HAProxy on PostgreSQL, Redis and Mosquitto (apps/server/test/cluster): where
// there are a PostgreSQL and a Redis to run them on
const clusterWhy = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is unset'
  : !process.env.REDIS_URL
    ? 'REDIS_URL is unset'
    : spawnSync('haproxy', ['-v']).error
      ? 'haproxy is not installed (apt-get install -y haproxy)'
      : '';
if (!clusterWhy)
  steps.push([
    'cluster tests (two servers behind HAProxy)',
    'npx',
    ['vitest', 'run', '--project', 'cluster'],
    { CLUSTER_TESTS: '1' },
  ]);
else console.log(`cluster tests skipped: ${clusterWhy}`);
steps.push(['browser tests (Chromium)', 'npm', ['run', 'test:e2e']]);

if (!existsSync('/usr/bin/chromium')) {
  console.error(
    'Chromium is missing: install it with `apt-get install -y chromium fonts-noto-cjk` (see README).',
  );
  process.exit(1);
}

for (const [name, cmd, args, env = {}] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n=== ${name} FAILED after ${secs} s`);
    process.exit(r.status ?? 1);
  }
  console.log(`=== ${name} passed in ${secs} s`);
}
