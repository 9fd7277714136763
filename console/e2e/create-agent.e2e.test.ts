import { expect, test } from '@playwright/test';

test('the create-agent dialog shows both rules for an empty form and creates a good agent at once', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/agents');
  await expect(page.getByText('No agents yet')).toBeVisible();

  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByPlaceholder('£100,000')).toBeVisible();
  await expect(dialog.getByPlaceholder('30 years')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(dialog.getByText('Agent name is required')).toBeVisible();
  await expect(dialog.getByText('Please select an agent type')).toBeVisible();

  // Whitespace is not a name.
  await dialog.getByLabel('Name').fill('   ');
  await dialog.getByLabel('Type', { exact: true }).selectOption('lender');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(dialog.getByText('Agent name is required')).toBeVisible();
  await expect(dialog.getByText('Please select an agent type')).toBeHidden();

  await dialog.getByLabel('Name').fill('Harbour Lending Desk');
  await dialog.getByLabel('Description').fill('Buy-to-let lending in the South West');
  await dialog.getByPlaceholder('2.5%').fill('3.9%');
  await dialog.getByPlaceholder('5.0%').fill('   ');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Success: Agent created successfully')).toBeVisible();

  const card = page.getByTestId('agent-card').filter({ hasText: 'Harbour Lending Desk' });
  await expect(card).toBeVisible();
  await expect(card.getByText('Lender', { exact: true })).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText('3.90%')).toBeVisible();
  await expect(card.getByText('Interest rate (max)')).toBeHidden();

  // Pause, then delete after the confirmation.
  await card.getByRole('button', { name: 'Pause' }).click();
  await expect(card.getByText('Paused', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Delete agent' }).click();
  await expect(page.getByText('Are you sure you want to delete this agent?')).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(card).toBeHidden();
  await expect(page.getByText('No agents yet')).toBeVisible();
});
