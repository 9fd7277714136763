import { expect, test } from '@playwright/test';

/**
 * Settings → API tokens in real Chromium against the single node: an admin creates a token, sees its secret
 * once, finds it listed (last use "Never", then the time a job used it), and revokes it, after which the
 * feed refuses it.
 */
test('Settings → API tokens: created with scopes, shown once, listed with last use, revoked at once', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'API tokens' }).click();
  await expect(page.getByText('No tokens yet.')).toBeVisible();
  await page.getByLabel('Token name').fill('Conversion funnel job');
  await page.getByText('Read analytics', { exact: true }).click();
  await expect(page.getByRole('checkbox', { name: 'Read analytics' })).toBeChecked();
  await page.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByTestId('new-api-token');
  await expect(shown).toContainText('Token "Conversion funnel job" created');
  await expect(shown).toContainText('it is shown only once');
  const secret = await page.getByLabel('New API token').inputValue();
  expect(secret).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
  const row = page.getByTestId('api-token-row').filter({ hasText: 'Conversion funnel job' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Read events');
  await expect(row).toContainText('Read analytics');
  await expect(row.locator('td').nth(3)).toHaveText('Never');

  // A job uses it (no cookie: the token alone).
  const feed = await fetch(`${new URL(page.url()).origin}/api/events?follow=false`, { headers: { authorization: `Bearer ${secret}` } });
  expect(feed.status).toBe(200);

  // Shown once: after a reload the secret is nowhere on the page, and the list shows its last use.
  await page.reload();
  await page.getByRole('tab', { name: 'API tokens' }).click();
  await expect(row.locator('td').nth(3)).not.toHaveText('Never');
  expect(await page.content()).not.toContain(secret);
  await expect(page.getByTestId('new-api-token')).toHaveCount(0);

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token revoked')).toBeVisible();
  await expect(page.getByTestId('api-token-row')).toHaveCount(0);
  const refused = await fetch(`${new URL(page.url()).origin}/api/events?follow=false`, { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status).toBe(401);
});
