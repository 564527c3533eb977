import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Projects: `unit` (pure code beside the sources), `api` on PGlite, and `api-postgres` on a real
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). API workers keep one database each across files.
 * A file named `*.alone.test.ts` measures its own process (its memory): it runs in a fresh worker of its
 * own, with `gc` exposed, so what earlier files left in a shared worker is not counted as its own.
 */
const ALONE = 'apps/server/test/**/*.alone.test.ts';
/** the cluster tests start the built server (dist) as processes: their own project, run after the build */
const CLUSTER = 'apps/server/test/cluster/**';
const apiProject = (name: string, db: string, groupOrder: number, alone = false) => ({
  test: {
    name: alone ? `${name}-alone` : name,
    sequence: { groupOrder },
    globalSetup: db === 'postgres' ? ['apps/server/test/postgres-setup.ts'] : [],
    include: [alone ? ALONE : 'apps/server/test/**/*.test.ts'],
    exclude: alone ? [...configDefaults.exclude, CLUSTER] : [...configDefaults.exclude, ALONE, CLUSTER],
    environment: 'node',
    env: { TEST_DB: db, TZ: 'Asia/Shanghai' },
    isolate: alone,
    pool: 'forks' as const,
    maxWorkers: 2,
    execArgv: alone ? ['--expose-gc'] : [],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'apps/**/src/**/*.test.ts',
            'apps/web/build/**/*.test.ts',
            'packages/**/src/**/*.test.ts',
          ],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      apiProject('api', 'pglite', 1),
      apiProject('api', 'pglite', 1, true),
      ...(process.env.TEST_DATABASE_URL
        ? [apiProject('api-postgres', 'postgres', 2), apiProject('api-postgres', 'postgres', 2, true)]
        : []),
      // two built servers behind HAProxy on PostgreSQL, Redis and Mosquitto (issue 38): `npm run test:cluster`,
      // and scripts/test.mjs after the production build when TEST_DATABASE_URL and REDIS_URL are set
      ...(process.env.CLUSTER_TESTS === '1'
        ? [
            {
              test: {
                name: 'cluster',
                include: ['apps/server/test/cluster/**/*.test.ts'],
                globalSetup: ['apps/server/test/postgres-setup.ts'],
                environment: 'node',
                env: { TZ: 'Asia/Shanghai' },
                pool: 'forks' as const,
                maxWorkers: 1,
                testTimeout: 60_000,
                hookTimeout: 120_000,
                sequence: { groupOrder: 3 },
              },
            },
          ]
        : []),
    ],
  },
});
