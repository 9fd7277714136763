import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSingleNode, type RunningServer } from '@pf/single-node';
import { consoleDist } from './server';

/**
 * The System screen (docs/operations/observability.md) on a single node of its own with the embedded PostgreSQL and
 * its backups, as a fresh clone runs it: the copy to an object store is pointed at an address nobody answers, so the
 * backups carry a warning. An administrator (ADMIN_USER_IDS) reads the followers' lag, the rates that move when
 * commands arrive and the last base backup; anyone else has no System link and is refused in words.
 */

let dir: string;
let server: RunningServer | null = null;

const start = (extra: Record<string, string> = {}) =>
  startSingleNode({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dir, 'data'),
    AUTOMATION: 'off',
    CONSOLE_DIST: consoleDist,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'fatal',
    RATE_LIMIT_PER_MINUTE: '100000',
    // Nothing listens on port 9 here: every copy fails, which /readyz must say as a warning.
    BACKUP_S3_URL: 's3://pf-backups',
    BACKUP_S3_ENDPOINT: 'http://127.0.0.1:9',
    BACKUP_S3_ACCESS_KEY_ID: 'e2e',
    BACKUP_S3_SECRET_ACCESS_KEY: 'e2e-secret',
    ...extra,
  });

test.beforeAll(async () => {
  // Under the system temp dir, whose parents the embedded server's "postgres" user can traverse.
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-e2e-system-'));
  await chmod(dir, 0o755);
});
test.afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function signIn(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/api/login`);
  const user = await page.request.get(`${url}/api/auth/user`);
  return ((await user.json()) as { id: string }).id;
}

test('an administrator reads the followers, the rates as load arrives and the backups; anyone else is refused', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // Who the administrator is must be known when the node starts: signed in on a first start, named on the second.
  server = await start();
  const adminId = await signIn(page, server.url);
  await server.close();
  server = await start({ ADMIN_USER_IDS: adminId });
  const { url } = server;

  await page.goto(`${url}/dashboard`);
  await page.getByRole('menuitem', { name: 'System' }).click();
  await expect(page).toHaveURL(`${url}/system`);
  await expect(page.getByRole('heading', { level: 1, name: 'System' })).toBeVisible();
  await expect(page.getByTestId('system-readiness')).toContainText('Ready: the database answered in');

  const projector = page.getByTestId('follower-row').filter({ hasText: 'read-model projector' });
  await expect(projector.getByRole('cell').nth(1)).toHaveText('Running');
  await expect(projector.getByRole('cell').nth(2)).toHaveText('0');
  await expect(page.getByTestId('follower-row').filter({ hasText: 'realtime-gateway' })).toContainText('Running');

  // Load: commands through the API; the figures read from the metrics move. The metrics are the process's, and this
  // worker may have run other nodes before: the count is read before the load and must move by exactly 12.
  const commands = page.getByTestId('figure-commands');
  await expect(commands).toContainText(/[\d,]+ in all/);
  const inAll = async () => Number(/([\d,]+) in all/.exec((await commands.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
  const before = await inAll();
  for (let i = 0; i < 12; i++) {
    const created = await page.request.post(`${url}/api/agents`, {
      data: { name: `Load Agent ${i}`, type: 'borrower' },
      headers: { origin: url },
    });
    expect(created.status()).toBe(201);
  }
  await expect.poll(inAll, { timeout: 10_000 }).toBe(before + 12);
  await expect(page.getByTestId('figure-commands').locator('.pf-stat-value')).toHaveText(/^(?!0\.0\/s)\d+\.\d\/s$/);
  await expect(page.getByTestId('figure-requests')).toContainText(/p50 \d/);
  await expect(page.getByTestId('figure-appends').locator('.pf-stat-value')).toHaveText(/^(?!0\.0\/s)\d+\.\d\/s$/);
  // The projector took the events in (its rate moved) and is back at the head.
  await expect(projector.getByRole('cell').nth(4)).toHaveText(/^(?!0\.0\/s)\d+\.\d\/s$/);
  await expect(projector.getByRole('cell').nth(2)).toHaveText('0');

  // The backups, from /readyz: the base backup the node took at start, the WAL, the failing copy as a warning.
  const backup = page.getByTestId('system-backup');
  await expect(backup.getByTestId('backup-base')).toHaveText(/^Last base backup: .+ \(\d+(\.\d)? (kB|MB)\)$/, { timeout: 60_000 });
  await expect(backup.getByTestId('backup-warning').filter({ hasText: 'copying the backups to s3://pf-backups is failing' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(backup.getByTestId('backup-object-store')).toContainText('s3://pf-backups, not copied yet; failing:');

  // Someone else: no System link, and the screen refuses in words.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, url);
  await otherPage.goto(`${url}/dashboard`);
  await expect(otherPage.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await expect(otherPage.getByRole('menuitem', { name: 'System' })).toHaveCount(0);
  await otherPage.goto(`${url}/system`);
  await expect(otherPage.getByText("Only the installation's administrators (ADMIN_USER_IDS) may see the system's health")).toBeVisible();
  const refused = await otherPage.request.get(`${url}/api/admin/system`);
  expect(refused.status()).toBe(403);
  await other.close();
});
