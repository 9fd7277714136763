import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { signLink } from '@pf/command-service/signed-link';
import { createPool } from '@pf/infra';
import { PostgresEventStore } from '@pf/infra';
import { startE2eServer, type E2eServer } from './server';
import { streams, type ApiError, type AgentView, type MatchRequestAnswer } from '@pf/events';

/**
 * On a server of its own with the automated agents off (its database is needed to sign an expired link): the New Deal form (its messages name the field, then a valid
 * deal is listed with its terms), a Share link (works with no session; tampered, expired or cut short, refused
 * with a 403 that says why), and Match when no matcher is running (the card says so instead of spinning).
 */

let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function seeded(page: Page) {
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
}

const figure = (page: Page, key: string) => page.getByTestId(`figure-${key}`).locator('.pf-stat-value');
const helper = (page: Page, field: string) =>
  page.getByRole('dialog', { name: 'New Deal' }).locator(`.bp6-form-group:has(#deal-${field}) .bp6-form-helper-text`);

test('New Deal: messages that name each field, then the deal listed with its terms', async ({ page }) => {
  await seeded(page);
  await page.goto(`${server.url}/deals`);
  await expect(page.getByText('Deals appear when your agents agree terms')).toBeVisible();
  await expect(figure(page, 'activeDeals')).toHaveText('0');

  await page.getByRole('button', { name: 'New Deal' }).click();
  const form = page.getByRole('dialog', { name: 'New Deal' });
  await form.getByRole('button', { name: 'Create Deal' }).click();
  await expect(helper(page, 'propertyAddress')).toHaveText('Property address is required');
  await expect(helper(page, 'borrowerAgentId')).toHaveText('Choose the borrower agent');
  await expect(helper(page, 'lenderAgentId')).toHaveText('Choose the lender agent');
  await expect(helper(page, 'propertyValue')).toHaveText('Property value must be a number of pounds');
  await expect(helper(page, 'interestRate')).toHaveText('Interest rate must be a percentage such as 4.25');
  await expect(helper(page, 'termYears')).toHaveText('Term must be a number of years');

  await form.getByLabel('Property address').fill('9 Orchard Close, Bath BA2 3QT');
  await form.locator('#deal-borrowerAgentId').selectOption({ index: 1 });
  await form.locator('#deal-lenderAgentId').selectOption({ index: 1 });
  const borrower = await form.locator('#deal-borrowerAgentId option:checked').textContent();
  const lender = await form.locator('#deal-lenderAgentId option:checked').textContent();
  await form.getByLabel('Property value (£)').fill('350000');
  await form.getByLabel('Loan amount (£)').fill('400000');
  await form.getByLabel('Interest rate (%)').fill('4.25');
  await form.getByLabel('Term (years)').fill('41');
  await form.getByRole('button', { name: 'Create Deal' }).click();
  await expect(helper(page, 'loanAmount')).toHaveText('Loan amount cannot be more than the property value');
  await expect(helper(page, 'termYears')).toHaveText('Term is at most 40 years');
  await expect(helper(page, 'propertyAddress')).toHaveCount(0);

  await form.getByLabel('Loan amount (£)').fill('262,500');
  await form.getByLabel('Term (years)').fill('25');
  await form.getByLabel('Arrangement fee (£)').fill('999');
  await form.getByRole('button', { name: 'Create Deal' }).click();
  await expect(form).toHaveCount(0);
  const row = page.getByTestId('deal-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('9 Orchard Close, Bath BA2 3QT');
  await expect(row.getByTestId('deal-terms')).toHaveText('£262,500 at 4.25% over 25 years · LTV 75.0% · value £350,000');
  await expect(row).toContainText(`${borrower} · ${lender}`);
  await expect(figure(page, 'activeDeals')).toHaveText('1');
  await expect(figure(page, 'totalValue')).toHaveText('£263k');
});

test('Share: the signed link works with no session; tampered, expired or cut short it is refused with a 403 saying why', async ({
  page,
  playwright,
}) => {
  await seeded(page);
  const [borrower, lender] = await (async () => {
    const agents = (await (await page.request.get(`${server.url}/api/agents`)).json()) as AgentView[];
    return [agents.find((a) => a.type === 'borrower')!.id, agents.find((a) => a.type === 'lender')!.id];
  })();
  const created = await page.request.post(`${server.url}/api/deals`, {
    data: {
      propertyAddress: '3 Wharf Road, Hull HU1 2AA',
      borrowerAgentId: borrower,
      lenderAgentId: lender,
      propertyValue: 200_000,
      loanAmount: 150_000,
      interestRate: 4.5,
      termYears: 25,
    },
    headers: { origin: server.url },
  });
  expect(created.status()).toBe(201);

  await page.goto(`${server.url}/documents`);
  await page.getByRole('button', { name: 'Upload Document' }).click();
  await page.getByLabel('Deal', { exact: true }).selectOption({ label: '3 Wharf Road, Hull HU1 2AA' });
  await page.getByLabel('Type', { exact: true }).selectOption('valuation');
  await page.locator('#document-file').setInputFiles({ name: 'survey.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const card = page.getByTestId('document-card').filter({ hasText: 'survey.png' });
  await card.getByRole('button', { name: 'Share' }).click();
  const link = new URL(await page.getByTestId('share-link').inputValue());
  expect(link.pathname).toMatch(/^\/files\/documents\/[0-9a-f-]{36}$/);

  // Someone with no account: a fresh client, no cookie.
  const stranger = await playwright.request.newContext();
  const opened = await stranger.get(link.toString());
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-disposition']).toBe(`attachment; filename*=UTF-8''survey.png`);
  expect((await opened.body()).equals(PNG)).toBe(true);

  const refused = async (url: URL, message: string) => {
    const answer = await stranger.get(url.toString());
    expect(answer.status(), url.search).toBe(403);
    expect(((await answer.json()) as ApiError).message).toBe(message);
  };
  const tampered = new URL(link);
  const signature = tampered.searchParams.get('s')!;
  tampered.searchParams.set('s', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
  await refused(tampered, 'This link is not valid; ask for a new one');
  const longer = new URL(link);
  longer.searchParams.set('e', String(Number(link.searchParams.get('e')) + 86_400));
  await refused(longer, 'This link is not valid; ask for a new one');
  const cut = new URL(link);
  cut.searchParams.delete('s');
  await refused(cut, 'This link is incomplete; ask for a new one');
  const garbled = new URL(link);
  garbled.searchParams.set('e', 'tomorrow');
  await refused(garbled, 'This link is incomplete; ask for a new one');

  // Expired: a link signed with the server's own secret whose time has passed.
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ secret: Buffer }>('select secret from link_signing_secret where id = 1');
  await client.end();
  const documentId = link.pathname.split('/').pop()!;
  const expired = new URL(
    signLink(rows[0]!.secret, { documentId, disposition: 'attachment', expires: Math.floor(Date.now() / 1000) - 60 }),
    link,
  );
  await refused(expired, 'This link has expired; ask for a new one');
  await stranger.dispose();
});

test('Match shows the matcher’s note when it finds none, and says so when no matcher answers', async ({ page }) => {
  await page.clock.install();
  await seeded(page);
  await page.goto(`${server.url}/matching`);
  const card = page.getByTestId('lead-card').first();
  await expect(card).toBeVisible();
  const ask = async () => {
    const asked = page.waitForResponse((r) => /\/api\/leads\/\d+\/match$/.test(r.url()) && r.request().method() === 'POST');
    await card.getByRole('button', { name: 'Match' }).click();
    const answer = await asked;
    return { requestId: ((await answer.json()) as MatchRequestAnswer).requestId, agentId: Number(answer.url().split('/').at(-2)) };
  };

  // No automation here, so this test answers as the matcher does: its event on the run's stream, with a note.
  const first = await ask();
  await expect(card.getByTestId('match-run')).toHaveText('Matching…');
  const note = 'No new match at 70 or more: every counterpart that fits is already in conversation, at its limit of 3, or scores below 70';
  const pool = createPool(server.databaseUrl, 1);
  const store = new PostgresEventStore(pool, server.databaseUrl);
  await store.append(
    streams.matchRun(first.requestId),
    [
      {
        id: randomUUID(),
        type: 'MatchRunCompleted',
        data: { requestId: first.requestId, agentId: first.agentId, matchIds: [], note },
        metadata: { actor: { kind: 'system', name: 'matcher' }, correlationId: 'e2e', causationId: null },
      },
    ],
    0,
  );
  await store.close();
  await pool.end();
  await expect(card.getByTestId('match-run')).toHaveText(note);

  // Asked again with nothing to answer: after the wait, the card says so instead of spinning for ever.
  await ask();
  await expect(card.getByTestId('match-run')).toHaveText('Matching…');
  await page.clock.fastForward('00:21');
  await expect(card.getByTestId('match-run')).toHaveText('The matcher has not answered; automation may be off');
  await expect(card.getByRole('button', { name: 'Match' })).toBeEnabled();
  // After a reload too: the lead's unanswered run is not shown as still matching.
  await page.reload();
  await expect(page.getByTestId('lead-card').first().getByTestId('match-run')).toHaveText(
    'The matcher has not answered; automation may be off',
  );
});
