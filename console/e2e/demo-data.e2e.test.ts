import { expect, test, type Page } from '@playwright/test';
import type { AgentView, ConversationView } from '@pf/events';
import { DEMO_AGENTS, DEMO_CONVERSATIONS } from '../../command-service/src/seed-demo/demo-data';
import { startE2eServer, type E2eServer } from './server';

/**
 * Demo data as a person meets it (docs/behaviour/dashboard.md "Seed Demo Data", conversations.md "Add Demo
 * Messages", deals.md): demo agents badged with the sandbox rule said; Seed Demo Data pressed twice gives each demo
 * name once; Add Demo Messages adds to the conversation it is pressed in, nothing else; a second New Deal for a
 * borrower with an agreed deal is refused with the reason. Its own server without the automated agents (the
 * scripted demo conversations hold still, and no negotiation agrees a deal meanwhile).
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'off' });
});
test.afterAll(async () => {
  await server?.stop();
});

const SANDBOX = 'Demo agents meet only your firm’s other demo agents, never a real agent';

async function signIn(page: Page) {
  await page.goto(`${server.url}/api/login`);
  expect((await page.request.put(`${server.url}/api/auth/profile`, { data: { firstName: 'Dana', lastName: 'Demo' } })).status()).toBe(200);
}

test('Seed Demo Data twice gives each demo name once, every demo agent badged with the sandbox rule, a real one not', async ({ page }) => {
  await signIn(page);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Your firm already has every demo agent: nothing was added')).toBeVisible();
  expect((await page.request.post(`${server.url}/api/agents`, { data: { name: 'Harriet Cole', type: 'borrower' } })).status()).toBe(201);

  await page.goto(`${server.url}/agents`);
  const cards = page.getByTestId('agent-card');
  await expect(cards).toHaveCount(DEMO_AGENTS.length + 1);
  for (const demo of DEMO_AGENTS) {
    const card = cards.filter({ has: page.getByRole('heading', { name: demo.name, exact: true }) });
    await expect(card, demo.name).toHaveCount(1);
    await expect(card.getByTestId('demo-badge')).toHaveText('Demo');
    await expect(card.getByTestId('demo-badge')).toHaveAttribute('title', SANDBOX);
  }
  await expect(cards.filter({ hasText: 'Harriet Cole' }).getByTestId('demo-badge')).toHaveCount(0);
  await expect(page.getByTestId('demo-sandbox')).toContainText(`Agents marked Demo were made by Seed Demo Data. ${SANDBOX}`);

  // The leads of Matching say the same.
  await page.goto(`${server.url}/matching`);
  await expect(page.getByTestId('lead-card').filter({ hasText: DEMO_AGENTS[0]!.name }).getByTestId('demo-badge')).toHaveText('Demo');
  await expect(page.getByTestId('lead-card').filter({ hasText: 'Harriet Cole' }).getByTestId('demo-badge')).toHaveCount(0);
  await expect(page.getByTestId('demo-sandbox')).toContainText(SANDBOX);

  // A third press: still each name once.
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Your firm already has every demo agent: nothing was added')).toBeVisible();
  const names = ((await (await page.request.get(`${server.url}/api/agents`)).json()) as AgentView[]).map((agent) => agent.name).sort();
  expect(names).toEqual([...DEMO_AGENTS.map((demo) => demo.name), 'Harriet Cole'].sort());
});

test('Add Demo Messages adds its lines to the conversation it is pressed in, and makes no agent or conversation', async ({ page }) => {
  await signIn(page);
  expect((await page.request.post(`${server.url}/api/seed-demo`)).status()).toBe(201);
  // What the firm holds, once the read models have the seed (these reads carry no position to wait for).
  const counts = async () => ({
    agents: ((await (await page.request.get(`${server.url}/api/agents`)).json()) as AgentView[]).length,
    conversations: ((await (await page.request.get(`${server.url}/api/conversations`)).json()) as ConversationView[]).length,
  });
  const seeded = { agents: DEMO_AGENTS.length, conversations: DEMO_CONVERSATIONS.length };
  await expect.poll(counts, { timeout: 10_000 }).toEqual(seeded);
  const conversations = (await (await page.request.get(`${server.url}/api/conversations`)).json()) as ConversationView[];
  const conversation = conversations.find((c) => c.title.startsWith('Amelia Hart'))!;
  await page.goto(`${server.url}/conversations/${conversation.id}`);
  const messages = page.getByTestId('message');
  await expect(messages.first()).toBeVisible();
  const shown = await messages.count();

  await page.getByRole('button', { name: 'Add Demo Messages' }).click();
  await expect(page.getByText('Added 4 demo messages')).toBeVisible();
  await expect(messages).toHaveCount(shown + 4);
  const added = messages.filter({ hasText: 'Before we go further, could you tell me which documents you will need from me?' });
  await expect(added).toContainText('Amelia Hart');
  await expect(added.getByTestId('author')).toHaveText('Agent');
  await expect(messages.last()).toContainText('Usually within five working days of a full application.');

  // Nothing else was made: still the seed's agents and conversations (it used to add eight agents and theirs).
  expect(await counts()).toEqual(seeded);
});

test('a second New Deal for a borrower with an agreed deal is refused, and the form says why', async ({ page }) => {
  await signIn(page);
  expect((await page.request.post(`${server.url}/api/seed-demo`)).status()).toBe(201);
  const listAgents = async () => (await (await page.request.get(`${server.url}/api/agents`)).json()) as AgentView[];
  await expect.poll(async () => (await listAgents()).length, { timeout: 10_000 }).toBe(DEMO_AGENTS.length);
  const agents = await listAgents();
  const amelia = agents.find((a) => a.name === 'Amelia Hart')!;
  const lender = agents.find((a) => a.type === 'lender')!;
  const first = await page.request.post(`${server.url}/api/deals`, {
    data: {
      borrowerAgentId: amelia.id,
      lenderAgentId: lender.id,
      propertyAddress: '7 Canal Wharf, Leeds LS11 5PS',
      propertyValue: 295_000,
      loanAmount: 236_000,
      interestRate: 4.35,
      termYears: 30,
      arrangementFee: 999,
    },
  });
  expect(first.status()).toBe(201);

  await page.goto(`${server.url}/deals`);
  await expect(page.getByTestId('deal-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'New Deal' }).click();
  const form = page.getByRole('dialog', { name: 'New Deal' });
  await form.getByLabel('Property address').fill('8 Canal Wharf, Leeds LS11 5PS');
  await form.locator('#deal-borrowerAgentId').selectOption({ label: 'Amelia Hart' });
  await form.locator('#deal-lenderAgentId').selectOption({ label: lender.name });
  await form.getByLabel('Property value (£)').fill('295000');
  await form.getByLabel('Loan amount (£)').fill('236000');
  await form.getByLabel('Interest rate (%)').fill('4.2');
  await form.getByLabel('Term (years)').fill('30');
  await form.getByRole('button', { name: 'Create Deal' }).click();
  await expect(form.locator('.bp6-callout')).toHaveText(
    `Amelia Hart already has an agreed deal with ${lender.name} (made by hand): a second deal for this borrower is refused until that deal is cancelled, or Amelia Hart's operator edits the need or asks for another lender`,
  );
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('deal-row')).toHaveCount(1);
});
