import { expect, test, type Page } from '@playwright/test';
import { axeResults } from './axe';
import { startE2eServer, type E2eServer } from './server';

/**
 * An invitation, as a colleague meets it (docs/decisions/firms-and-visibility.md, "Firms"): the admin creates the
 * link in Settings → Members and copies it; the colleague opens it in a browser that has never signed in, reads
 * whom it is from, for which firm and role, and starts and joins in one press, with nothing logged as an error
 * and no 401 before signing in. The link works once; a pending invitation can be revoked, and its link then says so.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'off' });
});
test.afterAll(async () => {
  await server?.stop();
});

/** Errors the browser logs, and answers of 401, from now on. */
function watchForErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() === 401) errors.push(`401 from ${response.url()}`);
  });
  page.on('websocket', (socket) => errors.push(`a socket opened to ${socket.url()}`));
  return errors;
}

async function adminOfHarbour(page: Page) {
  await page.goto('/api/login');
  expect((await page.request.put('/api/auth/profile', { data: { firstName: 'Ada', lastName: 'Admin' } })).status()).toBe(200);
  expect((await page.request.put('/api/firm', { data: { name: 'Harbour Mortgages' } })).status()).toBe(200);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Members' }).click();
}

async function createLink(admin: Page, role: 'operator' | 'auditor'): Promise<string> {
  await admin.getByLabel('Role of the invited colleague').selectOption(role);
  await admin.getByRole('button', { name: 'Create invitation link' }).click();
  await expect(admin.getByTestId('invite-link')).toContainText(`Invitation for an ${role === 'operator' ? 'Operator' : 'Auditor'}`);
  return admin.getByLabel('Invitation link').inputValue();
}

test('a signed-out colleague reads the invitation, starts and joins in one press with no error logged, and the link then works no more', async ({
  browser,
}) => {
  const adminContext = await browser.newContext({ baseURL: server.url });
  await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const admin = await adminContext.newPage();
  await adminOfHarbour(admin);
  expect((await admin.request.post('/api/agents', { data: { name: 'Harriet Cole', type: 'borrower' } })).status()).toBe(201);
  const link = await createLink(admin, 'operator');
  expect(link).toMatch(new RegExp(`^${server.url}/join/[\\w-]+$`));
  await admin.getByRole('button', { name: 'Copy link' }).click();
  await expect(admin.getByText('Invitation link copied')).toBeVisible();
  expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(admin.getByTestId('pending-invite')).toHaveCount(1);
  await expect(admin.getByTestId('pending-invite')).toContainText('Operator');
  await expect(admin.getByTestId('pending-invite')).toContainText('Ada Admin');

  // A browser that has never signed in: the invitation in words, then one press.
  const colleague = await (await browser.newContext({ baseURL: server.url })).newPage();
  const errors = watchForErrors(colleague);
  await colleague.goto(link);
  await expect(colleague.getByTestId('invitation')).toContainText('Ada Admin invites you to join Harbour Mortgages as Operator.');
  await expect(colleague.getByTestId('invitation')).toContainText('No registration needed');
  expect((await axeResults(colleague)).violations.map((v) => v.id)).toEqual([]);
  expect(errors).toEqual([]);
  await colleague.getByRole('button', { name: 'Start and join Harbour Mortgages' }).click();
  await expect(colleague.getByTestId('joined')).toContainText('You joined Harbour Mortgages');
  await expect(colleague.getByTestId('joined')).toContainText('Your role: Operator');
  await expect(colleague).toHaveURL(link);
  expect(errors).toEqual([]);
  await colleague.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(colleague).toHaveURL(/\/dashboard$/);
  await colleague.goto('/agents');
  await expect(colleague.getByText('Harriet Cole')).toBeVisible();

  // The admin's Members tab lists the colleague with their role; the used invitation is no longer pending.
  await admin.reload();
  await admin.getByRole('tab', { name: 'Members' }).click();
  await expect(admin.getByTestId('member-row')).toHaveCount(2);
  await expect(admin.getByTestId('member-row').filter({ hasNotText: 'You' }).locator('select')).toHaveValue('operator');
  await expect(admin.getByTestId('pending-invites')).toHaveCount(0);

  // Used once: another browser opening the same link is told so at once, before signing in.
  const stranger = await (await browser.newContext({ baseURL: server.url })).newPage();
  await stranger.goto(link);
  await expect(stranger.getByText('This invitation link has already been used; ask for a new one')).toBeVisible();
  expect((await stranger.request.get('/api/auth/user')).status()).toBe(401);
});

test('a revoked invitation leaves the pending list and its link says it was withdrawn', async ({ browser }) => {
  const admin = await (await browser.newContext({ baseURL: server.url })).newPage();
  await adminOfHarbour(admin);
  const kept = await createLink(admin, 'operator');
  const revoked = await createLink(admin, 'auditor');
  await expect(admin.getByTestId('pending-invite')).toHaveCount(2);
  await admin
    .getByTestId('pending-invite')
    .filter({ hasText: 'Auditor' })
    .getByRole('button', { name: /^Revoke/ })
    .click();
  await expect(admin.getByTestId('pending-invite')).toHaveCount(1);
  await expect(admin.getByTestId('pending-invite')).toContainText('Operator');

  const visitor = await (await browser.newContext({ baseURL: server.url })).newPage();
  await visitor.goto(revoked);
  await expect(visitor.getByText('This invitation has been withdrawn by the firm; ask for a new one')).toBeVisible();
  await expect(visitor.getByRole('button', { name: /join/i })).toHaveCount(0);
  await visitor.goto(kept);
  await expect(visitor.getByTestId('invitation')).toContainText('as Operator.');
});

test('a colleague whose account has a password signs in with it from the invitation and joins', async ({ browser }) => {
  const admin = await (await browser.newContext({ baseURL: server.url })).newPage();
  await adminOfHarbour(admin);
  const link = await createLink(admin, 'operator');

  const email = `colleague.${Date.now()}@example.co.uk`;
  const password = 'a colleague’s long password';
  const home = await (await browser.newContext({ baseURL: server.url })).newPage();
  await home.goto('/api/login');
  expect((await home.request.put('/api/auth/password', { data: { email, password, confirm: password } })).status()).toBe(200);

  // At work, on a browser that has never signed in.
  const work = await (await browser.newContext({ baseURL: server.url })).newPage();
  const errors = watchForErrors(work);
  await work.goto(link);
  await work.getByRole('button', { name: 'Sign in with your password' }).click();
  await expect(work).toHaveURL(/\/sign-in\?next=/);
  expect(errors).toEqual([]);
  await work.getByLabel('Email', { exact: true }).fill(email);
  await work.getByLabel('Password', { exact: true }).fill(password);
  await work.getByRole('button', { name: 'Sign in' }).click();
  await expect(work.getByTestId('joined')).toContainText('You joined Harbour Mortgages');
  expect(errors).toEqual([]);
});
