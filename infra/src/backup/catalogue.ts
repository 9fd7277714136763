import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { BackupLayout } from './layout';

/** What `backup.json` says of a finished base backup (written last: a folder without it is unfinished). */
const baseBackupRecord = z.object({
  id: z.string(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  /** The first WAL segment the backup needs: older segments serve only older backups. */
  startWal: z.string().regex(/^[0-9A-F]{24}$/),
  startLsn: z.string(),
  stopLsn: z.string(),
  bytes: z.number().int().nonnegative(),
  seconds: z.number().nonnegative(),
});
export type BaseBackupRecord = z.infer<typeof baseBackupRecord>;

export const RECORD_FILE = 'backup.json';

/** The finished base backups, oldest first. */
export async function listBaseBackups(layout: BackupLayout): Promise<BaseBackupRecord[]> {
  if (!existsSync(layout.baseDir)) return [];
  const records: BaseBackupRecord[] = [];
  for (const name of await readdir(layout.baseDir)) {
    const file = path.join(layout.baseDir, name, RECORD_FILE);
    if (!existsSync(file)) continue;
    const parsed = baseBackupRecord.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success && parsed.data.id === name) records.push(parsed.data);
  }
  return records.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** The segment's place in the WAL, whatever its timeline: the last 16 of its 24 hexadecimal digits. */
const walPlace = (name: string) => name.slice(8, 24);

/**
 * Deletes base backups finished longer than `retentionMs` ago (the newest is always kept), the WAL segments older
 * than the oldest kept backup needs, and unfinished backups left a day or more ago (docs/operations/backups.md
 * "Retention"). Timeline history files are kept: they are small, and a restore needs them to follow a timeline.
 */
export async function pruneBackups(
  layout: BackupLayout,
  retentionMs: number,
  now: Date,
): Promise<{ backups: string[]; walSegments: number }> {
  const records = await listBaseBackups(layout);
  const newest = records.at(-1);
  const expired = records.filter((record) => record !== newest && now.getTime() - Date.parse(record.finishedAt) > retentionMs);
  for (const record of expired) await rm(path.join(layout.baseDir, record.id), { recursive: true, force: true });
  const kept = new Set(records.map((record) => record.id));
  for (const name of existsSync(layout.baseDir) ? await readdir(layout.baseDir) : []) {
    const folder = path.join(layout.baseDir, name);
    if (kept.has(name)) continue;
    if (now.getTime() - (await stat(folder)).mtimeMs > 86_400_000) await rm(folder, { recursive: true, force: true });
  }
  const oldestKept = records.find((record) => !expired.includes(record));
  let walSegments = 0;
  if (oldestKept && existsSync(layout.walDir)) {
    const floor = walPlace(oldestKept.startWal);
    for (const name of await readdir(layout.walDir)) {
      if (!/^[0-9A-F]{24}/.test(name) || name.includes('.history')) continue;
      if (walPlace(name) < floor) {
        await rm(path.join(layout.walDir, name), { force: true });
        walSegments++;
      }
    }
  }
  return { backups: expired.map((record) => record.id), walSegments };
}
