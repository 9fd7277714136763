import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, expect, it } from 'vitest';
import type { AgentView } from '@pf/events';
import { archiveNow } from '@pf/infra/backup';
import { startSingleNode } from '../server';
import { ApiClient } from '../testing/api-client';
import { startS3Server } from '../testing/s3-server';

/**
 * The object store copy (docs/operations/backups.md "Object store"): the node copies its base backup and archived WAL
 * to an S3-compatible store; the machine's data directory and its backup folder are then both lost, and
 * `npm run restore -- --to latest` fetches them back from the store, verifies them and the node serves the data again.
 * The store is s3rver, an S3-compatible server run here on a free port (no cloud store is reachable from this
 * machine); the product talks to it with the AWS SDK as it would to any S3-compatible store.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const BUCKET = 'pf-backups';
let dir: string;
let store: Awaited<ReturnType<typeof startS3Server>> | undefined;
afterAll(async () => {
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('restores from the object store after the data directory and the backup folder are both lost', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-object-store-'));
  await chmod(dir, 0o755);
  store = await startS3Server(path.join(dir, 's3'), BUCKET);
  const s3 = {
    BACKUP_S3_URL: `s3://${BUCKET}/firm-a`,
    BACKUP_S3_ENDPOINT: store.endpoint,
    BACKUP_S3_INTERVAL_SECONDS: '1',
    // s3rver's own credentials.
    BACKUP_S3_ACCESS_KEY_ID: 'S3RVER',
    BACKUP_S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  const client = new S3Client({
    region: 'eu-west-2',
    endpoint: s3.BACKUP_S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const storedNames = async () => {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'firm-a/', ContinuationToken: token }));
      names.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return names;
  };

  const dataDir = path.join(dir, 'data');
  const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTOMATION: 'off', DATA_DIR: dataDir, DATABASE_URL: undefined, ...s3 };
  let server = await startSingleNode(env);
  const signedIn = await ApiClient.signIn(server.url);
  try {
    const created = await signedIn.post<AgentView>('/api/agents', { name: 'Pennine Mutual', type: 'lender' });
    expect(created.status).toBe(201);
    // The first base backup, then the WAL with the agent in it, each copied to the store within a turn or two.
    await expect
      .poll(async () => (await storedNames()).some((name) => /^firm-a\/base\/[^/]+\/backup\.json$/.test(name)), { timeout: 90_000 })
      .toBe(true);
    await archiveNow(server.databaseUrl);
    const readyz = async () =>
      (
        (await (await fetch(`${server.url}/readyz`)).json()) as {
          backup: { lastArchivedWal: string | null; objectStore: { url: string } | null; warnings: string[] };
        }
      ).backup;
    const archived = (await readyz()).lastArchivedWal;
    expect(archived).toMatch(/^[0-9A-F]{24}$/);
    await expect.poll(async () => (await storedNames()).includes(`firm-a/wal/${archived}.gz`), { timeout: 30_000 }).toBe(true);
    const status = await readyz();
    expect(status.objectStore?.url).toBe(`s3://${BUCKET}/firm-a`);
    expect(status.warnings).toEqual([]);
  } finally {
    await server.close();
  }

  // The disk is lost: the data directory and the backup folder beside it.
  await rm(dataDir, { recursive: true, force: true });
  await rm(path.join(dir, 'data-backups'), { recursive: true, force: true });

  const restore = spawnSync(process.execPath, ['--import', 'tsx', 'infra/single-node/src/backup/restore-main.ts', '--to', 'latest'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', EVENTSTORE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...s3 },
    encoding: 'utf8',
    timeout: 180_000,
  });
  expect(restore.stderr).toBe('');
  expect(restore.status).toBe(0);
  expect(restore.stdout).toMatch(new RegExp(`Fetched from s3://${BUCKET}/firm-a into .*: [1-9]\\d* files`));
  expect(restore.stdout).toContain('every chain is intact');

  server = await startSingleNode(env);
  try {
    const again = new ApiClient(server.url);
    again.cookie = signedIn.cookie;
    await expect
      .poll(async () => (await again.get<AgentView[]>('/api/agents')).body.map((agent) => agent.name))
      .toEqual(['Pennine Mutual']);
  } finally {
    await server.close();
    client.destroy();
  }
}, 300_000);
