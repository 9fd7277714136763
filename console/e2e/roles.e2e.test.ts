import { expect, test, type Browser, type Page } from '@playwright/test';
import type { AgentView, ConversationView, FirmView, InviteView } from '@pf/events';
import { DEMO_AGENTS } from '../../command-service/src/seed-demo/demo-data';
import { startE2eServer, type E2eServer } from './server';

/**
 * What each role may do, as people read it (docs/decisions/firms-and-visibility.md, "Roles, on the server"): an
 * auditor reads every screen of the firm and finds no control to change anything, with the reason said at the
 * top; views a document (a read) but has no Share; the sidebar and the dashboard name each role in the same words;
 * and a refusal the server gives is read in words, never as raw JSON. Its own server, without the automated
 * agents (the scripted demo conversations hold still).
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'off' });
});
test.afterAll(async () => {
  await server?.stop();
});

const AUDITOR_REFUSAL = 'Your role is Auditor: auditors read everything of the firm but cannot create, change, take over or send';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function person(browser: Browser, firstName: string, lastName: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server.url })).newPage();
  await page.goto('/api/login');
  expect((await page.request.put('/api/auth/profile', { data: { firstName, lastName } })).status()).toBe(200);
  return page;
}

async function join(admin: Page, page: Page, role: 'operator' | 'auditor'): Promise<void> {
  const invite = (await (await admin.request.post('/api/firm/invites', { data: { role } })).json()) as InviteView;
  const joined = await page.request.post('/api/firm/join', { data: { token: invite.token } });
  expect(joined.status()).toBe(200);
}

/** The firm's admin with demo data, a deal between two of its agents and a document on that deal. */
async function firmWithWork(browser: Browser) {
  const admin = await person(browser, 'Ada', 'Admin');
  expect((await admin.request.put('/api/firm', { data: { name: 'Harbour Mortgages' } })).status()).toBe(200);
  expect((await admin.request.post('/api/seed-demo')).status()).toBe(201);
  // Read once the read models hold every demo agent (this read carries no position to wait for).
  const listAgents = async () => (await (await admin.request.get('/api/agents')).json()) as AgentView[];
  await expect.poll(async () => (await listAgents()).length, { timeout: 10_000 }).toBe(DEMO_AGENTS.length);
  const agents = await listAgents();
  const borrower = agents.find((a) => a.type === 'borrower')!;
  const lender = agents.find((a) => a.type === 'lender')!;
  const deal = await admin.request.post('/api/deals', {
    data: {
      borrowerAgentId: borrower.id,
      lenderAgentId: lender.id,
      propertyAddress: '14 Harbour Row, Bristol BS1 5TT',
      propertyValue: 300_000,
      loanAmount: 240_000,
      interestRate: 4.25,
      termYears: 25,
      arrangementFee: 999,
    },
  });
  expect(deal.status()).toBe(201);
  const { id: dealId } = (await deal.json()) as { id: string };
  const upload = await admin.request.post('/api/documents', {
    multipart: {
      dealId,
      type: 'valuation',
      name: 'Valuation report.png',
      file: { name: 'valuation.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  expect(upload.status()).toBe(201);
  const conversations = (await (await admin.request.get('/api/conversations')).json()) as ConversationView[];
  expect(conversations.length).toBeGreaterThan(0);
  return { admin, agents, conversationId: conversations[0]!.id };
}

/** Opens a screen and waits until it has loaded (no spinner, the expected text shown). */
async function open(page: Page, path: string, shows: string | RegExp) {
  await page.goto(path);
  await expect(page.locator('body')).toContainText(shows);
  await expect(page.locator('[class*="-spinner"]')).toHaveCount(0);
}

test('an auditor reads every screen with no control to change anything, and is told why; views a document but shares none', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, agents, conversationId } = await firmWithWork(browser);
  const eve = await person(browser, 'Eve', 'Auditor');
  await join(admin, eve, 'auditor');

  // The same words for the role in the sidebar and on the dashboard's badge, for each of them.
  await open(admin, '/dashboard', 'My Agents');
  await expect(admin.getByTestId('sidebar-role')).toHaveText('Admin');
  await expect(admin.getByTestId('role-badge')).toHaveText('Admin');
  await open(eve, '/dashboard', 'My Agents');
  await expect(eve.getByTestId('sidebar-role')).toHaveText('Auditor');
  await expect(eve.getByTestId('role-badge')).toHaveText('Auditor');
  await expect(eve.getByTestId('role-notice')).toHaveText(`${AUDITOR_REFUSAL}.`);
  await expect(eve.getByRole('button', { name: 'Seed Demo Data' })).toHaveCount(0);
  await expect(eve.getByRole('button', { name: 'Create Agent' })).toHaveCount(0);

  // My Agents: every agent of the firm, none with Pause, Edit or Delete.
  await open(eve, '/agents', agents[0]!.name);
  await expect(eve.getByTestId('agent-card')).toHaveCount(agents.length);
  for (const name of ['Pause', 'Resume', 'Edit', 'Delete agent', 'Create Agent']) {
    await expect(eve.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(eve.getByTestId('role-notice')).toHaveText(`${AUDITOR_REFUSAL}.`);

  // A conversation: the thread and its History, no switch, no Toggle Mode, no Send Message, no demo messages.
  await open(eve, `/conversations/${conversationId}`, 'Conversation Thread');
  await expect(eve.getByTestId('message').first()).toBeVisible();
  await expect(eve.getByTestId('manual-switch')).toHaveCount(0);
  for (const name of ['Toggle Mode', 'Send Message', 'Add Demo Messages']) {
    await expect(eve.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(eve.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(eve.getByRole('link', { name: 'History' })).toBeVisible();
  await expect(eve.getByRole('button', { name: 'Export full history' })).toBeVisible();

  // Deals: the deal, View but no Edit, no New Deal, and no step forward in its detail.
  await open(eve, '/deals', '14 Harbour Row, Bristol BS1 5TT');
  const row = eve.getByTestId('deal-row').filter({ hasText: '14 Harbour Row, Bristol BS1 5TT' });
  await expect(row.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(eve.getByRole('button', { name: 'New Deal' })).toHaveCount(0);
  await row.getByRole('button', { name: 'View' }).click();
  await expect(eve.getByRole('dialog')).toContainText('£240,000');
  await expect(eve.getByRole('button', { name: /^Advance to/ })).toHaveCount(0);
  await eve.keyboard.press('Escape');

  // Documents: View works for an auditor (a read); Share, Approve, Reject and Upload are not offered.
  await open(eve, '/documents', 'Valuation report.png');
  const card = eve.getByTestId('document-card').filter({ hasText: 'Valuation report.png' });
  await expect(card.getByRole('button', { name: 'Download' })).toBeVisible();
  for (const name of ['Share', 'Approve', 'Reject']) await expect(card.getByRole('button', { name })).toHaveCount(0);
  await expect(eve.getByRole('button', { name: 'Upload Document' })).toHaveCount(0);
  await card.getByRole('button', { name: 'View' }).click();
  await expect(eve.getByRole('img', { name: 'Valuation report.png' })).toBeVisible();
  await eve.keyboard.press('Escape');
  // Share is refused by the server in words, whatever screen asked.
  const documents = (await (await eve.request.get('/api/documents')).json()) as { id: string }[];
  const share = await eve.request.post(`/api/documents/${documents[0]!.id}/share`);
  expect(share.status()).toBe(403);
  expect(((await share.json()) as { message: string }).message).toBe(
    'Your role is Auditor: auditors read everything of the firm but cannot share a document outside the firm',
  );

  // Matching: leads without Match, no Add Lead.
  await open(eve, '/matching', agents[0]!.name);
  await expect(eve.getByRole('button', { name: 'Match', exact: true })).toHaveCount(0);
  await expect(eve.getByRole('button', { name: 'Add Lead' })).toHaveCount(0);

  // Settings → API tokens: why, in words, not the refusal's JSON as the tab's body.
  await open(eve, '/settings', 'Settings');
  await eve.getByRole('tab', { name: 'API tokens' }).click();
  const tokens = eve.getByRole('tabpanel');
  await expect(tokens).toContainText('Your role is Auditor: auditors read everything of the firm but cannot manage API tokens.');
  expect(await tokens.innerText()).not.toContain('{');
});

test('a refusal reaches the person in words: an operator made auditor meanwhile presses Pause and reads why', async ({ browser }) => {
  const { admin, agents } = await firmWithWork(browser);
  const oscar = await person(browser, 'Oscar', 'Operator');
  await join(admin, oscar, 'operator');
  await open(oscar, '/agents', agents[0]!.name);
  await expect(oscar.getByTestId('sidebar-role')).toHaveText('Operator');

  // The admin makes Oscar an auditor while his screen is open: his console still shows the operator's buttons.
  const firm = (await (await admin.request.get('/api/auth/firm')).json()) as FirmView;
  const member = firm.members.find((m) => m.name.startsWith('Oscar'))!;
  expect((await admin.request.put(`/api/firm/members/${member.userId}`, { data: { role: 'auditor' } })).status()).toBe(200);

  const card = oscar.getByTestId('agent-card').filter({ hasText: agents[0]!.name });
  await card.getByRole('button', { name: 'Pause' }).click();
  const toast = oscar.locator('.pf-toaster');
  await expect(toast).toContainText(`Failed to update agent status: ${AUDITOR_REFUSAL}`);
  expect(await toast.innerText()).not.toMatch(/[{}]|403/);
  // Nothing changed: the agent is still active.
  await expect(card).toContainText('Active');
});
