import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startPaymentProviderStandIn, type PaymentProviderStandIn } from '@pf/single-node/testing/payment-provider-stand-in';
import { startE2eServer, type E2eServer } from './server';

/**
 * Settings → Billing in real Chromium (docs/behaviour/billing.md). The payment provider is a stand-in for its HTTP
 * API only: a real HTTP server started by this test (payment-provider-stand-in.ts), whose hosted card page the
 * console frames as it would the real provider's. The platform runs as it does in production, with the invoicing
 * run every second so the test need not wait an hour for it.
 */
let provider: PaymentProviderStandIn;
let server: E2eServer;
test.beforeAll(async () => {
  provider = await startPaymentProviderStandIn();
  server = await startE2eServer({
    PAYMENT_PROVIDER_URL: provider.url,
    PAYMENT_PROVIDER_SECRET_KEY: provider.secretKey,
    PAYMENT_PROVIDER_PUBLISHABLE_KEY: provider.publishableKey,
    INVOICE_RUN_SECONDS: '1',
  });
});
test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

const CARD = '4242424242424242';

test('Billing: a card added through the provider’s hosted fields and edited, shown by brand and last four, and the billing history in £ with dates; no card number reaches the platform', async ({
  page,
}) => {
  const sentToPlatform: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(server.url)) sentToPlatform.push(`${request.url()} ${request.postData() ?? ''}`);
  });
  await page.goto(`${server.url}/api/login`);
  const db = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });

  await page.goto(`${server.url}/settings`);
  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByTestId('current-plan')).toContainText('Professional£49.00 per month');
  await expect(page.getByTestId('no-provider')).toHaveCount(0);

  // Billing history, read from the page: the firm began today, so its first month's invoice is dated today, £49.00.
  // (Several months, each dated the 1st, are held by billing.int.test.ts.)
  const today = new Date();
  today.setUTCHours(12);
  const rows = page.getByTestId('invoice');
  await expect(async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Billing' }).click();
    await expect(rows).toHaveCount(1, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  const table = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const month = today.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  expect(table).toEqual([
    [
      today.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }),
      expect.stringMatching(/^INV-\d{6}-[0-9A-F]{4}$/),
      `Professional plan, ${month}`,
      '£49.00',
      'Issued',
    ],
  ]);
  await expect(page.getByRole('columnheader')).toHaveText(['Date', 'Invoice', 'Description', 'Amount', 'Status']);

  // Add Payment Method: the card is typed into the provider's page, in its own frame.
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  const fields = page.frameLocator('iframe[title="Card details (payment provider)"]');
  await fields.getByLabel('Card number').fill('4242 4242 4242 4242');
  await fields.getByLabel('Expiry month').fill('8');
  await fields.getByLabel('Expiry year').fill('2031');
  await fields.getByLabel('CVC').fill('123');
  await fields.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText("Payment method added: Visa ending 4242 can now pay the firm's invoices")).toBeVisible();
  const method = page.getByTestId('payment-method');
  await expect(method).toHaveText(/^Visa ending 4242, expires 08\/2031Default/);

  // Edit: a new expiry, changed at the provider and shown.
  await page.getByRole('button', { name: 'Edit Visa ending 4242' }).click();
  await page.getByLabel('Expiry month').fill('13');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Expiry month must be from 1 to 12')).toBeVisible();
  await page.getByLabel('Expiry month').fill('11');
  await page.getByLabel('Expiry year').fill('2032');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(method).toHaveText(/^Visa ending 4242, expires 11\/2032Default/);

  // The card went to the provider, and no request to the platform carried it, nor does any row of its database.
  expect(provider.cardNumbersReceived).toEqual([CARD]);
  expect(sentToPlatform.length).toBeGreaterThan(5);
  for (const sent of sentToPlatform) expect(sent.replace(/\D/g, '')).not.toContain(CARD);
  const tables = await db.query<{ name: string }>(
    "select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'",
  );
  for (const { name } of tables.rows) {
    const found = await db.query(`select 1 from ${name} t where regexp_replace(t::text, '\\D', '', 'g') like '%' || $1 || '%' limit 1`, [
      CARD,
    ]);
    expect(found.rowCount, name).toBe(0);
  }
  await db.end();
});

test('Billing without a payment provider says so plainly and offers no Add Payment Method', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByTestId('no-provider')).toHaveText(
    "No payment provider is configured for this installation, so no payment method can be added. The firm's invoices are still issued each month from its plan and listed below.",
  );
  await expect(page.getByRole('button', { name: 'Add Payment Method' })).toHaveCount(0);
});
