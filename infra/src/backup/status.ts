import type pg from 'pg';
import { listBaseBackups } from './catalogue';
import type { BackupSettings } from './layout';
import type { ReplicaState } from './replica';

/** What /readyz says of the backups (docs/operations/backups.md "Status"). */
export interface BackupStatus {
  readonly dir: string;
  readonly lastBaseBackupAt: string | null;
  readonly lastBaseBackupBytes: number | null;
  readonly lastArchivedWal: string | null;
  readonly lastArchivedAt: string | null;
  /** The copy in an S3-compatible object store, when BACKUP_S3_URL names one. */
  readonly objectStore: ReplicaState | null;
  /** Set when backing up has stopped or fallen behind: shown, never silent (readiness is not withheld for it). */
  readonly warnings: string[];
}

/** The grace past the interval before an overdue base backup is a warning (a backup of a large database takes a while). */
const OVERDUE_GRACE_MS = 3_600_000;

export async function backupStatus(
  pool: pg.Pool,
  settings: BackupSettings,
  now: Date,
  replica: ReplicaState | null = null,
): Promise<BackupStatus> {
  const warnings: string[] = [];
  if (replica?.lastError) warnings.push(`copying the backups to ${replica.url} is failing: ${replica.lastError}`);
  const newest = (await listBaseBackups(settings)).at(-1) ?? null;
  if (!newest) warnings.push('no base backup has been taken yet');
  else if (now.getTime() - Date.parse(newest.finishedAt) > settings.intervalMs + OVERDUE_GRACE_MS) {
    const hours = ((now.getTime() - Date.parse(newest.finishedAt)) / 3_600_000).toFixed(1);
    warnings.push(`the last base backup was taken ${hours} h ago, one is due every ${settings.intervalMs / 3_600_000} h`);
  }
  const { rows } = await pool.query<{
    last_archived_wal: string | null;
    last_archived_time: Date | null;
    last_failed_wal: string | null;
    last_failed_time: Date | null;
    archive_mode: string;
  }>(
    `select last_archived_wal, last_archived_time, last_failed_wal, last_failed_time, current_setting('archive_mode') as archive_mode
     from pg_stat_archiver`,
  );
  const archiver = rows[0]!;
  if (archiver.archive_mode === 'off') warnings.push('the server does not archive its WAL: start the product again to turn it on');
  const failedLast =
    archiver.last_failed_time !== null && (archiver.last_archived_time === null || archiver.last_failed_time > archiver.last_archived_time);
  if (failedLast) {
    warnings.push(
      `archiving the WAL is failing: ${archiver.last_failed_wal} could not be archived at ${archiver.last_failed_time!.toISOString()} (the server's log says why; is ${settings.walDir} writable and not full?)`,
    );
  }
  return {
    dir: settings.dir,
    lastBaseBackupAt: newest?.finishedAt ?? null,
    lastBaseBackupBytes: newest?.bytes ?? null,
    lastArchivedWal: archiver.last_archived_wal,
    lastArchivedAt: archiver.last_archived_time?.toISOString() ?? null,
    objectStore: replica,
    warnings,
  };
}
