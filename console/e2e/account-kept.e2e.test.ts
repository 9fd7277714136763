import { expect, test } from '@playwright/test';
import { openSeededConversation } from './steps';

/**
 * Sign out and in again in the same browser, and everything is still there (the
 * long-lived device identity brings the browser back to its account; a second browser is someone else).
 */
test('signing out and in again in the same browser keeps the account, its name, agents and conversations', async ({ page, browser }) => {
  await openSeededConversation(page);
  await page.goto('/settings');
  await page.getByLabel('First name').fill('Imogen');
  await page.getByLabel('Last name').fill('Hartley');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.locator('.pf-user-name')).toHaveText('Imogen Hartley');
  await page.goto('/agents');
  await expect(page.getByTestId('agent-card').first()).toBeVisible();
  const agentNames = await page.getByTestId('agent-card').locator('.pf-card-title').allTextContents();
  expect(agentNames.length).toBeGreaterThan(1);
  await page.goto('/conversations');
  await expect(page.getByTestId('conversation-card').first()).toBeVisible();
  const conversations = await page.getByTestId('conversation-card').count();
  expect(conversations).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await page.getByRole('button', { name: 'Get Started' }).first().click();
  await page.waitForURL(/\/(auth|dashboard)/);

  await page.goto('/agents');
  await expect(page.locator('.pf-user-name')).toHaveText('Imogen Hartley');
  await expect(page.getByTestId('agent-card').locator('.pf-card-title')).toHaveText(agentNames);
  await page.goto('/conversations');
  await expect(page.getByTestId('conversation-card')).toHaveCount(conversations);

  // Another browser (no device identity) is another account, with nothing of Imogen's.
  const other = await (await browser.newContext()).newPage();
  await other.goto('/api/login');
  await other.goto('/agents');
  await expect(other.getByText('No agents yet')).toBeVisible();
  await expect(other.locator('.pf-user-name')).not.toHaveText('Imogen Hartley');
});
