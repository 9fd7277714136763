import { expect, test } from '@playwright/test';
import type pg from 'pg';
import { generateEvents } from '../../bench/lib/generate';
import { createPool } from '@pf/infra';
import { PostgresEventStore, readingTheContract, type EventStore } from '@pf/infra';
import { liveRebuild, type RebuildProgress } from '@pf/query-service/live-rebuild';
import { startE2eServer, type E2eServer } from './server';

/**
 * A live rebuild (docs/decisions/live-rebuild.md) on a single node of its own, started from another process's
 * connection as `npm run rebuild` would be, while a person watches a conversation they have taken over: every
 * message they send is answered and arrives on the page, before, during and after the switch.
 */

let server: E2eServer;
let pool: pg.Pool;
let store: EventStore;
test.beforeAll(async () => {
  server = await startE2eServer();
  pool = createPool(server.databaseUrl);
  store = readingTheContract(new PostgresEventStore(pool, server.databaseUrl));
  // Other firms' history (agents, negotiations, deals), so the rebuild takes a while.
  await generateEvents(pool, store, 15_000);
});
test.afterAll(async () => {
  await store?.close();
  await pool?.end();
  await server?.stop();
});

test('a conversation keeps receiving messages, and commands keep answering, while the read models are rebuilt', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto(`${server.url}/conversations`);
  await page.getByTestId('conversation-card').first().click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByText('Manual Mode', { exact: true }).click();
  await expect(page.getByPlaceholder('Type your message as your agent…')).toBeVisible();

  let phase: RebuildProgress['phase'] = 'preparing';
  let finished = false;
  const rebuild = liveRebuild(pool, store, { batchSize: 250, lanes: 3, onProgress: (progress) => (phase = progress.phase) }).finally(
    () => (finished = true),
  );

  const sent: RebuildProgress['phase'][] = [];
  for (let n = 1; !finished || sent.filter((p) => p === 'done').length < 3; n++) {
    const content = `Message ${n} sent while the read models are rebuilt`;
    const during = finished ? 'done' : phase;
    const answer = await page.request.post(`${server.url}/api/conversations/${id}/messages`, {
      data: { content },
      headers: { origin: server.url },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    // Pushed to the page over its socket: the text a person reads, in the conversation they watch.
    await expect(page.getByTestId('message').filter({ hasText: content })).toBeVisible();
    sent.push(during);
  }
  const result = await rebuild;
  expect(result.applied).toBeGreaterThan(15_000);
  // Messages went out and arrived while the new tables were being built, and after the switch.
  expect(sent.filter((p) => p === 'building').length).toBeGreaterThan(0);
  expect(sent.filter((p) => p === 'done').length).toBeGreaterThanOrEqual(3);
  // After the switch, a reload reads the rebuilt tables: every message is there, once, in order.
  await page.reload();
  await expect(page.getByTestId('message').filter({ hasText: `Message ${sent.length} sent while` })).toBeVisible();
  const texts = await page.getByTestId('message').filter({ hasText: 'sent while the read models are rebuilt' }).allTextContents();
  expect(texts.map((text) => Number(/Message (\d+) sent/.exec(text)![1]))).toEqual(sent.map((_, index) => index + 1));
});
