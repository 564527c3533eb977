// Preloaded into the server bench/flow.mjs measures (node --import): counts the statements the server sends
// to PostgreSQL (every node-postgres query, BEGIN and COMMIT included: each is a round trip), and writes the
// count to BENCH_SQL_COUNT_FILE when the process gets SIGUSR2. PGlite runs in the process: nothing to count.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const file = process.env.BENCH_SQL_COUNT_FILE;
if (file) {
  // the server's own node-postgres: resolved from the script node runs (its dist/main.js)
  const pg = createRequire(process.argv[1])('pg');
  let count = 0;
  const query = pg.Client.prototype.query;
  // BENCH_SQL_LOG: every statement's text appended to that file too (to read what one step sends)
  const logFile = process.env.BENCH_SQL_LOG;
  pg.Client.prototype.query = function countedQuery(...args) {
    count++;
    if (logFile) {
      const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
      appendFileSync(logFile, `${String(text).replace(/\s+/g, ' ').slice(0, 400)}\n`);
    }
    return query.apply(this, args);
  };
  process.on('SIGUSR2', () => writeFileSync(file, String(count)));
}
