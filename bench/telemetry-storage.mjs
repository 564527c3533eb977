// Telemetry storage of 智慧管理系统: `npm run bench` (after the telemetry bench) or `node bench/telemetry-storage.mjs`.
// PostgreSQL only (DATABASE_URL; `_storage` appended to its database name, a database of its own: its
// readings are emptied each run). STORAGE_DEVICES devices (default 200; half weather stations, half
// inverters, 3 metrics each, the simulator's values) × two closed days of 5-minute readings written through
// the ingestion's writer, then compacted by the storage job (apps/server/src/tools/storage-sample.ts):
// bytes per reading on disk (table, index and TOAST) in the raw form and in the compact form.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLog, migratedDatabase, root, runMain, runToolJson } from './lib.mjs';
import { suffixedDbUrl } from './measure.mjs';

const log = makeLog('telemetry-storage');
const GOAL = 12;

/** runs the sample tool to its end; its last line (JSON) */
function sample(env) {
  return runToolJson('storage sample', 'apps/server/src/tools/storage-sample.ts', [], env);
}

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) {
    log('DATABASE_URL is not set: the storage bench runs on PostgreSQL only; skipped');
    return;
  }
  const url = suffixedDbUrl(base, '_storage');
  await migratedDatabase('postgres', url, join(root, '.bench-data', 'storage'));
  log('writing and compacting the sample…');
  const r = await sample({ DATABASE_URL: url });
  const table = [
    '| measurement | PostgreSQL | target | ok? |',
    '|---|---|---|---|',
    `| bytes per reading after compaction (${r.devices} devices × 3 metrics × 2 days of 5-minute readings, ${r.readings.toLocaleString('en-US')} readings in ${r.chunks} chunks) | ${r.chunkBytesPerReading.toFixed(1)} (raw form: ${r.rawBytesPerReading.toFixed(1)}, ${(r.rawBytesPerReading / r.chunkBytesPerReading).toFixed(0)}× smaller) | ≤ ${GOAL} | ${r.chunkBytesPerReading <= GOAL ? '✅' : '❌'} |`,
    `| compaction of those readings, ms | ${r.compactMs} (${Math.round(r.compacted / (r.compactMs / 1000)).toLocaleString('en-US')} readings/s) | — | — |`,
  ].join('\n');
  writeFileSync(
    join(root, 'bench', 'last-telemetry-storage.md'),
    `# Telemetry storage bench\n\n${new Date().toISOString()} · Node ${process.version}\n\n${table}\n`,
  );
  process.stdout.write(`${table}\n`);
}

await runMain(main, log);
