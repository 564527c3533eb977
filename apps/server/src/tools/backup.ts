import { BackupError, shown, takeBackup } from '../platform/backup';
import { loadConfig } from '../platform/config';

/**
 * `npm run backup [-- --out <folder>]`: a backup of the database this server's settings name (DATABASE_URL,
 * or DATA_DIR's PGlite) and of DATA_DIR's files, into <folder> (BACKUP_DIR, default ./backups) as
 * `backup-<UTC time>/` with a manifest. Safe while the server runs (platform/backup.ts).
 */
const args = process.argv.slice(2);
const at = args.indexOf('--out');
const outDir = at >= 0 ? args[at + 1] : (process.env.BACKUP_DIR ?? './backups');
if (!outDir || args.some((a, i) => a.startsWith('-') && a !== '--out' && i !== at + 1)) {
  console.error('usage: npm run backup [-- --out <folder>]');
  process.exit(2);
}
try {
  const config = loadConfig();
  const { dir, manifest } = await takeBackup({ config, outDir, log: (line) => console.log(`  ${line}`) });
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `backup written: ${shown(dir)}\n  database: ${manifest.database.kind}, ${manifest.database.file} ` +
      `${mb(manifest.database.bytes)} MB, ${manifest.database.migrations ?? '?'} migrations\n` +
      `  files: ${manifest.files.count} (${mb(manifest.files.bytes)} MB)`,
  );
  process.exit(0);
} catch (e) {
  console.error(`backup failed: ${e instanceof BackupError ? e.message : ((e as Error).stack ?? e)}`);
  process.exit(1);
}
