import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_AGENTS } from '../../command-service/src/seed-demo/demo-data';
import { startE2eServer, type E2eServer } from './server';
import { BORROWER_CRITERIA, LENDER_CRITERIA } from '@pf/events/testing';
import type { AgentView } from '@pf/events';

/**
 * Two firms on one market (docs/decisions/firms-and-visibility.md), the real automated agents running: firm A
 * (Harbour Mortgages) has demo data and real clients, one of whom (Harriet Cole) meets firm B's lender. Firm B
 * reads every screen in full: none of A's clients, addresses or figures shows, except inside the conversation
 * the two share. Market Intelligence says Not enough data while A alone has London deals (split five times),
 * and shows the figures once five deals of three firms back them.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });
});
test.afterAll(async () => {
  await server?.stop();
});

async function signIn(browser: Browser, firstName: string, firm: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server.url })).newPage();
  await page.goto('/api/login');
  expect((await page.request.put('/api/auth/profile', { data: { firstName, lastName: 'Tester' } })).status()).toBe(200);
  expect((await page.request.put('/api/firm', { data: { name: firm } })).status()).toBe(200);
  return page;
}

async function agent(page: Page, name: string, type: 'borrower' | 'lender', criteria: Record<string, string>): Promise<number> {
  const answer = await page.request.post('/api/agents', { data: { name, type, criteria } });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as AgentView).id;
}

/** A London borrower the firm's lenders do not fit, so no negotiation agrees a deal for it meanwhile. */
const LONDON_CLIENT = { propertyValueMin: '£5,000,000', propertyValueMax: '£6,000,000', region: 'london' };
/** A London lender that fits none of the borrowers here: its deals are made by hand only. */
const LONDON_LENDER = { propertyValueMin: '£100,000', propertyValueMax: '£150,000', region: 'london' };

/**
 * New Deals between a firm's own London agents (each a deal of that firm only), one borrower per deal: a borrower
 * with an agreed deal gets no second one (docs/decisions/one-commitment-per-need.md).
 */
async function deals(page: Page, borrowerName: string, lenderAgentId: number, count: number, address: string, loanAmount: number) {
  for (let n = 0; n < count; n += 1) {
    const borrowerAgentId = await agent(page, n === 0 ? borrowerName : `${borrowerName} ${n + 1}`, 'borrower', LONDON_CLIENT);
    const answer = await page.request.post('/api/deals', {
      data: {
        borrowerAgentId,
        lenderAgentId,
        propertyAddress: `${n + 1} ${address}`,
        propertyValue: loanAmount * 2,
        loanAmount,
        interestRate: 4.25,
        termYears: 25,
        arrangementFee: 999,
      },
    });
    expect(answer.status()).toBe(201);
  }
}

/** The whole text a person reads on a screen once it has loaded (no spinner left, the expected text shown). */
async function readScreen(page: Page, path: string, shows: string | RegExp): Promise<string> {
  await page.goto(path);
  await expect(page.locator('body')).toContainText(shows);
  await expect(page.locator('[class*="-spinner"]')).toHaveCount(0);
  return page.locator('body').innerText();
}

test('firm B reads none of firm A’s clients or figures outside their shared conversation; Market needs 5 deals of 3 firms', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const a = await signIn(browser, 'Ada', 'Harbour Mortgages');
  const b = await signIn(browser, 'Ben', 'Wessex Lending');
  const c = await signIn(browser, 'Cal', 'Crown Finance');

  // Firm A: demo data (a sandbox), a client who meets B's lender, and clients of its own with deals in London.
  expect((await a.request.post('/api/seed-demo')).status()).toBe(201);
  await agent(a, 'Harriet Cole', 'borrower', { ...BORROWER_CRITERIA, region: 'london' });
  const harbour = await agent(a, 'Harbour Home Loans', 'lender', LONDON_LENDER);
  await deals(a, 'Oliver Pemberton', harbour, 5, 'Harbour Lane', 987_000);
  // Firm B: a lender that fits Harriet, and agents of its own for its own deal later.
  await agent(b, 'Wessex Building Society', 'lender', LENDER_CRITERIA);
  await expect
    .poll(async () => ((await (await b.request.get('/api/conversations')).json()) as unknown[]).length, { timeout: 30_000 })
    .toBeGreaterThan(0);

  // What B must never read: A's demo clients, A's own clients and lender, their addresses and figures.
  const forbidden = [...DEMO_AGENTS.map((d) => d.name), 'Oliver Pemberton', 'Harbour Home Loans', 'Harbour Lane', '987,000', '£987k'];
  const screens: [string, string | RegExp][] = [
    ['/dashboard', 'Wessex'],
    ['/agents', 'Wessex Building Society'],
    ['/conversations', 'Wessex Building Society'],
    ['/deals', 'Deals'],
    ['/documents', 'Documents'],
    ['/matching', 'Wessex Building Society'],
    ['/analytics', 'Analytics'],
    ['/market', 'Not enough data'],
    ['/notifications', 'Notifications'],
    ['/settings', 'Settings'],
  ];
  for (const [path, shows] of screens) {
    const text = await readScreen(b, path, shows);
    for (const word of forbidden) expect(text.includes(word) ? `${path} shows ${word}` : null).toBeNull();
  }
  // The Matching tab of active matches and the Members tab, read in full too.
  await b.goto('/matching');
  await b.getByRole('tab', { name: 'Active Matches' }).click();
  await expect(b.locator('[class*="-spinner"]')).toHaveCount(0);
  const matchesText = await b.locator('body').innerText();
  for (const word of forbidden) expect(matchesText.includes(word) ? `matches show ${word}` : null).toBeNull();

  // Inside the conversation the two share, each side sees the other's agent and firm; the list says which side is B's.
  const cards = await readScreen(b, '/conversations', 'Other side: Harriet Cole (Harbour Mortgages)');
  expect(cards).toContain('Yours: Wessex Building Society');
  await b.getByTestId('conversation-card').filter({ hasText: 'Harriet Cole' }).first().click();
  await expect(
    b
      .getByText('Harriet Cole (Harbour Mortgages) · Wessex Building Society (yours)')
      .or(b.getByText('Wessex Building Society (yours) · Harriet Cole (Harbour Mortgages)')),
  ).toBeVisible();

  // Market: A's five London deals are one firm's, so B is told Not enough data, with none of their figures.
  await b.goto('/market');
  await expect(b.getByTestId('market-too-little')).toContainText('at least 5 deals from at least 3 different firms');
  await expect(b.getByTestId('market-mortgageApprovals')).toContainText('Not enough data');

  // B and C each add a London deal of their own: seven deals of three firms back London's figures.
  const bLender = await agent(b, 'Wessex Private', 'lender', LONDON_LENDER);
  await deals(b, 'Beatrice Lamb', bLender, 1, 'Wessex Row', 4_000_000);
  const cLender = await agent(c, 'Crown Lending', 'lender', LONDON_LENDER);
  await deals(c, 'Cecil Dunn', cLender, 1, 'Crown Street', 4_000_000);
  await expect(async () => {
    await b.goto('/market');
    await expect(b.getByTestId('market-mortgageApprovals')).toContainText(/Mortgage Approvals\s*\d/, { timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  await expect(b.getByTestId('market-too-little')).toHaveCount(0);
  // Still none of A's names on it: B's own lender only in the lender analysis.
  const market = await b.locator('body').innerText();
  for (const word of ['Oliver Pemberton', 'Harbour Home Loans', 'Harbour Lane'])
    expect(market.includes(word) ? `market shows ${word}` : null).toBeNull();
});
