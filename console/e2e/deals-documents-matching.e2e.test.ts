import { expect, test, type Page } from '@playwright/test';
import { startE2eServer, type E2eServer } from './server';
import {
  ltvPercent,
  pounds,
  ratePercent,
  requirementWords,
  type ConversationView,
  type DealView,
  type LeadView,
  type MatchRequestAnswer,
  type MatchRunView,
  type MatchView,
} from '@pf/events';

/**
 * Deals & Transactions, Documents and Matching & Leads with the automated agents running (their own server:
 * the shared one runs without them): the deal a finished negotiation opens, filters, the stage advanced to
 * completion, an upload with its preview and counted download, and the matcher's reasons.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });
});
test.afterAll(async () => {
  await server?.stop();
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A stat card's figure alone, compared exactly ("1" must not pass for "12"). */
const figure = (page: Page, key: string) => page.getByTestId(`figure-${key}`).locator('.pf-stat-value');

async function seededUserWithDeals(page: Page) {
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  // Seeding waits for the read models; with the agents already negotiating for earlier tests it takes longer.
  await expect(page.getByText('Demo data created successfully')).toBeVisible({ timeout: 30_000 });
  await page.goto(`${server.url}/deals`);
  // The first deal arrives live as the agents agree terms (views_changed), without a reload.
  await expect(page.getByTestId('deal-row').first()).toBeVisible({ timeout: 40_000 });
  // Then wait for every negotiation to finish, and load the screen once more: a deal opened while this page
  // was loading, before its socket was open, is neither in the first read nor pushed (a gap of the live layer).
  const finished = async () => {
    const conversations = (await (await page.request.get(`${server.url}/api/conversations`)).json()) as ConversationView[];
    const deals = (await (await page.request.get(`${server.url}/api/deals`)).json()) as DealView[];
    const agreed = conversations.filter((c) => c.outcome === 'agreed').length;
    return conversations.every((c) => c.status === 'completed') && deals.length === agreed;
  };
  await expect.poll(finished, { timeout: 40_000, intervals: [250] }).toBe(true);
  await page.reload();
}

