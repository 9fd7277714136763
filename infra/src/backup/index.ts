/**
 * Continuous backup of the embedded PostgreSQL and its point-in-time restore (docs/operations/backups.md): the WAL
 * archived as the server writes it (archive.ts), base backups (base-backup.ts) kept and pruned (catalogue.ts) on a
 * schedule (schedule.ts), their status (status.ts), and the restore into a new data directory (restore.ts).
 */
export { backupLayout, backupSettings, defaultBackupDir, type BackupLayout, type BackupSettings } from './layout';
export { listBaseBackups, pruneBackups, type BaseBackupRecord } from './catalogue';
export { takeBaseBackup } from './base-backup';
export { backupStatus, type BackupStatus } from './status';
export { prepareBackupDir, scheduleBaseBackups, serverBackupSettings } from './schedule';
export { chooseBaseBackup, prepareRestore, restoringDir, RestoreRefused, settleRestore, swapIn } from './restore';
export { archiveNow } from './archive-now';
export { BackupReplica, objectStoreSettings, scheduleReplica, type ObjectStoreSettings, type ReplicaState } from './replica';
