import { existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { passwordFile } from '../db/embedded/access';
import { RECORD_FILE, type BaseBackupRecord } from './catalogue';
import type { BackupLayout } from './layout';

/**
 * Folders whose contents a base backup leaves out, as PostgreSQL's documentation on the low-level backup API
 * lists them: the WAL (restored from the archive instead), and what the server rebuilds or discards at start.
 */
const EMPTIED = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'recovery.signal', 'standby.signal']);

/** Copies the files under `from` to `to` (regular files and folders only: no sockets), returning the bytes copied. */
async function copyTree(from: string, to: string, top: boolean): Promise<number> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  let bytes = 0;
  let names: string[];
  try {
    names = await readdir(from);
  } catch (error) {
    // A folder the running server removed meanwhile: the WAL replayed at restore accounts for it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  for (const name of names) {
    if (top && SKIPPED.has(name)) continue;
    if (name.startsWith('pgsql_tmp') || name.startsWith('.s.PGSQL.')) continue;
    const source = path.join(from, name);
    const target = path.join(to, name);
    try {
      const info = await lstat(source);
      if (info.isDirectory()) {
        if (top && EMPTIED.has(name)) await mkdir(target, { recursive: true, mode: 0o700 });
        else bytes += await copyTree(source, target, false);
      } else if (info.isFile()) {
        await copyFile(source, target);
        bytes += info.size;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return bytes;
}

/** `20261128T091502123Z`: a base backup's folder name, in the order of time. */
export function backupId(at: Date): string {
  return at.toISOString().replaceAll(/[-:.]/g, '');
}

/**
 * A base backup of the running embedded server (docs/operations/backups.md "How it works"), by PostgreSQL's
 * low-level backup API in one session: pg_backup_start, a copy of the data directory's files, pg_backup_stop
 * (which waits until the WAL the copy needs is archived), whose backup_label goes into the copy. The copy alone
 * is inconsistent (the server wrote on meanwhile); with the archived WAL it restores to any later moment.
 * The embedded binaries ship no pg_basebackup, hence the API.
 */
export async function takeBaseBackup(
  pool: pg.Pool,
  dataDir: string,
  layout: BackupLayout,
  now = () => new Date(),
): Promise<BaseBackupRecord> {
  const client = await pool.connect();
  const started = now();
  const id = backupId(started);
  const partial = path.join(layout.baseDir, `${id}.partial`);
  let failed = false;
  try {
    const { rows: mode } = await client.query<{ archive_mode: string }>('show archive_mode');
    if (mode[0]?.archive_mode === 'off') {
      throw new Error('the server does not archive its WAL (BACKUP=off when it started), so a base backup could not be restored');
    }
    const databaseDir = path.resolve(dataDir, 'postgres');
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true, mode: 0o700 });
    const { rows: begin } = await client.query<{ lsn: string; wal: string }>(
      `select lsn::text, pg_walfile_name(lsn) as wal from pg_backup_start($1, true) as lsn`,
      [`pf ${id}`],
    );
    const bytes = await copyTree(databaseDir, path.join(partial, 'pgdata'), true);
    const { rows: end } = await client.query<{ lsn: string; labelfile: string; spcmapfile: string | null }>(
      'select lsn::text, labelfile, spcmapfile from pg_backup_stop(true)',
    );
    await writeFile(path.join(partial, 'pgdata', 'backup_label'), end[0]!.labelfile, { mode: 0o600 });
    if (end[0]!.spcmapfile) await writeFile(path.join(partial, 'pgdata', 'tablespace_map'), end[0]!.spcmapfile, { mode: 0o600 });
    // The data directory's password, which the restored server's superuser keeps (docs/operations/embedded-database.md).
    if (existsSync(passwordFile(dataDir))) await copyFile(passwordFile(dataDir), path.join(partial, 'postgres.password'));
    const finished = now();
    const record: BaseBackupRecord = {
      id,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      startWal: begin[0]!.wal,
      startLsn: begin[0]!.lsn,
      stopLsn: end[0]!.lsn,
      bytes,
      seconds: (finished.getTime() - started.getTime()) / 1000,
    };
    await writeFile(path.join(partial, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    await rename(partial, path.join(layout.baseDir, id));
    return record;
  } catch (error) {
    failed = true;
    await rm(partial, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  } finally {
    // Ending the session ends a backup left started (PostgreSQL aborts it).
    client.release(failed);
  }
}
