import { expect, test } from '@playwright/test';
import { startE2eServer, type E2eServer } from './server';

/**
 * An invitation, as a colleague meets it (docs/decisions/firms-and-visibility.md, "Firms"): the admin creates the
 * link in Settings → Members; the colleague opens it in a browser that has never signed in, signs in, picks a
 * role, and lands on the invitation (not the dashboard), joins, and reads the firm's agents as their own. The
 * link works once.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'off' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('a colleague who opens an invitation signed out joins the firm once signed in, and the link then works no more', async ({
  browser,
}) => {
  const admin = await (await browser.newContext({ baseURL: server.url })).newPage();
  await admin.goto('/api/login');
  expect((await admin.request.put('/api/auth/profile', { data: { firstName: 'Ada', lastName: 'Admin' } })).status()).toBe(200);
  expect((await admin.request.put('/api/firm', { data: { name: 'Harbour Mortgages' } })).status()).toBe(200);
  const created = await admin.request.post('/api/agents', { data: { name: 'Harriet Cole', type: 'borrower' } });
  expect(created.status()).toBe(201);

  await admin.goto('/settings');
  await admin.getByRole('tab', { name: 'Members' }).click();
  await admin.getByLabel('Role of the invited colleague').selectOption('operator');
  await admin.getByRole('button', { name: 'Create invitation link' }).click();
  await expect(admin.getByTestId('invite-link')).toContainText('Invitation for an Operator');
  const link = await admin.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(new RegExp(`^${server.url}/join/[\\w-]+$`));

  // A browser that has never signed in: told so, sent to sign in and to the role picker, then to the invitation.
  const colleague = await (await browser.newContext({ baseURL: server.url })).newPage();
  await colleague.goto(link);
  await expect(colleague).toHaveURL(/\/auth$/);
  await colleague.getByTestId('role-lender').getByRole('button', { name: 'Get Started' }).click();
  await expect(colleague).toHaveURL(link);
  await expect(colleague.getByTestId('joined')).toContainText('You joined Harbour Mortgages');
  await expect(colleague.getByTestId('joined')).toContainText('Your role: Operator');
  await colleague.getByRole('button', { name: 'Go to the dashboard' }).click();
  await expect(colleague).toHaveURL(/\/dashboard$/);
  await colleague.goto('/agents');
  await expect(colleague.getByText('Harriet Cole')).toBeVisible();

  // The admin's Members tab lists the colleague with their role.
  await admin.reload();
  await admin.getByRole('tab', { name: 'Members' }).click();
  await expect(admin.getByTestId('member-row')).toHaveCount(2);
  await expect(admin.getByTestId('member-row').filter({ hasNotText: 'You' }).locator('select')).toHaveValue('operator');

  // Used once: a third browser opening the same link is told so after signing in.
  const stranger = await (await browser.newContext({ baseURL: server.url })).newPage();
  await stranger.goto(link);
  await expect(stranger).toHaveURL(/\/auth$/);
  await stranger.getByTestId('role-borrower').getByRole('button', { name: 'Get Started' }).click();
  await expect(stranger.getByTestId('join-error')).toContainText('This invitation link has already been used; ask for a new one');
  // The remembered link is used once: the next choice of role leads to the dashboard.
  await stranger.goto('/auth');
  await stranger.getByTestId('role-borrower').getByRole('button', { name: 'Get Started' }).click();
  await expect(stranger).toHaveURL(/\/dashboard$/);
});
