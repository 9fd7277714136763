import pg from 'pg';
import { loadConfig } from '@pf/infra';
import {
  BackupReplica,
  backupSettings,
  objectStoreSettings,
  prepareBackupDir,
  pruneBackups,
  serverBackupSettings,
  takeBaseBackup,
} from '@pf/infra/backup';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '@pf/infra/embedded';
import { formatBytes } from './size';

/**
 * npm run backup: a base backup of the embedded database now (docs/operations/backups.md), of the running
 * product's server when `npm start` has DATA_DIR open, else of a server started here for it; then the retention.
 */
const config = loadConfig();
const print = (line: string) => process.stdout.write(`${line}\n`);
if (config.DATABASE_URL) {
  print(
    "DATABASE_URL names a PostgreSQL server this product does not run: back it up with that server's own tools (pg_basebackup and WAL archiving, pgBackRest, or the provider's point-in-time recovery); see docs/operations/backups.md",
  );
  process.exit(2);
}
const settings = backupSettings(config);
if (!settings) {
  print('Backups are off (BACKUP=off): the WAL is not archived, so a base backup alone could not be restored to any moment');
  process.exit(2);
}
await prepareBackupDir(settings);
const running = runningEmbeddedUrl(config.DATA_DIR);
const embedded = running ? null : await startEmbeddedPostgres(config.DATA_DIR, () => undefined, undefined, serverBackupSettings(settings));
const pool = new pg.Pool({ connectionString: running ?? embedded!.url, max: 1 });
let code = 0;
try {
  const record = await takeBaseBackup(pool, config.DATA_DIR, settings);
  print(`Base backup ${record.id}: ${formatBytes(record.bytes)} in ${record.seconds.toFixed(1)} s, in ${settings.baseDir}`);
  const pruned = await pruneBackups(settings, settings.retentionMs, new Date());
  if (pruned.backups.length > 0) print(`Deleted past the retention (${config.BACKUP_RETENTION_DAYS} days): ${pruned.backups.join(', ')}`);
  const objectStore = objectStoreSettings(config);
  if (objectStore) {
    const replica = new BackupReplica(objectStore);
    try {
      const sent = await replica.push(settings);
      await replica.prune(settings.retentionMs, new Date());
      print(`Copied to ${objectStore.url}: ${sent.files} files, ${formatBytes(sent.bytes)}`);
    } finally {
      replica.close();
    }
  }
} catch (error) {
  code = 1;
  print(`The base backup failed: ${(error as Error).message}`);
} finally {
  await pool.end();
  await embedded?.stop();
}
process.exit(code);
