import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { holdSignInUntilToast, openSeededConversation } from './steps';
import type { HistoryExport, ConversationView, MessageView } from '@pf/events';

/** What Export writes (quick-actions.tsx): the conversation as the console has it, its messages and when. */
type ConversationExport = ConversationView & { messages: MessageView[]; exportedAt: string };

test('a visitor without a session is told so and signed in again', async ({ page }) => {
  const want = 'Unauthorized: You are logged out. Logging in again...';
  const { seen: toast } = await holdSignInUntilToast(page, want, 'pages to come');
  await page.goto('/dashboard');
  expect(await toast).toBe(want);
  // /api/login signs in and lands on the role picker.
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
});

test('Export downloads the conversation with its real messages', async ({ page }) => {
  const id = await openSeededConversation(page);
  await expect(page.getByTestId('message').first()).toBeVisible();
  const shown = await page.getByTestId('message').count();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  expect(download.suggestedFilename()).toBe(`conversation-${id}.json`);
  const body = JSON.parse(await readFile(await download.path(), 'utf8')) as ConversationExport;
  expect(body.id).toBe(id);
  expect(typeof body.title).toBe('string');
  expect(body.messages).toHaveLength(shown);
  expect(body.messages[0]).toMatchObject({ conversationId: id, fromAgentName: expect.any(String) });
  expect(Number.isNaN(Date.parse(body.exportedAt))).toBe(false);

  // The full history, for an auditor: every event from the event store with its hash, the messages among them.
  const [full] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export full history' }).click()]);
  expect(full.suggestedFilename()).toBe(`conversation-${id}-history.json`);
  const history = JSON.parse(await readFile(await full.path(), 'utf8')) as HistoryExport;
  const sent = history.events.filter((event) => event.type === 'MessageSent');
  expect(sent.length).toBeGreaterThanOrEqual(shown);
  expect(history.events.every((event) => /^[0-9a-f]{64}$/.test(event.hash ?? ''))).toBe(true);
});

test('Send Message asks for manual mode first when there is no input', async ({ page }) => {
  await openSeededConversation(page);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Switch to Manual Mode first to send messages')).toBeVisible();
});
