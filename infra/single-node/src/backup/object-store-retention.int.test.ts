import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BackupReplica, backupLayout } from '@pf/infra/backup';
import { startS3Server } from '../testing/s3-server';

/**
 * The object store's own retention (docs/operations/backups.md "Object store"): a base backup past the retention goes
 * from the store with the WAL only it needed, the newest stays, and nothing goes because the folder lost it.
 * The folders here are laid out by the test (a record and a file per backup), not taken from a server.
 */
const BUCKET = 'pf-backups';
let dir: string;
let store: Awaited<ReturnType<typeof startS3Server>> | undefined;
afterAll(async () => {
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function lay(folder: string, id: string, finishedAt: string, startWal: string) {
  const base = path.join(folder, 'base', id);
  await mkdir(path.join(base, 'pgdata', 'pg_notify'), { recursive: true });
  await writeFile(path.join(base, 'pgdata', 'PG_VERSION'), '18\n');
  const record = { id, startedAt: finishedAt, finishedAt, startWal, startLsn: '0/0', stopLsn: '0/0', bytes: 3, seconds: 1 };
  await writeFile(path.join(base, 'backup.json'), JSON.stringify(record));
}

it('keeps its own retention: an expired base backup and the WAL only it needed go, whatever the folder lost', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-object-store-retention-'));
  store = await startS3Server(path.join(dir, 's3'), BUCKET);
  const folder = path.join(dir, 'backups');
  await lay(folder, '20261101T000000000Z', '2026-11-01T00:00:00.000Z', '000000010000000000000002');
  await lay(folder, '20261127T000000000Z', '2026-11-27T00:00:00.000Z', '000000010000000000000009');
  await mkdir(path.join(folder, 'wal'), { recursive: true });
  for (const segment of ['000000010000000000000002', '000000010000000000000008', '000000010000000000000009', '00000001000000000000000A'])
    await writeFile(path.join(folder, 'wal', `${segment}.gz`), segment);
  const replica = new BackupReplica({
    url: `s3://${BUCKET}/firm-a`,
    bucket: BUCKET,
    prefix: 'firm-a/',
    endpoint: store.endpoint,
    region: 'eu-west-2',
    intervalMs: 1000,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    expect((await replica.push(backupLayout(folder))).files).toBe(8);
    // Sent once: a second turn finds nothing new.
    expect((await replica.push(backupLayout(folder))).files).toBe(0);
    // The folder is lost; the store's copy is not touched for it.
    await rm(folder, { recursive: true, force: true });
    expect((await replica.push(backupLayout(folder))).files).toBe(0);

    const pruned = await replica.prune(7 * 86_400_000, new Date('2026-11-28T00:00:00Z'));
    expect(pruned).toEqual({ backups: ['20261101T000000000Z'], walSegments: 2 });

    // What is left comes back whole, the empty folder included.
    const fetched = await replica.pull(backupLayout(folder));
    expect(fetched.files).toBe(5);
    expect((await readdir(path.join(folder, 'base'))).sort()).toEqual(['20261127T000000000Z']);
    expect((await readdir(path.join(folder, 'wal'))).sort()).toEqual(['000000010000000000000009.gz', '00000001000000000000000A.gz']);
    expect(await readdir(path.join(folder, 'base', '20261127T000000000Z', 'pgdata', 'pg_notify'))).toEqual([]);
  } finally {
    replica.close();
  }
}, 120_000);
