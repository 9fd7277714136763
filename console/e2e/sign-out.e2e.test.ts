import { expect, test } from '@playwright/test';
import { openSeededConversation } from './steps';

/**
 * Signing out is a POST: a link to /api/logout, which any site can make a browser follow, only asks to confirm
 * (the page a person reads, with a button), and the button signs out.
 */
test('a link to /api/logout asks "Sign out?" and signs out only when the button is pressed', async ({ page }) => {
  await openSeededConversation(page);
  await page.goto('/api/logout');
  await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible();
  await expect(
    page.getByText('A link asked to sign you out of Property Finance. Nothing has changed yet. Sign out only if you meant to.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Stay signed in and go back to the console' })).toHaveAttribute('href', '/');
  expect((await page.request.get('/api/auth/user')).status()).toBe(200);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await expect(page.getByRole('button', { name: 'Get Started' }).first()).toBeVisible();
});
