import { expect, test, type Page } from '@playwright/test';
import type { AgentView, DealCreatedAnswer } from '@pf/events';

/**
 * A book of more than one page on Deals, Documents and Leads (docs/behaviour/console-layout.md): each screen
 * reads one page of 30 from the server, says where it stands, and Next shows the 31st row; a search is answered
 * by the server; Upload's deal picker offers a page of deals and finds the rest by search.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const BOOK = 31;

async function agent(page: Page, name: string, type: 'borrower' | 'lender'): Promise<number> {
  const answer = await page.request.post('/api/agents', { data: { name, type, criteria: { propertyValueMax: '£400k' } } });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as AgentView).id;
}

test('deals, documents and leads a page at a time: the 31st on the next page, searched on the server', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/api/login');
  const lender = await agent(page, 'Page Bank', 'lender');
  const borrowers: number[] = [];
  for (let n = 1; n <= BOOK; n++) borrowers.push(await agent(page, `Borrower ${String(n).padStart(2, '0')}`, 'borrower'));
  const dealIds: string[] = [];
  for (let n = 1; n <= BOOK; n++) {
    const answer = await page.request.post('/api/deals', {
      data: {
        borrowerAgentId: borrowers[n - 1],
        lenderAgentId: lender,
        propertyAddress: `${n} Page Street, Leeds`,
        propertyValue: 300_000,
        loanAmount: 200_000 + n * 1000,
        interestRate: 4.25,
        termYears: 25,
        arrangementFee: 999,
      },
    });
    expect(answer.status()).toBe(201);
    dealIds.push(((await answer.json()) as DealCreatedAnswer).id);
  }
  for (let n = 1; n <= BOOK; n++) {
    const answer = await page.request.post('/api/documents', {
      multipart: {
        dealId: dealIds[n - 1]!,
        type: 'valuation',
        name: `Survey ${n}.png`,
        file: { name: `survey-${n}.png`, mimeType: 'image/png', buffer: PNG },
      },
    });
    expect(answer.status()).toBe(201);
  }

  const range = page.getByTestId('page-range');
  const next = page.getByRole('button', { name: 'Next' });
  const previous = page.getByRole('button', { name: 'Previous' });

  // Deals: newest first, so the first deal opened is the 31st, alone on the second page.
  await page.goto('/deals');
  await expect(range).toHaveText('1–30 of 31 deals');
  await expect(page.getByTestId('deal-row')).toHaveCount(30);
  await expect(page.getByTestId('deal-row').first()).toContainText('31 Page Street, Leeds');
  await expect(page.getByTestId('deal-row').first()).toContainText('£231,000 at 4.25% over 25 years');
  await next.click();
  await expect(range).toHaveText('31–31 of 31 deals');
  await expect(page.getByTestId('deal-row')).toHaveCount(1);
  await expect(page.getByTestId('deal-row')).toContainText('1 Page Street, Leeds');
  await expect(page.getByTestId('deal-row')).toContainText('Borrower 01');
  await expect(next).toBeDisabled();
  await previous.click();
  await expect(range).toHaveText('1–30 of 31 deals');
  // A search starts again at the first page, answered by the server.
  await page.getByPlaceholder('Search deals by property address or borrower name...').fill('borrower 1');
  await expect(range).toHaveText('1–10 of 10 deals');
  await expect(page.getByTestId('deal-row').first()).toContainText('19 Page Street, Leeds');

  // Documents: the same, and Upload's deal picker holds a page of deals and finds the 31st by search.
  await page.goto('/documents');
  await expect(range).toHaveText('1–30 of 31 documents');
  await expect(page.getByTestId('document-card').first()).toContainText('Survey 31.png');
  await next.click();
  await expect(range).toHaveText('31–31 of 31 documents');
  await expect(page.getByTestId('document-card')).toHaveCount(1);
  await expect(page.getByTestId('document-card')).toContainText('Survey 1.png');
  await page.getByRole('button', { name: 'Upload Document' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('The first 30 of 31 deals: search to narrow')).toBeVisible();
  await expect(dialog.locator('#document-deal option', { hasText: /^1 Page Street, Leeds$/ })).toHaveCount(0);
  await dialog.getByRole('searchbox', { name: 'Search deals' }).fill('1 Page Street');
  await dialog.getByLabel('Deal', { exact: true }).selectOption({ label: '1 Page Street, Leeds' });
  await expect(dialog.locator('#document-deal option:checked')).toHaveText('1 Page Street, Leeds');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Leads: 32 agents, newest first; the lender, made first, closes the second page.
  await page.goto('/matching');
  await expect(range).toHaveText('1–30 of 32 leads');
  await expect(page.getByTestId('lead-card').first()).toContainText('Borrower 31');
  await next.click();
  await expect(range).toHaveText('31–32 of 32 leads');
  await expect(page.getByTestId('lead-card')).toHaveCount(2);
  await expect(page.getByTestId('lead-card').nth(0)).toContainText('Borrower 01');
  await expect(page.getByTestId('lead-card').nth(1)).toContainText('Page Bank');
  await expect(page.getByTestId('lead-card').nth(1)).toContainText('Lends on: Property up to £400,000');
  // Searched by requirement and filtered by type on the server.
  await page.getByPlaceholder('Search leads by name or requirements...').fill('lends on: property UP TO £400k');
  await expect(range).toHaveText('1–1 of 1 leads');
  await page.getByPlaceholder('Search leads by name or requirements...').fill('');
  await page.getByLabel('Type filter').selectOption('borrower');
  await expect(range).toHaveText('1–30 of 31 leads');
});
