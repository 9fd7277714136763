import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, cp, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runAs } from '../db/embedded/server';
import { writeServerSettings } from '../db/embedded/settings';
import { archiveSettings, recoverySettings } from './archive';
import { backupId } from './base-backup';
import type { BaseBackupRecord } from './catalogue';
import type { BackupSettings } from './layout';

/** A restore that cannot be done as asked; the message says why and what can be done. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/**
 * The base backup to start from: the newest finished at or before the target (its copy is consistent only from
 * its end on), for 'latest' the newest of all.
 */
export function chooseBaseBackup(records: readonly BaseBackupRecord[], target: Date | 'latest'): BaseBackupRecord {
  if (records.length === 0) throw new RestoreRefused('There is no finished base backup to restore from (npm run backup takes one)');
  if (target === 'latest') return records.at(-1)!;
  const candidates = records.filter((record) => Date.parse(record.finishedAt) <= target.getTime());
  if (candidates.length === 0) {
    throw new RestoreRefused(
      `${target.toISOString()} is before the oldest base backup kept ended (${records[0]!.finishedAt}); nothing earlier can be restored`,
    );
  }
  return candidates.at(-1)!;
}

/** Where a restore is built: beside the data directory, never in it. */
export function restoringDir(dataDir: string, at: Date): string {
  const resolved = path.resolve(dataDir);
  return `${resolved}.restoring-${backupId(at)}`;
}

/**
 * Lays out a new data directory from a base backup, set to replay the archived WAL up to `target` and then become a
 * server of its own (a new timeline): the copy under `<into>/postgres`, the password beside it, recovery.signal,
 * and the settings (archiving on as before, so the restored server's own WAL is archived too).
 */
export async function prepareRestore(
  settings: BackupSettings,
  base: BaseBackupRecord,
  target: Date | 'latest',
  into: string,
): Promise<string[]> {
  if (existsSync(into)) throw new RestoreRefused(`${into} exists already; a restore writes only into a new directory`);
  const from = path.join(settings.baseDir, base.id);
  const databaseDir = path.join(into, 'postgres');
  await cp(path.join(from, 'pgdata'), databaseDir, { recursive: true });
  await chmod(into, 0o755);
  await chmod(databaseDir, 0o700);
  if (existsSync(path.join(from, 'postgres.password'))) {
    await copyFile(path.join(from, 'postgres.password'), path.join(into, 'postgres.password'));
    await chmod(path.join(into, 'postgres.password'), 0o600);
  }
  await writeFile(path.join(databaseDir, 'recovery.signal'), '');
  const owner = runAs();
  if (owner) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, databaseDir]);
  return [
    ...archiveSettings({ walDir: settings.walDir, archiveTimeoutSeconds: settings.archiveTimeoutSeconds }),
    ...recoverySettings(settings.walDir, target),
  ];
}

/** Once recovered, the restored directory keeps archiving as before, with no recovery target left behind. */
export async function settleRestore(settings: BackupSettings, into: string): Promise<void> {
  const lines = archiveSettings({ walDir: settings.walDir, archiveTimeoutSeconds: settings.archiveTimeoutSeconds });
  await writeServerSettings(path.join(into, 'postgres'), lines, runAs());
}

/**
 * Puts a verified restore in the data directory's place. Whatever stood there is kept, renamed
 * `<DATA_DIR>.before-restore-<time>`, never deleted. Returns that name, or null when nothing stood there.
 */
export async function swapIn(dataDir: string, restored: string, at: Date): Promise<string | null> {
  const target = path.resolve(dataDir);
  let kept: string | null = null;
  if (existsSync(target)) {
    const pid = path.join(target, 'postgres', 'postmaster.pid');
    if (existsSync(pid)) {
      const [owner] = readFileSync(pid, 'utf8').split('\n');
      try {
        process.kill(Number(owner), 0);
        throw new RestoreRefused(
          `${target} is served by a running PostgreSQL (process ${owner}); stop the product first. The verified restore is in ${restored}`,
        );
      } catch (error) {
        if (error instanceof RestoreRefused) throw error;
      }
    }
    kept = `${target}.before-restore-${backupId(at)}`;
    await rename(target, kept);
  }
  await rename(restored, target);
  return kept;
}
