import { expect, test } from '@playwright/test';
import { startE2eServer, type E2eServer } from './server';

// The matcher answers Match, so this file has its own server with the automation running.
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });
});
test.afterAll(async () => {
  await server?.stop();
});

/** docs/behaviour/products.md: a lender's range through the agent form, and a borrower's sourcing on Matching. */
test('a borrower’s Match sources every product with its verdict, reasons and figures, cheapest first', async ({ page }) => {
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto(`${server.url}/matching`);
  const card = page.getByTestId('lead-card').filter({ hasText: 'Amelia Hart' });
  await card.getByRole('button', { name: 'Match' }).click();
  // The matcher answers on the lead (its sourcing with it), asynchronously.
  await expect(card.getByTestId('match-run')).not.toContainText('Matching', { timeout: 30_000 });
  await card.getByRole('button', { name: 'View' }).click();
  const dialog = page.getByRole('dialog');
  // £236,000 on £295,000 over 30 years, the fee paid up front (NatWest's 2 June 2023 two-year fix, 80% band, as Northgate's).
  await expect(dialog.getByTestId('sourcing-summary')).toHaveText(
    '9 products sourced; negotiating with 2 lenders, the cheapest over the initial period.',
  );
  const lines = dialog.getByTestId('sourcing-line');
  await expect(lines.nth(0)).toHaveText(
    'Northgate Building SocietyShortlist2 Year Fixed (no fee) (fixed, 2 years)Pass5.44%£0£1,331.11£31,946.647.4%Meets every criterion',
  );
  await expect(lines.nth(1)).toHaveText(
    'Northgate Building SocietyShortlist2 Year Fixed (fixed, 2 years)Pass5.16%£995£1,290.08£31,956.927.3%Meets every criterion',
  );
  await expect(lines.filter({ hasText: 'Capital & Counties Bank' }).first()).toContainText(
    'Fail–––––Region: The lender does not lend in Leeds',
  );
});

test('the agent form records a lender’s product range in its own boxes, and says where a box is wrong', async ({ page }) => {
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/agents`);
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Furness-like Mutual');
  await dialog.getByLabel('Type', { exact: true }).selectOption('lender');
  await dialog.getByText('Record the product range').click();
  await dialog.getByLabel('Product name').fill('5 Year Fixed');
  await dialog.getByLabel('Initial period').fill('5');
  await dialog.getByLabel('Band 1: up to LTV').fill('85');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(dialog.getByTestId('profile-error')).toHaveText('products 1, rates 1, ratePercent: ratePercent must be a number (percent)');

  await dialog.getByLabel('Band 1: rate').fill('4.59');
  await dialog.getByLabel('Reversion rate').fill('8.39');
  await dialog.getByLabel('Product fee').fill('999');
  for (const [year, erc] of ['5', '5', '4', '3', '2'].entries()) await dialog.getByLabel(`Year ${year + 1}`, { exact: true }).fill(erc);
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Success: Agent created successfully')).toBeVisible();

  await page.getByTestId('agent-card').filter({ hasText: 'Furness-like Mutual' }).getByRole('button', { name: 'Edit' }).click();
  await expect(dialog.getByLabel('Band 1: rate')).toHaveValue('4.59');
  await expect(dialog.getByLabel('Year 3', { exact: true })).toHaveValue('4');
});
