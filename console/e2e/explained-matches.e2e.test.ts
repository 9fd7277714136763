import { expect, test } from '@playwright/test';

test('the conversation header explains, criterion by criterion, why the agents were matched', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto('/conversations');
  await page.getByTestId('conversation-card').filter({ hasText: 'Amelia Hart ↔ Northgate Building Society' }).click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);

  const header = page.getByTestId('match-explanation');
  await expect(header.getByText('Why they were matched · score 99')).toBeVisible();
  const row = (criterion: string) => header.locator('li').filter({ hasText: `${criterion}:` });
  await expect(row('Loan to value')).toHaveText("Pass Loan to value: LTV 80.0% (£236,000 on £295,000) is within this lender's 90.0%");
  await expect(row('Income multiple')).toHaveText('Pass Income multiple: £236,000 is 4.1 times income of £58,000, within 4.5');
  await expect(row('Region')).toHaveText("Pass Region: Leeds is within this lender's regions");
  await expect(row('Pricing')).toHaveText('Pass Pricing: LTV band 75–80%: rates from 4.20%');

  // The buy-to-let conversation is judged on rental cover instead of income.
  await page.goto('/conversations');
  await page.getByTestId('conversation-card').filter({ hasText: 'Oliver Bennett ↔ Harbour Street Bank' }).click();
  await expect(page.getByTestId('match-explanation').locator('li').filter({ hasText: 'Rental cover:' })).toHaveText(
    'Pass Rental cover: Rent of £2,600 a month covers 144.7% of interest (needs 125% at 5.50%)',
  );
});

test('an agent card shows back the criteria the agents could not read as "not understood"', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Glasgow Home Buyer');
  await dialog.getByLabel('Type', { exact: true }).selectOption('borrower');
  await dialog.getByLabel('Loan amount').fill('as much as possible');
  await dialog.getByLabel('Region').fill('Glasgow');
  await dialog.getByLabel('Maximum LTV').fill('80%');
  await dialog.getByLabel('Annual income').fill('£65k');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('agent-card').filter({ hasText: 'Glasgow Home Buyer' });
  const row = (label: string) => card.locator('tr').filter({ hasText: label });
  await expect(row('Loan amount')).toHaveText('Loan amountas much as possibleNot understood');
  await expect(row('Region')).toHaveText('RegionGlasgowNot understood');
  await expect(row('Maximum LTV')).toHaveText('Maximum LTV80.0%');
  await expect(row('Annual income')).toHaveText('Annual income£65,000');
  await expect(card.getByText('Not understood')).toHaveCount(2);
});
