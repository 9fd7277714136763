import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { archiveCommand, restoreCommand } from './archive';

/**
 * The archive and restore commands as PostgreSQL runs them (/bin/sh, %p and %f replaced, in the data directory),
 * on real files: a segment is stored once, a retry of the same bytes succeeds, other bytes under the same name are
 * refused and leave the stored copy as it was (docs/operations/backups.md "How it works").
 */
const dir = mkdtempSync(path.join(os.tmpdir(), "pf-archive-it's 100%-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const walDir = path.join(dir, 'wal archive');
const pgdata = path.join(dir, 'pgdata');
mkdirSync(walDir);
mkdirSync(path.join(pgdata, 'pg_wal'), { recursive: true });

/** Runs a command as PostgreSQL would: %p relative to the data directory, %f the file's name, %% a percent sign. */
function run(command: string, file: string, relative: string): number {
  const line = command.replaceAll(/%[pf%]/g, (token) => (token === '%p' ? relative : token === '%f' ? file : '%'));
  try {
    execFileSync('/bin/sh', ['-c', line], { cwd: pgdata, stdio: 'pipe' });
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

it('archives a segment once, accepts the same bytes again, refuses other bytes under its name, and restores it', () => {
  const segment = '000000010000000000000003';
  writeFileSync(path.join(pgdata, 'pg_wal', segment), Buffer.alloc(64 * 1024, 7));
  expect(run(archiveCommand(walDir), segment, `pg_wal/${segment}`)).toBe(0);
  const stored = readFileSync(path.join(walDir, `${segment}.gz`));
  expect(stored.length).toBeLessThan(1024);

  // PostgreSQL asking again after a crash: the same bytes are already there.
  expect(run(archiveCommand(walDir), segment, `pg_wal/${segment}`)).toBe(0);
  // Another history's segment of the same name: refused, and the stored one is untouched.
  writeFileSync(path.join(pgdata, 'pg_wal', segment), Buffer.alloc(64 * 1024, 8));
  expect(run(archiveCommand(walDir), segment, `pg_wal/${segment}`)).not.toBe(0);
  expect(readFileSync(path.join(walDir, `${segment}.gz`))).toEqual(stored);

  expect(run(restoreCommand(walDir), segment, 'pg_wal/RECOVERYXLOG')).toBe(0);
  expect(readFileSync(path.join(pgdata, 'pg_wal', 'RECOVERYXLOG'))).toEqual(Buffer.alloc(64 * 1024, 7));
  // The end of the archive: a segment it does not hold fails, as PostgreSQL expects.
  expect(run(restoreCommand(walDir), '000000010000000000000004', 'pg_wal/RECOVERYXLOG')).not.toBe(0);
});
