import { BackupError, restoreBackup, shown } from '../platform/backup';
import { loadConfig } from '../platform/config';

/**
 * `npm run restore -- <backup folder> [--force]`: brings DATA_DIR (and, for a PostgreSQL backup, the
 * DATABASE_URL database, created when missing) back to a backup. A non-empty target is refused unless
 * --force, which replaces it. Every server on the target must be stopped first.
 */
const args = process.argv.slice(2);
const force = args.includes('--force');
const rest = args.filter((a) => a !== '--force');
if (rest.length !== 1 || rest[0].startsWith('-')) {
  console.error('usage: npm run restore -- <backup folder> [--force]');
  process.exit(2);
}
try {
  const config = loadConfig();
  const manifest = await restoreBackup({
    config,
    from: rest[0],
    force,
    log: (line) => console.log(`  ${line}`),
  });
  console.log(
    `restored ${shown(rest[0])} (${manifest.database.kind}, taken ${manifest.createdAt}) into ` +
      `${config.DATABASE_URL ? 'DATABASE_URL and ' : ''}${shown(config.DATA_DIR)}`,
  );
  process.exit(0);
} catch (e) {
  console.error(`restore failed: ${e instanceof BackupError ? e.message : ((e as Error).stack ?? e)}`);
  process.exit(1);
}
