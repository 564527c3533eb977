import pg from 'pg';

/** Whether a worker process of this machine still runs (its database is in use by another run). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Drops the per-worker test databases (smart_test_<pid>) of workers that have ended, before and after a
 * run, so none pile up and two runs on one machine leave each other's databases alone.
 */
async function dropTestDatabases() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(
    "select datname from pg_database where datname like 'smart\\_test\\_%'",
  );
  for (const { datname } of rows) {
    const pid = Number(datname.slice('smart_test_'.length));
    if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) continue;
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
  await admin.end();
}

export const setup = dropTestDatabases;
export const teardown = dropTestDatabases;
