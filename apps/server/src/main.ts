import { loadConfig } from './platform/config';
import { openDatabase } from './platform/db';

const started = performance.now();
const config = loadConfig();
process.env.TZ = config.TZ;
// the database opens (PGlite compiles and starts) while the rest of the server is loaded
const opening = openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  readCache: config.READ_CACHE,
});
opening.catch(() => {}); // awaited (and reported) by createServer
const { createServer } = await import('./server');
const server = await createServer(config, { opening });
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
    server.app.log.info(`${signal}: finishing requests in flight, then closing the database`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await server.close();
      process.exit(0);
    } catch (err) {
      server.app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  });
}
