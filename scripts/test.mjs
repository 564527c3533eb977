// The whole test suite, in the order that fails fastest: types and lint, unit and API tests
// (PGlite; PostgreSQL too when TEST_DATABASE_URL is set), then the production build and the browser tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['types and lint', 'npm', ['run', 'check']],
  ['unit and API tests', 'npx', ['vitest', 'run']],
  ['production build', 'npm', ['run', 'build']],
  ['browser tests (Chromium)', 'npm', ['run', 'test:e2e']],
];

if (!existsSync('/usr/bin/chromium')) {
  console.error(
    'Chromium is missing: install it with `apt-get install -y chromium fonts-noto-cjk` (see README).',
  );
  process.exit(1);
}

for (const [name, cmd, args] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n=== ${name} FAILED after ${secs} s`);
    process.exit(r.status ?? 1);
  }
  console.log(`=== ${name} passed in ${secs} s`);
}
