import { expect, type Page } from '@playwright/test';

/** A new user with demo data, on the first conversation's page. Returns the conversation's id. */
export async function openSeededConversation(page: Page): Promise<number> {
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto('/conversations');
  await page.getByTestId('conversation-card').first().click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}
