import { expect, test, type Locator } from '@playwright/test';
import type { CurrentUserView } from '@pf/events';
import { createPool, PostgresEventStore, readingTheContract } from '@pf/infra';
import { recordIntroducedDeal } from '@pf/single-node/testing/introduced-deal';

/**
 * The figures a person reads wherever terms are (docs/behaviour/offers.md, deals.md, history.md, analytics.md), in the
 * browser: a broker-introduced negotiation that agreed Furness Building Society's 5-year fix, recorded in the server's
 * store as the negotiator records one. Its published example (docs/behaviour/regulated-figures.md): £150,000 over 23
 * years at 4.59% fixed for 5 years, then 8.39%, the £999 fee added to the loan: 60 payments of £886.73, then 216 of
 * £1,170.05, APRC 6.9% (Furness's 6.9% also counts a £120 discharge fee, which does not move the first decimal).
 */
/** The value a person reads beside a label of the terms (console/src/components/terms-figures.tsx). */
const value = (scope: Locator, label: string) => scope.getByTestId(`terms-${label.toLowerCase().replaceAll(' ', '-')}`).locator('td');

test('an offer card, a deal and History show the product and its figures; Analytics shows the broker’s commission due, then earned', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/api/login');
  await page.goto('/dashboard');
  const me = (await (await page.request.get('/api/auth/user')).json()) as CurrentUserView;
  const databaseUrl = process.env.E2E_DATABASE_URL!;
  const pool = createPool(databaseUrl, 2);
  const base = 9_100_000 + Math.floor(Math.random() * 1_000) * 10;
  let agreed: Awaited<ReturnType<typeof recordIntroducedDeal>>;
  try {
    agreed = await recordIntroducedDeal(
      readingTheContract(new PostgresEventStore(pool, databaseUrl)),
      { userId: me.id, firmId: me.firmId ?? me.id },
      base,
    );
  } finally {
    await pool.end();
  }

  // The thread's offer card: the product, then each figure as the read side served it.
  await page.goto(`/conversations/${agreed.conversationId}`);
  const card = page.getByTestId('offer-card').first();
  await expect(card.getByTestId('offer-status')).toHaveText('Accepted');
  const terms = card.locator('table');
  await expect(value(terms, 'Product')).toHaveText('5 Year Fixed Rate (fixed rate)');
  await expect(value(terms, 'Initial period')).toHaveText('5 years');
  await expect(value(terms, 'Rate')).toHaveText('4.59% for 5 years, then 8.39%');
  await expect(value(terms, 'Loan')).toHaveText('£150,000');
  await expect(value(terms, 'Term')).toHaveText('23 years');
  await expect(value(terms, 'Fee')).toHaveText('£999, added to the loan');
  await expect(value(terms, 'Cashback')).toHaveText('None');
  await expect(value(terms, 'Monthly payment')).toHaveText('£886.73, then £1,170.05');
  await expect(value(terms, 'APRC')).toHaveText('6.9%');

  // The deal: on the list, and in View with the procuration fee the lender pays the broker.
  await page.goto('/deals');
  const deal = page.getByTestId('deal-row').filter({ hasText: agreed.borrowerName });
  await expect(deal.getByTestId('deal-product')).toHaveText(
    '5 Year Fixed Rate, 5 years initial period · £886.73 a month · APRC 6.9% · procuration fee £525',
  );
  await deal.getByRole('button', { name: 'View' }).click();
  const detail = page.getByTestId('deal-detail');
  await expect(value(detail, 'Product')).toHaveText('5 Year Fixed Rate (fixed rate)');
  await expect(value(detail, 'Initial period')).toHaveText('5 years');
  await expect(value(detail, 'Monthly payment')).toHaveText('£886.73, then £1,170.05');
  await expect(value(detail, 'APRC')).toHaveText('6.9%');
  await expect(detail.getByTestId('deal-procuration-fee')).toHaveText('Procuration fee£525, paid by the lender to the broker');

  // Analytics: agreed and in progress, the fee is due; lenders pay it on completion.
  const commission = async () => {
    await page.goto('/analytics');
    return page.getByTestId('commission');
  };
  const month = new Date().toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  let card2 = await commission();
  await expect(card2.getByTestId('commission-totals')).toHaveText('Earned £0 · Due £525');
  await expect(card2.getByTestId('commission-month').filter({ hasText: month })).toContainText(`${month}£0 (0 deals)£525 (1 deal)`);

  // Taken to completion in the deal's View, the fee is earned that month.
  await page.goto('/deals');
  await page.getByTestId('deal-row').filter({ hasText: agreed.borrowerName }).getByRole('button', { name: 'View' }).click();
  for (const stage of ['valuation', 'underwriting', 'completed']) {
    await page.getByRole('button', { name: `Advance to ${stage}` }).click();
    await expect(page.getByTestId('deal-detail').getByTestId('deal-stage')).toHaveText(stage.charAt(0).toUpperCase() + stage.slice(1));
  }
  card2 = await commission();
  await expect(card2.getByTestId('commission-totals')).toHaveText('Earned £525 · Due £0');
  await expect(card2.getByTestId('commission-month').filter({ hasText: month })).toContainText(`${month}£525 (1 deal)£0 (0 deals)`);

  // History: each side's latest offer as it stood, with its figures and, for the agent's move, why it was made.
  await page.goto(`/conversations/${agreed.conversationId}/history`);
  const lenders = page.getByTestId('offer-at').filter({ hasText: agreed.lenderName });
  await expect(lenders.locator('[data-label="Status"]')).toHaveText('Accepted');
  await expect(lenders.locator('[data-label="Monthly payment"]')).toHaveText('£886.73, then £1,170.05');
  await expect(lenders.locator('[data-label="APRC"]')).toHaveText('6.9%');
  await expect(lenders.getByTestId('offer-reason')).toHaveText(
    'Held its rate within the product’s discretion (rate 4.59%, true cost £54,203)',
  );
  await expect(
    page.getByTestId('history-event').filter({ hasText: 'offered the 5 Year Fixed Rate' }).getByTestId('event-figures'),
  ).toHaveText('£886.73 a month, APRC 6.9%.');
});
