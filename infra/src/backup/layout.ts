import path from 'node:path';
import type { Config } from '../config';

/**
 * Where a data directory's backups are kept (docs/operations/backups.md): `base/<id>/` one folder per base backup
 * (the copied files under `pgdata/`, the password file, and `backup.json`, written last, so a folder without it
 * is an unfinished backup), `wal/` the archived WAL segments, each gzipped.
 */
export interface BackupLayout {
  readonly dir: string;
  readonly baseDir: string;
  readonly walDir: string;
}

export interface BackupSettings extends BackupLayout {
  readonly intervalMs: number;
  readonly retentionMs: number;
  readonly archiveTimeoutSeconds: number;
}

/** The default BACKUP_DIR: a sibling of the data directory, so that one directory's deletion spares the other. */
export function defaultBackupDir(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}-backups`);
}

export function backupLayout(dir: string): BackupLayout {
  const resolved = path.resolve(dir);
  return { dir: resolved, baseDir: path.join(resolved, 'base'), walDir: path.join(resolved, 'wal') };
}

type BackupConfig = Pick<
  Config,
  | 'BACKUP'
  | 'BACKUP_DIR'
  | 'DATA_DIR'
  | 'DATABASE_URL'
  | 'BACKUP_INTERVAL_HOURS'
  | 'BACKUP_RETENTION_DAYS'
  | 'BACKUP_ARCHIVE_TIMEOUT_SECONDS'
>;

/** The backup settings of the embedded database, or null when backups are off or the database is not embedded. */
export function backupSettings(config: BackupConfig): BackupSettings | null {
  if (config.BACKUP === 'off' || config.DATABASE_URL) return null;
  return {
    ...backupLayout(config.BACKUP_DIR ?? defaultBackupDir(config.DATA_DIR)),
    intervalMs: config.BACKUP_INTERVAL_HOURS * 3_600_000,
    retentionMs: config.BACKUP_RETENTION_DAYS * 86_400_000,
    archiveTimeoutSeconds: config.BACKUP_ARCHIVE_TIMEOUT_SECONDS,
  };
}
