import { holdDataDir, serveBackupRequests, serverPidOf } from './platform/backup';
import { loadConfig } from './platform/config';
import { openDatabase } from './platform/db';

const started = performance.now();
const config = loadConfig();
process.env.TZ = config.TZ;
// PGlite: one process may open its folder. The holder's pid is kept in DATA_DIR, so that a second server
// refuses to start and `npm run backup` asks this one for a consistent copy instead of opening the folder.
const pglite = !config.DATABASE_URL;
let releaseDataDir = () => {};
if (pglite) {
  const holder = serverPidOf(config.DATA_DIR);
  if (holder && holder !== process.pid) {
    console.error(
      `Another server (pid ${holder}) holds ${config.DATA_DIR} (its PGlite database opens in one process only). ` +
        'Stop it first, or remove DATA_DIR/server.pid if that process is not this server.',
    );
    process.exit(1);
  }
  releaseDataDir = holdDataDir(config.DATA_DIR);
  process.on('exit', () => releaseDataDir());
}
// the database opens (PGlite compiles and starts) while the rest of the server is loaded
const opening = openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  readCache: config.READ_CACHE,
});
opening.catch(() => {}); // awaited (and reported) by createServer
const { createServer } = await import('./server');
const server = await createServer(config, { opening });
// `npm run backup` on PGlite: SIGUSR2 asks for a copy of the data folder taken between two statements
if (pglite) serveBackupRequests(server.database, config.DATA_DIR, (line) => server.app.log.info(line));
const address = await server.app.listen({ port: config.PORT, host: config.HOST });
const ms = Math.round(performance.now() - started);
const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
server.app.log.info(
  { ms, database: server.database.kind, sharedState: config.REDIS_URL ? 'redis' : 'memory' },
  `智慧管理系统 ready at ${shown}`,
);
// printed on its own, plainly, for the person who just ran `npm start`
console.log(
  `\n  智慧管理系统 is running: ${shown}/\n  Sign in as admin / admin (tenant 000000); you will be asked to choose a new password.\n`,
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    // /api/ready answers 503 from now on; after DRAIN_DELAY_MS no connection is accepted, the requests in
    // flight are answered, then the database and the shared store are closed
    server.app.log.info(
      { drainDelayMs: config.DRAIN_DELAY_MS },
      `${signal}: draining (not ready), finishing requests in flight, then closing the database`,
    );
    const force = setTimeout(() => {
      server.app.log.error(
        `${signal}: requests still in flight after ${config.SHUTDOWN_TIMEOUT_MS} ms; exiting`,
      );
      process.exit(1);
    }, config.DRAIN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await server.drain(config.DRAIN_DELAY_MS);
      server.app.log.info(`${signal}: drained and closed`);
      process.exit(0);
    } catch (err) {
      server.app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  });
}
