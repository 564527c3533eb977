import pg from 'pg';

/** Drops the per-worker test databases (smart_test_<pid>) before and after a run, so none pile up. */
async function dropTestDatabases() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(
    "select datname from pg_database where datname like 'smart\\_test\\_%'",
  );
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await admin.end();
}

export const setup = dropTestDatabases;
export const teardown = dropTestDatabases;
