import { chmod, chown, mkdir } from 'node:fs/promises';
import type pg from 'pg';
import { runAs } from '../db/embedded/server';
import { archiveSettings } from './archive';
import { takeBaseBackup } from './base-backup';
import { listBaseBackups, pruneBackups } from './catalogue';
import type { BackupLayout, BackupSettings } from './layout';

interface ScheduleLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Creates the backup folders, each readable by its writer only: base backups by the product, the WAL folder by
 * the server (as root, the "postgres" user, who may pass through BACKUP_DIR to it but not list it).
 */
export async function prepareBackupDir(layout: BackupLayout): Promise<void> {
  await mkdir(layout.baseDir, { recursive: true, mode: 0o700 });
  await mkdir(layout.walDir, { recursive: true, mode: 0o700 });
  const owner = runAs();
  if (owner) {
    await chmod(layout.dir, 0o711);
    await chown(layout.walDir, owner.uid, owner.gid);
  }
}

/** The server settings for these backup settings (null: archiving off). */
export function serverBackupSettings(settings: BackupSettings | null): string[] {
  return archiveSettings(settings ? { walDir: settings.walDir, archiveTimeoutSeconds: settings.archiveTimeoutSeconds } : null);
}

const CHECK_EVERY_MS = 10 * 60_000;

/**
 * The product's own base backups (docs/operations/backups.md "How often"): one at start when none is younger than
 * BACKUP_INTERVAL_HOURS, then whenever the newest reaches that age (looked at every 10 minutes), each followed by
 * the retention's pruning. A failure is logged and tried again at the next look; /readyz warns meanwhile.
 */
export function scheduleBaseBackups(
  pool: pg.Pool,
  dataDir: string,
  settings: BackupSettings,
  log: ScheduleLog,
  /** After each base backup (its copy to the object store, when there is one). */
  afterBackup: () => Promise<void> = () => Promise.resolve(),
): { close(): Promise<void> } {
  let running: Promise<void> | null = null;
  let closed = false;
  const look = async () => {
    try {
      const newest = (await listBaseBackups(settings)).at(-1);
      if (newest && Date.now() - Date.parse(newest.finishedAt) < settings.intervalMs) return;
      const record = await takeBaseBackup(pool, dataDir, settings);
      log.info({ id: record.id, bytes: record.bytes, seconds: record.seconds }, 'base backup taken');
      const pruned = await pruneBackups(settings, settings.retentionMs, new Date());
      if (pruned.backups.length > 0 || pruned.walSegments > 0) log.info(pruned, 'backups past their retention deleted');
      await afterBackup();
    } catch (error) {
      if (!closed) log.error({ err: error }, 'the base backup failed; it is tried again in 10 minutes');
    }
  };
  const tick = () => {
    if (closed || running) return;
    running = look().finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, Math.min(CHECK_EVERY_MS, settings.intervalMs));
  timer.unref();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
