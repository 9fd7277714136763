import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';

test('a visitor without a session is told so and signed in again', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page.getByText('Unauthorized: You are logged out. Logging in again...')).toBeVisible();
  // /api/login signs in and lands on the role picker.
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Welcome to the product' })).toBeVisible();
});

test('Export downloads the conversation with its real messages', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto('/conversations');
  await page.getByTestId('conversation-card').first().click();
  await expect(page.getByTestId('message').first()).toBeVisible();
  const id = Number(new URL(page.url()).pathname.split('/').pop());
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
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto('/conversations');
  await page.getByTestId('conversation-card').first().click();
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Switch to Manual Mode first to send messages')).toBeVisible();
});
