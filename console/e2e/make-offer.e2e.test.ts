import { expect, test } from '@playwright/test';
import { openSeededConversation } from './steps';

test('Make offer in manual mode records exactly the figures entered, says so in the thread, and shows the side’s limits', async ({
  page,
}) => {
  const id = await openSeededConversation(page);
  await page.getByText('Manual Mode', { exact: true }).click();
  await expect(page.getByPlaceholder('Type your message as your agent…')).toBeVisible();

  await page.getByRole('button', { name: 'Make offer' }).click();
  const form = page.getByTestId('make-offer');
  await expect(form.getByTestId('make-offer-limits')).toContainText('Your limits');
  await form.getByLabel('Loan').fill('£315k');
  await form.getByLabel('Rate (%)').fill('4.35');
  await form.getByLabel('Term (years)').fill('25');
  await form.getByLabel('Fee').fill('£999');
  await form.getByRole('button', { name: 'Send offer' }).click();

  // What the thread says is what was recorded: the figures entered, exactly.
  const note = page.getByTestId('message').filter({ hasText: 'Offer made: £315,000 at 4.35% over 25 years, £999 fee' });
  await expect(note).toBeVisible();
  // The person's own offer is tagged as theirs, by name, in its note and on its card (never "Agent").
  await expect(note.getByTestId('author')).toHaveText(/^Person: Guest Operator/);
  const card = page.getByTestId('offer').filter({ hasText: '£315,000' }).filter({ hasText: '£999' }).first();
  await expect(card.getByTestId('author')).toHaveText(/^Person: Guest Operator/);
  const history = await page.request.get(`/api/conversations/${id}/history?limit=500`);
  const offers = ((await history.json()) as { events: { type: string; data: { terms: unknown } }[] }).events.filter(
    (e) => e.type === 'OfferMade',
  );
  expect(offers.at(-1)?.data.terms).toEqual({ loanAmount: 315_000, interestRate: 4.35, termYears: 25, arrangementFee: 999 });

  // Opened again, it is pre-filled with the last offer.
  await page.getByRole('button', { name: 'Make offer' }).click();
  await expect(page.getByTestId('make-offer').getByLabel('Loan')).toHaveValue('£315,000');
  await expect(page.getByTestId('make-offer').getByLabel('Rate (%)')).toHaveValue('4.35');
});
