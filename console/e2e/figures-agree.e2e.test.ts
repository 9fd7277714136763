import { expect, test, type Locator, type Page } from '@playwright/test';
import type { AgentView, ConversationView } from '@pf/events';
import { startE2eServer, type E2eServer } from './server';

/**
 * The figures a firm reads of the same negotiations agree from screen to screen (docs/behaviour/figures.md): with
 * everything in the period, Analytics' Conversion Rate is the Success Rate the Dashboard, Conversations and
 * Matching & Leads show; the Dashboard's Matches Found and the Conversations page's totals are the counts of
 * Firm Activity; the deals opened are the deals agreed. Each number is read as a person reads it, from the screen.
 * The negotiations end every way (terms agreed, no agreement, and stopped, by pausing an agent mid-negotiation), so
 * a rule that leaves an outcome out on one screen shows.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });
});
test.afterAll(async () => {
  await server?.stop();
});

const statValue = (card: Locator) => card.locator('.pf-stat-value');

/** The number a card or row shows, once it shows one (not the dash of a figure still loading). */
async function shown(locator: Locator): Promise<string> {
  await expect(locator).toHaveText(/\d/);
  return (await locator.innerText()).trim();
}

async function activity(page: Page, type: string): Promise<number> {
  const row = page.getByTestId(`activity-${type}`);
  if ((await row.count()) === 0) return 0;
  return Number(await shown(row.getByRole('cell').nth(1)));
}

test('Dashboard, Conversations, Matching & Leads and Analytics tell the same figures of the same negotiations', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await (await browser.newContext({ baseURL: server.url })).newPage();
  await page.goto('/api/login');
  await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
  expect((await page.request.post('/api/seed-demo')).status()).toBe(201);

  // One negotiation stopped: a demo lender paused while it negotiates (its conversations end as stopped).
  const conversations = async () => (await (await page.request.get('/api/conversations')).json()) as ConversationView[];
  await expect.poll(async () => (await conversations()).some((c) => c.status === 'active'), { timeout: 30_000 }).toBe(true);
  const running = (await conversations()).find((c) => c.status === 'active')!;
  const lender = running.participants.find((p) => p.type === 'lender')!;
  expect((await page.request.put(`/api/agents/${lender.agentId}`, { data: { isActive: false } })).status()).toBe(200);
  // Every negotiation has ended, and the platform has gone quiet (no deal still being opened from its agreement).
  await expect.poll(async () => (await conversations()).filter((c) => c.status !== 'completed').length, { timeout: 120_000 }).toBe(0);
  let last = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify([await conversations(), await (await page.request.get('/api/deals')).json()]);
        const quiet = now === last;
        last = now;
        return quiet;
      },
      { timeout: 30_000, intervals: [1_500] },
    )
    .toBe(true);
  const outcomes = new Set((await conversations()).map((c) => c.outcome));
  expect(outcomes.has('stopped')).toBe(true);
  expect(outcomes.has('agreed')).toBe(true);
  expect(((await (await page.request.get(`/api/agents/${lender.agentId}`)).json()) as AgentView).isActive).toBe(false);

  await page.goto('/dashboard');
  const successRate = await shown(statValue(page.getByTestId('stat-successRate')));
  expect(successRate).toMatch(/^\d+\.\d%$/);
  const matchesFound = Number(await shown(statValue(page.getByTestId('stat-matchesFound'))));
  const activeConversations = Number(await shown(statValue(page.getByTestId('stat-activeConversations'))));
  expect(matchesFound).toBeGreaterThan(0);

  await page.goto('/conversations');
  await expect(statValue(page.getByTestId('conversations-success-rate'))).toHaveText(successRate);
  const figure = (title: string) => page.locator('.pf-stat-card').filter({ hasText: title });
  const totalConversations = Number(await shown(statValue(figure('Total Conversations'))));
  await expect(statValue(figure('Active Now'))).toHaveText(String(activeConversations));

  await page.goto('/matching');
  await expect(statValue(page.locator('.pf-stat-card').filter({ hasText: 'Success Rate' }))).toHaveText(successRate);

  // Analytics is folded by consumers no one waits on event by event: read again until they have caught up (a
  // person would reload), then every figure must agree at once.
  const analytics = async () => {
    await page.goto('/analytics');
    await expect(page.getByTestId('platform-activity')).toBeVisible();
    return {
      conversion: await shown(statValue(page.getByTestId('headline-conversionRate'))),
      matchesFound: await activity(page, 'MatchFound'),
      conversationsStarted: await activity(page, 'ConversationStarted'),
      dealsAgreed: await activity(page, 'DealAgreed'),
      dealsOpened: await activity(page, 'DealOpened'),
    };
  };
  const agreed = (await (await page.request.get('/api/deals')).json()) as unknown[];
  expect(agreed.length).toBeGreaterThan(0);
  // Everything happened today: the period's conversion rate is the success rate; no deal was entered by hand, so
  // every deal opened was agreed in a negotiation.
  await expect.poll(analytics, { timeout: 30_000, intervals: [1_000] }).toEqual({
    conversion: successRate,
    matchesFound,
    conversationsStarted: totalConversations,
    dealsAgreed: agreed.length,
    dealsOpened: agreed.length,
  });
  await expect(page.getByText(`: ${agreed.length} in the period.`)).toBeVisible();
});
