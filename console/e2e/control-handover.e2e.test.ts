import { expect, test, type Browser, type Page } from '@playwright/test';
import type { AgentView, ConversationView, InviteView } from '@pf/events';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import { startE2eServer, type E2eServer } from './server';

/**
 * Control of one side handed over between colleagues (docs/decisions/per-side-control.md), three people in two
 * firms, the real automated agents running slowly enough that the talk is still going: Ben (operator) holds the
 * borrower side of a conversation between two of Harbour's own agents; Ada (admin) asks for it, is declined and
 * told so, asks again and is handed it, and then holds exactly that side while Ben holds nothing; the switch's
 * toast says what the server did at every step; Cy of Crown Finance cannot reach the conversation at all.
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
const side = (page: Page, name: string) => page.getByTestId('side-control').filter({ hasText: name });
const manualSwitch = (page: Page) => page.getByTestId('manual-switch');
/** What the server says of the conversation, as the person reads it. */
const serverView = async (page: Page, id: number) =>
  (await (await page.request.get(`/api/conversations/${id}`)).json()) as ConversationView;

test('a colleague asks for the side another holds: declined and told, then handed exactly that side; another firm cannot ask', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const ada = await signIn(browser, 'Ada', 'Archer');
  const ben = await signIn(browser, 'Ben', 'Brooks');
  const cy = await signIn(browser, 'Cy', 'Crane');
  expect((await ada.request.put('/api/firm', { data: { name: 'Harbour Mortgages' } })).status()).toBe(200);
  expect((await cy.request.put('/api/firm', { data: { name: 'Crown Finance' } })).status()).toBe(200);
  const invite = (await (await ada.request.post('/api/firm/invites', { data: { role: 'operator' } })).json()) as InviteView;
  expect((await ben.request.post('/api/firm/join', { data: { token: invite.token } })).status()).toBe(200);

  // Two of Harbour's own agents meet: Ben's borrower and Ada's lender.
  const borrower = (await (await ben.request.post('/api/agents', { data: HARRIET_COLE })).json()) as AgentView;
  expect((await ada.request.post('/api/agents', { data: WESSEX_BUILDING_SOCIETY })).status()).toBe(201);
  await expect
    .poll(async () => ((await (await ada.request.get('/api/conversations')).json()) as ConversationView[]).length, { timeout: 30_000 })
    .toBe(1);
  const [conversation] = (await (await ada.request.get('/api/conversations')).json()) as ConversationView[];
  const id = conversation!.id;

  // Both sides are Harbour's: Ben's switch says which it takes. He takes the borrower side only.
  await ben.goto(`/conversations/${id}`);
  await ben.getByLabel('Sides to take over').selectOption({ label: 'The borrower side (Harriet Cole)' });
  await ben.getByText('Manual Mode', { exact: true }).click();
  await expect(ben.getByText('Mode Updated: Switched to manual mode: you hold the borrower side (Harriet Cole) here')).toBeVisible();
  await expect(side(ben, 'Harriet Cole')).toContainText('Taken over by you, here');
  await expect(side(ben, 'Wessex Building Society')).toContainText('Automatic: Wessex Building Society negotiates');

  // Ada, on the same conversation, holds nothing: her switch is off, and she is told who holds the borrower side.
  await ada.goto(`/conversations/${id}`);
  await expect(side(ada, 'Harriet Cole')).toContainText('Taken over by Ben Brooks');
  await expect(manualSwitch(ada)).not.toBeChecked();
  await expect(composer(ada)).toHaveCount(0);
  const held = ada.getByTestId('control-colleague');
  await expect(held).toContainText('Ben Brooks holds the borrower side (Harriet Cole). Request control to take it');

  // She asks; Ben is told by name, and declines; she is told in words and still holds nothing.
  await held.getByRole('button', { name: 'Request control' }).click();
  await expect(ada.getByText('Asked Ben Brooks to hand over the borrower side (Harriet Cole)')).toBeVisible();
  await expect(ada.getByTestId('control-requested')).toHaveText('Control requested: waiting for Ben Brooks to hand over.');
  const request = ben.getByTestId('control-request');
  await expect(request).toHaveText(/Ada Archer asks for control of the borrower side \(Harriet Cole\)\./);
  await request.getByRole('button', { name: 'Decline' }).click();
  await expect(request).toHaveCount(0);
  await expect(ada.getByTestId('control-declined')).toHaveText('Ben Brooks declined to hand over the borrower side (Harriet Cole).');
  await expect(ada.getByText('Ben Brooks declined to hand over the borrower side (Harriet Cole)').first()).toBeVisible();
  await expect(side(ada, 'Harriet Cole')).toContainText('Taken over by Ben Brooks');
  await expect(manualSwitch(ada)).not.toBeChecked();
  expect((await serverView(ada, id)).control.find((s) => s.agentId === borrower.id)).toMatchObject({ controllerName: 'Ben Brooks' });

  // She asks again, and Ben hands over: Ada holds exactly the borrower side, here; Ben holds nothing.
  await held.getByRole('button', { name: 'Request control' }).click();
  await expect(request).toHaveText(/Ada Archer asks for control of the borrower side/);
  await request.getByRole('button', { name: 'Hand over' }).click();
  await expect(ben.getByText('Handed the borrower side (Harriet Cole) over to Ada Archer')).toBeVisible();
  await expect(ada.getByText('The borrower side (Harriet Cole) was handed over: you hold it here')).toBeVisible();
  await expect(side(ada, 'Harriet Cole')).toContainText('Taken over by you, here');
  await expect(side(ada, 'Wessex Building Society')).toContainText('Automatic');
  await expect(manualSwitch(ada)).toBeChecked();
  await expect(composer(ada)).toHaveCount(1);
  await expect(side(ben, 'Harriet Cole')).toContainText('Taken over by Ada Archer');
  await expect(manualSwitch(ben)).not.toBeChecked();
  await expect(composer(ben)).toHaveCount(0);
  const asServer = (await serverView(ada, id)).control;
  expect(asServer.map((s) => [s.side, s.isManual, s.controllerName])).toEqual([
    ['borrower', true, 'Ada Archer'],
    ['lender', false, null],
  ]);

  // Her switch off: the toast says what the server did, and the server agrees.
  await ada.getByText('Manual Mode', { exact: true }).click();
  await expect(
    ada.getByText('Mode Updated: Switched to automatic mode: the borrower side (Harriet Cole) is back with its agent'),
  ).toBeVisible();
  await expect(side(ada, 'Harriet Cole')).toContainText('Automatic: Harriet Cole negotiates');
  await expect(side(ben, 'Harriet Cole')).toContainText('Automatic: Harriet Cole negotiates');
  expect((await serverView(ada, id)).control.every((s) => !s.isManual)).toBe(true);

  // Cy of Crown Finance cannot reach the conversation, so has nothing to ask for.
  await cy.goto(`/conversations/${id}`);
  await expect(cy.getByText('Conversation not found')).toBeVisible();
  await expect(cy.getByRole('button', { name: 'Request control' })).toHaveCount(0);
});
