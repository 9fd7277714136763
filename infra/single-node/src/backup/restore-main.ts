import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createLogger, loadConfig } from '@pf/infra';
import {
  BackupReplica,
  backupSettings,
  chooseBaseBackup,
  listBaseBackups,
  objectStoreSettings,
  prepareBackupDir,
  prepareRestore,
  RestoreRefused,
  restoringDir,
  settleRestore,
  swapIn,
} from '@pf/infra/backup';
import { startEmbeddedPostgres } from '@pf/infra/embedded';
import { formatBytes } from './size';
import { verifyRestored } from './verify-restored';

/**
 * npm run restore -- --to <time | latest>: point-in-time recovery of the embedded database from BACKUP_DIR into a
 * new directory beside DATA_DIR, verified (hash chains, read models rebuilt), then put in DATA_DIR's place, with
 * what stood there kept under another name (docs/operations/backups.md "Restoring"). The product must be stopped
 * to swap; started again afterwards, it serves the restored data.
 */
const print = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string, code = 2): never => {
  process.stderr.write(`${message}\n`);
  process.exit(code);
};
const target = z.union([
  z.literal('latest'),
  z.iso
    .datetime({ offset: true, error: "--to must be 'latest' or a time with its zone, e.g. 2026-11-28T09:30:00Z" })
    .transform((value) => new Date(value)),
]);

const { values } = parseArgs({ options: { to: { type: 'string' } } });
const to = target.safeParse(values.to);
if (!to.success)
  fail("Usage: npm run restore -- --to <time | latest>; --to must be 'latest' or a time with its zone, e.g. 2026-11-28T09:30:00Z");
const config = loadConfig();
if (config.DATABASE_URL) {
  fail(
    "DATABASE_URL names a PostgreSQL server this product does not run: restore it with that server's own tools (docs/operations/backups.md)",
  );
}
const settings = backupSettings({ ...config, BACKUP: 'on' })!;
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'restore');
const began = performance.now();
const now = new Date();
const into = restoringDir(config.DATA_DIR, now);
const seconds = () => ((performance.now() - began) / 1000).toFixed(1);

let code = 0;
try {
  const wanted = to.data!;
  const objectStore = objectStoreSettings(config);
  if (objectStore) {
    // The folder may be gone with the disk: fetch back what the object store has and the folder lacks.
    await prepareBackupDir(settings);
    const replica = new BackupReplica(objectStore);
    try {
      const fetched = await replica.pull(settings);
      print(`Fetched from ${objectStore.url} into ${settings.dir}: ${fetched.files} files, ${formatBytes(fetched.bytes)}`);
    } finally {
      replica.close();
    }
  }
  const base = chooseBaseBackup(await listBaseBackups(settings), wanted);
  print(
    `Restoring to ${wanted === 'latest' ? 'the end of the archived WAL' : wanted.toISOString()} from base backup ${base.id} (finished ${base.finishedAt}) and the WAL in ${settings.walDir}, into ${into}`,
  );
  const recovery = await prepareRestore(settings, base, wanted, into);
  const server = await startEmbeddedPostgres(into, (line) => log.debug({ postgres: line }, 'restoring'), undefined, recovery).catch(
    (error: unknown) => {
      throw new RestoreRefused(`PostgreSQL could not recover: ${(error as Error).message}`);
    },
  );
  print(`Recovered in ${seconds()} s`);
  try {
    await settleRestore(settings, into);
    const summary = await verifyRestored({ ...config, DATABASE_URL: server.url }, log, server.url, print);
    print(
      `Verified: ${summary.events} events in ${summary.streams} streams, the newest recorded at ${summary.newestEventAt?.toISOString() ?? 'none'}`,
    );
  } finally {
    await server.stop();
  }
  const kept = await swapIn(config.DATA_DIR, into, now);
  print(
    `Restored into ${config.DATA_DIR}${kept ? `; what stood there is kept in ${kept}` : ''}; ready to start (npm start) ${seconds()} s after the restore began`,
  );
} catch (error) {
  code = 1;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`The restore failed: ${message}\n`);
  // A restore refused only at the swap is verified, and kept (the message names it).
  if (!(error instanceof RestoreRefused && message.includes(into))) {
    // A restore that did not verify is not left where it could be mistaken for data.
    await rm(into, { recursive: true, force: true }).catch(() => undefined);
  }
}
process.exit(code);
