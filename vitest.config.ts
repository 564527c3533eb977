import { defineConfig } from 'vitest/config';

/**
 * Projects: `unit` (pure code beside the sources), `api` on PGlite, and `api-postgres` on a real
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). API workers keep one database each across files.
 */
const apiProject = (name: string, db: string, groupOrder: number) => ({
  test: {
    name,
    sequence: { groupOrder },
    globalSetup: db === 'postgres' ? ['apps/server/test/postgres-setup.ts'] : [],
    include: ['apps/server/test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: db, TZ: 'Asia/Shanghai' },
    isolate: false,
    pool: 'forks' as const,
    maxWorkers: 2,
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
      ...(process.env.TEST_DATABASE_URL ? [apiProject('api-postgres', 'postgres', 2)] : []),
    ],
  },
});
