import { expect, test, type Browser, type Page } from '@playwright/test';
import type { ConversationView, MessageView, ApiError, AgentView } from '@pf/events';
import { startE2eServer, type E2eServer } from './server';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';

/**
 * Two people in two browsers whose automated agents are matched (docs/decisions/per-side-control.md): both see the one conversation;
 * Alice takes over her side while Bob's agent keeps negotiating; Bob cannot switch Alice's side; each sees the
 * other viewing, and Bob sees Alice typing, by name. The agents run here (the shared e2e server has them off),
 * slowly enough that the negotiation is still going when Alice takes over.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '4000' });
});
test.afterAll(async () => {
  await server?.stop();
});

async function signIn(browser: Browser, firstName: string, lastName: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server.url })).newPage();
  await page.goto('/api/login');
  expect((await page.request.put('/api/auth/profile', { data: { firstName, lastName } })).status()).toBe(200);
  return page;
}

const composer = (page: Page) => page.getByPlaceholder('Type your message as your agent…');

test('two users whose agents are matched: per-side control, presence and typing by name', async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await signIn(browser, 'Alice', 'Borrowes');
  const bob = await signIn(browser, 'Bob', 'Lendell');
  const borrower = (await (
    await alice.request.post('/api/agents', {
      data: {
        ...HARRIET_COLE,
      },
    })
  ).json()) as AgentView;
  const lender = await bob.request.post('/api/agents', {
    data: {
      ...WESSEX_BUILDING_SOCIETY,
    },
  });
  expect(lender.status()).toBe(201);
  const conversations = async (page: Page) => (await (await page.request.get('/api/conversations')).json()) as ConversationView[];
  await expect.poll(async () => (await conversations(bob)).length, { timeout: 20_000 }).toBe(1);
  const [conversation] = await conversations(bob);

  // Both open the same conversation; each is shown the other viewing it, by profile name.
  await alice.goto(`/conversations/${conversation!.id}`);
  await bob.goto(`/conversations/${conversation!.id}`);
  for (const page of [alice, bob]) await expect(page.getByRole('heading', { name: conversation!.title })).toBeVisible();
  await expect(bob.getByTestId('presence-viewers')).toHaveText('Alice Borrowes is viewing');
  await expect(alice.getByTestId('presence-viewers')).toHaveText('Bob Lendell is viewing');

  await expect(alice.getByText('Active conversation', { exact: true })).toBeVisible();
  // Alice takes over her side only: Bob's side stays automatic, and Bob is told who has Alice's.
  await alice.getByText('Manual Mode', { exact: true }).click();
  await expect(alice.getByTestId('side-control').filter({ hasText: 'Your side' })).toContainText('Harriet Cole · Taken over by you, here');
  const bobsView = bob.getByTestId('side-control');
  await expect(bobsView.filter({ hasText: 'Their side' })).toContainText('Harriet Cole · Taken over by Alice Borrowes');
  await expect(bobsView.filter({ hasText: 'Your side' })).toContainText(
    'Wessex Building Society · Automatic: Wessex Building Society negotiates',
  );
  await expect(bob.getByTestId('manual-switch')).not.toBeChecked();
  await expect(composer(bob)).toHaveCount(0);

  // Bob cannot switch Alice's side: the screen offers no control of it, and the API refuses it by name.
  await expect(bobsView.filter({ hasText: 'Their side' }).getByRole('button')).toHaveCount(0);
  await expect(bobsView.filter({ hasText: 'Their side' }).getByRole('checkbox')).toHaveCount(0);
  const refused = await bob.request.patch(`/api/conversations/${conversation!.id}`, {
    data: { isManualMode: false, agentId: borrower.id },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as ApiError).message).toBe(
    "Harriet Cole belongs to another firm: you can take over or hand back only your own firm's agents",
  );
  await expect(bobsView.filter({ hasText: 'Their side' })).toContainText('Taken over by Alice Borrowes');

  // While Alice types, Bob sees her name typing; her message reaches him, and his agent, still automatic, answers it.
  await composer(alice).pressSequentially('We could accept 4.6% over 25 years', { delay: 40 });
  await expect(bob.getByTestId('presence-typers')).toContainText('Alice Borrowes is typing…');
  await composer(alice).press('Enter');
  const bobsThread = bob.getByTestId('message');
  const said = bobsThread.filter({ hasText: 'We could accept 4.6% over 25 years' });
  await expect(said).toContainText('Harriet Cole');
  await expect(said).toContainText('Person');
  await expect(bob.getByTestId('presence-typers')).toHaveCount(0);
  const after = bob.locator('[data-testid="message"]:has-text("We could accept 4.6% over 25 years") ~ [data-testid="message"]');
  await expect(after.filter({ hasText: 'Wessex Building Society' }).filter({ hasText: 'Agent' }).first()).toBeVisible({ timeout: 20_000 });

  // Alice's own agent said nothing of its own since she took over. What the thread shows under her side after her
  // message is only the platform's note on how that message was read (docs/decisions/one-commitment-per-need.md:
  // a reading, not the agent speaking), once, and marked as a reading.
  const sinceHerMessage = async (): Promise<MessageView[]> => {
    const messages = (await (await alice.request.get(`/api/conversations/${conversation!.id}/messages`)).json()) as MessageView[];
    const from = messages.findIndex((m) => m.content === 'We could accept 4.6% over 25 years');
    expect(from).toBeGreaterThanOrEqual(0);
    return messages.slice(from + 1).filter((m) => m.fromAgentId === borrower.id);
  };
  await expect.poll(async () => (await sinceHerMessage()).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const underHerSide = await sinceHerMessage();
  expect(underHerSide).toHaveLength(1);
  expect(underHerSide[0]!.isReading).toBe(true);
  expect(underHerSide[0]!.content).toMatch(/^(Read as an offer: |Read as chat: |Not read as an offer: |Not recorded as an offer: )/);

  // Bob leaves the thread: Alice no longer sees him viewing.
  await bob.goto('/dashboard');
  await expect(alice.getByTestId('presence-viewers')).toHaveCount(0);
  await alice.context().close();
  await bob.context().close();
});