test('deals from agreed negotiations: terms, a filter, editing and the stage advanced to completion', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/deals`);
  await expect(page.getByText('Deals appear when your agents agree terms')).toBeVisible();
  await seededUserWithDeals(page);

  const deals = (await (await page.request.get(`${server.url}/api/deals`)).json()) as DealView[];
  const conversations = (await (await page.request.get(`${server.url}/api/conversations`)).json()) as ConversationView[];
  const agreed = conversations.filter((c) => c.outcome === 'agreed');
  expect(deals.length).toBe(agreed.length);
  const deal = deals[0]!;
  const row = page
    .getByTestId('deal-row')
    .filter({ hasText: `${pounds(deal.loanAmount)} at ${ratePercent(deal.interestRate)} over ${deal.term} years` });
  await expect(row).toContainText(`LTV ${ltvPercent(deal.ltv)}`);
  await expect(row).toContainText(deal.borrowerName);
  await expect(row).toContainText(deal.lenderName);
  await expect(figure(page, 'activeDeals')).toHaveText(String(deals.filter((d) => d.status === 'active').length));

  // Edit: the address agents never agree on.
  await row.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Property address').fill('14 Harbour Row, Bristol BS1 5TT');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('deal-row').filter({ hasText: '14 Harbour Row, Bristol BS1 5TT' })).toHaveCount(1);

  // Search: case-insensitive substring of the address or borrower name; the status filter is exact.
  // A narrowing proves something only from more than one: the seed agrees several deals.
  expect(deals.length).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('deal-row')).toHaveCount(deals.length);
  const search = page.getByPlaceholder('Search deals by property address or borrower name...');
  await search.fill('HARBOUR');
  await expect(page.getByTestId('deal-row')).toHaveCount(1);
  await expect(page.getByTestId('deal-row')).toContainText('14 Harbour Row, Bristol BS1 5TT');
  const someone = deals.find((d) => d.id !== deal.id)!.borrowerName;
  const theirs = deals.filter((d) => d.borrowerName.toLowerCase().includes(someone.toLowerCase()));
  await search.fill(someone.toUpperCase());
  await expect(page.getByTestId('deal-row')).toHaveCount(theirs.length);
  for (const row of await page.getByTestId('deal-row').all()) await expect(row).toContainText(someone);
  await search.fill('HARBOUR');
  await page.getByLabel('Status filter').selectOption('completed');
  await expect(page.getByText('No deals match')).toBeVisible();
  await page.getByLabel('Status filter').selectOption('all');
  await search.fill('');
  await expect(page.getByTestId('deal-row')).toHaveCount(deals.length);

  // View: advance one stage at a time to completion.
  const edited = page.getByTestId('deal-row').filter({ hasText: '14 Harbour Row' });
  await edited.getByRole('button', { name: 'View' }).click();
  const detail = page.getByTestId('deal-detail');
  await expect(detail).toContainText(`conversation`);
  for (const stage of ['valuation', 'underwriting', 'completed']) {
    await detail.getByRole('button', { name: `Advance to ${stage}` }).click();
    await expect(detail.getByTestId('deal-stage')).toHaveText(stage.charAt(0).toUpperCase() + stage.slice(1));
  }
  await expect(detail.getByTestId('deal-status')).toHaveText('Completed');
  await expect(page.getByTestId('deal-timeline')).toContainText('Stage moved from underwriting to completed');
  await page.keyboard.press('Escape');
  await expect(edited.getByTestId('deal-status')).toHaveText('Completed');
  await expect(figure(page, 'completionRate')).toHaveText('100%');
  await expect(figure(page, 'activeDeals')).toHaveText(String(deals.length - 1));

  // The status filter narrows the whole list to a non-empty part: one completed, the rest still active.
  await page.getByLabel('Status filter').selectOption('completed');
  await expect(page.getByTestId('deal-row')).toHaveCount(1);
  await expect(page.getByTestId('deal-row')).toContainText('14 Harbour Row, Bristol BS1 5TT');
  await page.getByLabel('Status filter').selectOption('active');
  await expect(page.getByTestId('deal-row')).toHaveCount(deals.length - 1);
  await expect(page.getByTestId('deal-row').filter({ hasText: '14 Harbour Row' })).toHaveCount(0);
  await page.getByLabel('Status filter').selectOption('all');
  await expect(page.getByTestId('deal-row')).toHaveCount(deals.length);

  // Live: a change made elsewhere reaches the open screen.
  const other = deals.find((d) => d.id !== deal.id) ?? deal;
  await page.request.patch(`${server.url}/api/deals/${other.id}`, {
    data: { propertyAddress: '2 Quay Street, Exeter EX2 4AN' },
    headers: { origin: server.url },
  });
  await expect(page.getByTestId('deal-row').filter({ hasText: '2 Quay Street, Exeter EX2 4AN' })).toHaveCount(1);
});

test('documents: a fake refused by content, an upload previewed, downloaded (counted) and approved', async ({ page }) => {
  test.setTimeout(120_000);
  await seededUserWithDeals(page);
  const deal = ((await (await page.request.get(`${server.url}/api/deals`)).json()) as DealView[])[0]!;
  await page.request.patch(`${server.url}/api/deals/${deal.id}`, {
    data: { propertyAddress: '7 Mill Lane, Leeds LS1 4AB' },
    headers: { origin: server.url },
  });
  await page.goto(`${server.url}/documents`);
  // Each agreed deal's illustration, made by the platform (docs/behaviour/regulated-figures.md), is there already.
  const deals = ((await (await page.request.get(`${server.url}/api/deals`)).json()) as DealView[]).length;
  const illustrations = page.getByTestId('document-card').filter({ hasText: 'Mortgage illustration (ESIS)' });
  await expect(illustrations).toHaveCount(deals, { timeout: 20_000 });
  await expect(illustrations.first()).toContainText('Made by the platform');

  const upload = async (name: string, buffer: Buffer, mimeType: string, type = 'insurance') => {
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await page.getByLabel('Deal', { exact: true }).selectOption({ label: '7 Mill Lane, Leeds LS1 4AB' });
    await page.getByLabel('Type', { exact: true }).selectOption(type);
    await page.locator('#document-file').setInputFiles({ name, mimeType, buffer });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
  };
  await upload('policy.pdf', Buffer.from('this is not a pdf'), 'application/pdf');
  await expect(page.getByText(/only PDF, JPEG and PNG documents are accepted/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await upload('buildings-cover.png', PNG, 'image/png');
  const card = page.getByTestId('document-card').filter({ hasText: 'buildings-cover.png' });
  await expect(card).toContainText('7 Mill Lane, Leeds LS1 4AB');
  await expect(card.getByTestId('download-count')).toHaveText('0 downloads');
  await expect(figure(page, 'pendingReview')).toHaveText(String(deals + 1));

  await card.getByRole('button', { name: 'View' }).click();
  const preview = page.getByTestId('document-preview');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.getByRole('dialog', { name: 'buildings-cover.png' }).getByLabel('Close').click();

  const downloading = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('buildings-cover.png');
  const saved = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of saved) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(PNG)).toBe(true);
  await expect(card.getByTestId('download-count')).toHaveText('1 download');
  await expect(figure(page, 'downloads')).toHaveText('1');

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByTestId('document-status')).toHaveText('approved');
  await expect(figure(page, 'pendingReview')).toHaveText(String(deals));

  // A second document of another type, so the filters narrow the list to a part that is not empty.
  await upload('valuation-report.pdf', PDF, 'application/pdf', 'valuation');
  const cards = page.getByTestId('document-card');
  await expect(cards).toHaveCount(deals + 2);
  await expect(figure(page, 'totalDocuments')).toHaveText(String(deals + 2));
  await expect(figure(page, 'pendingReview')).toHaveText(String(deals + 1));
  await page.getByLabel('Type filter').selectOption('valuation');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('valuation-report.pdf');
  await page.getByLabel('Type filter').selectOption('insurance');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('buildings-cover.png');
  await page.getByLabel('Type filter').selectOption('all');
  await expect(cards).toHaveCount(deals + 2);
  const search = page.getByPlaceholder('Search documents by name or property address...');
  await search.fill('REPORT');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('valuation-report.pdf');
  await search.fill('mill lane');
  await expect(cards).toHaveCount(3); // the two uploads and the deal's illustration
  await search.fill('no such paper');
  await expect(page.getByText('No documents match')).toBeVisible();
});

test('matching: leads with their need, and each match with the matcher’s reasons per criterion', async ({ page }) => {
  test.setTimeout(120_000);
  await seededUserWithDeals(page);
  const leads = (await (await page.request.get(`${server.url}/api/leads`)).json()) as LeadView[];
  await page.goto(`${server.url}/matching`);
  await expect(page.getByTestId('lead-card')).toHaveCount(leads.length);
  const lender = leads.find((l) => l.type === 'lender')!;
  await expect(page.getByTestId('lead-card').filter({ hasText: lender.name })).toContainText(
    requirementWords(lender.type, lender.criteria),
  );
  await page.getByLabel('Type filter').selectOption('lender');
  await expect(page.getByTestId('lead-card')).toHaveCount(leads.filter((l) => l.type === 'lender').length);

  // Match runs the matcher for this lead now and shows its answer: how many new matches, or its note why none.
  const card = page.getByTestId('lead-card').filter({ hasText: lender.name });
  const matchesBefore = ((await (await page.request.get(`${server.url}/api/matches`)).json()) as MatchView[]).length;
  const runMatch = async () => {
    const asked = page.waitForResponse((r) => r.url().endsWith(`/api/leads/${lender.id}/match`) && r.request().method() === 'POST');
    await card.getByRole('button', { name: 'Match' }).click();
    const { requestId } = (await (await asked).json()) as MatchRequestAnswer;
    let answer = null as MatchRunView | null;
    await expect
      .poll(
        async () => {
          answer = (await (await page.request.get(`${server.url}/api/leads/${lender.id}/match/${requestId}`)).json()) as MatchRunView;
          return answer.status;
        },
        { timeout: 20_000 },
      )
      .toBe('answered');
    const run = answer!;
    const expected = run.newMatches! > 0 ? `Found ${run.newMatches} new ${run.newMatches === 1 ? 'match' : 'matches'}` : run.note!;
    await expect(card.getByTestId('match-run')).toHaveText(expected);
    return run;
  };
  const { newMatches } = await runMatch();

  // Read once Match's new matches have reached the read model.
  let matches: MatchView[] = [];
  await expect
    .poll(async () => {
      matches = (await (await page.request.get(`${server.url}/api/matches`)).json()) as MatchView[];
      return matches.length;
    })
    .toBe(matchesBefore + newMatches!);
  await page.getByRole('tab', { name: 'Active Matches' }).click();
  await expect(page.getByTestId('match-row')).toHaveCount(matches.length);
  const match = matches[0]!;
  const row = page
    .getByTestId('match-row')
    .filter({ hasText: `${match.borrower} ↔ ${match.lender}` })
    .first();
  const band = match.matchScore >= 90 ? 'green' : match.matchScore >= 80 ? 'blue' : match.matchScore >= 70 ? 'yellow' : 'red';
  await expect(row.getByTestId('match-score')).toHaveAttribute('data-band', band);
  for (const criterion of match.explanation) {
    await expect(row.getByTestId('match-explanation')).toContainText(`${criterion.criterion}: ${criterion.detail}`);
  }
  await expect(row.getByTestId('verdict').first()).toHaveText(match.explanation[0]!.verdict.replace(/^./, (c) => c.toUpperCase()));
  await row.getByRole('button', { name: 'Track' }).click();
  await expect(page).toHaveURL(new RegExp(`/conversations/${match.conversationId}$`));

  // With data in them, the three screens still fit a 390 px phone.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, testId] of [
    ['/deals', 'deal-row'],
    ['/matching', 'lead-card'],
  ] as const) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByTestId(testId).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} is wider than the phone`).toBeLessThanOrEqual(0);
  }
  await page.getByRole('tab', { name: 'Active Matches' }).click();
  await expect(page.getByTestId('match-row').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
