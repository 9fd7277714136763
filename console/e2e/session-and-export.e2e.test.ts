import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { openSeededConversation } from './steps';

test('a visitor without a session is told so and signed in again', async ({ page }) => {
  // The sign-in navigation is held until the toast has been seen: the toast only lives for the 500 ms
  // before the redirect, which a loaded machine could otherwise let pass before the check.
  let release: () => void = () => undefined;
  const toastSeen = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/login', async (route) => {
    await toastSeen;
    await route.continue();
  });
  await page.goto('/dashboard');
  await expect(page.getByText('Unauthorized: You are logged out. Logging in again...')).toBeVisible();
  release();
  // /api/login signs in and lands on the role picker.
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Welcome to the product' })).toBeVisible();
});

test('Export downloads the conversation with its real messages', async ({ page }) => {
  const id = await openSeededConversation(page);
  await expect(page.getByTestId('message').first()).toBeVisible();
  const shown = await page.getByTestId('message').count();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
  expect(download.suggestedFilename()).toBe(`conversation-${id}.json`);
  const body = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(body.id).toBe(id);
  expect(typeof body.title).toBe('string');
  expect(body.messages).toHaveLength(shown);
  expect(body.messages[0]).toMatchObject({ conversationId: id, fromAgentName: expect.any(String) });
  expect(Number.isNaN(Date.parse(body.exportedAt))).toBe(false);
});

test('Send Message asks for manual mode first when there is no input', async ({ page }) => {
  await openSeededConversation(page);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Switch to Manual Mode first to send messages')).toBeVisible();
});
