import { expect, test, type BrowserContext } from '@playwright/test';
import pg from 'pg';
import { startE2eServer, type E2eServer } from './server';
import { holdSignInUntilToast } from './steps';
import type { CurrentUserView, SessionView } from '@pf/events';

/** A second browser window of the same person: the device identity copied over, then a sign-in of its own. */
async function sameAccountElsewhere(from: BrowserContext, browser: import('@playwright/test').Browser) {
  const device = (await from.cookies()).find((cookie) => cookie.name === 'pf_device')!;
  const context = await browser.newContext();
  await context.addCookies([device]);
  const page = await context.newPage();
  await page.goto('/api/login');
  return { context, page };
}

test('Settings: the profile is validated, saved, shown in the sidebar and still there after a reload', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: 'Profile' })).toBeVisible();
  await expect(page.getByText('Coming soon')).toHaveCount(0);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Email must be an email address such as ada@example.co.uk')).toBeVisible();
  await page.getByLabel('Email').fill('ada@example.co.uk');
  await page.getByLabel('Company').fill('Analytical Engines Ltd');
  await page.getByLabel('Timezone').selectOption('Europe/Paris');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated: Your profile has been saved')).toBeVisible();
  await expect(page.locator('.pf-user-name')).toHaveText('Ada Lovelace');

  await page.reload();
  await expect(page.getByLabel('Company')).toHaveValue('Analytical Engines Ltd');
  await expect(page.getByLabel('Timezone')).toHaveValue('Europe/Paris');
  await expect(page.locator('.pf-user-name')).toHaveText('Ada Lovelace');

  // Times across the console are shown in the chosen zone: this session's start, in Paris (never London's).
  const session = ((await (await page.request.get('/api/auth/sessions')).json()) as SessionView[])[0]!;
  const inZone = (timeZone: string) =>
    new Date(session.createdAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
  expect(inZone('Europe/Paris')).not.toBe(inZone('Europe/London'));
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByTestId('session-row').locator('td').nth(1)).toHaveText(inZone('Europe/Paris'));
  // In another language, dates are written its way (the console's words stay English).
  await page.getByRole('tab', { name: 'Profile' }).click();
  await page.getByLabel('Language').selectOption('fr');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated: Your profile has been saved')).toBeVisible();
  await page.getByRole('tab', { name: 'Security' }).click();
  const inFrench = new Date(session.createdAt).toLocaleString('fr-FR', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Paris',
  });
  await expect(page.getByTestId('session-row').locator('td').nth(1)).toHaveText(inFrench);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
});

test('Settings: preferences and agent defaults are saved; the defaults pre-fill Create Agent; Billing says no provider is configured', async ({
  page,
}) => {
  await page.goto('/api/login');
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Preferences' }).click();
  // Channels nothing here can send are shown off and disabled, labelled as not connected (like Billing).
  await expect(page.getByRole('checkbox', { name: /Weekly digest/ })).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: /Weekly digest/ })).not.toBeChecked();
  await expect(page.getByText('Not connected to email')).toHaveCount(2);
  // Two changes in one moment, as a quick hand makes them: the second comes before the first has been drawn, so
  // its update is applied later, after the browser's event is over (it must not read the event then).
  await page.evaluate(() => {
    const insights = [...document.querySelectorAll('label')].find((label) => label.textContent?.startsWith('Market insights'));
    const timeout = document.querySelector<HTMLSelectElement>('#session-timeout');
    if (!insights || !timeout) throw new Error('The preferences form is not drawn');
    insights.click();
    timeout.value = '15';
    timeout.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect(page.getByLabel('Session timeout')).toHaveValue('15');
  await expect(page.getByRole('checkbox', { name: /Market insights/ })).not.toBeChecked();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Preferences updated: Your preferences have been saved')).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Preferences' }).click();
  await expect(page.getByLabel('Session timeout')).toHaveValue('15');
  await expect(page.getByRole('checkbox', { name: /Market insights/ })).not.toBeChecked();
  // The Notifications screen's Settings tab shows the same record (one source of truth).
  await page.goto('/notifications');
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByText('Agent matches', { exact: true }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Preferences' }).click();
  await expect(page.getByRole('checkbox', { name: /Agent matches/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Market insights/ })).not.toBeChecked();
  await expect(page.getByLabel('Session timeout')).toHaveValue('15');
  // Market insights off: Market Intelligence shows none, and says why.
  await page.goto('/market');
  await expect(page.getByTestId('market-insights-off')).toHaveText('Market insights are switched off in Settings → Preferences.');
  await expect(page.getByTestId('market-insights')).toHaveCount(0);
  await page.goto('/settings');

  await page.getByRole('tab', { name: 'Agent Defaults' }).click();
  await page.getByLabel('Minimum loan amount').fill('150000');
  await page.getByLabel('Maximum loan amount').fill('300000');
  await page.getByLabel('Preferred LTV (%)').fill('60');
  await page.getByLabel('Preferred term (years)').fill('20');
  await page.getByText('Buy-to-Let', { exact: true }).click();
  await page.getByText('Leeds', { exact: true }).click();
  await page.getByText('Auto-negotiate', { exact: true }).click();
  await expect(page.getByLabel('Response time')).toHaveValue('24');
  await page.getByLabel('Response time').selectOption('4');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Agent defaults updated')).toBeVisible();

  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByTestId('current-plan')).toContainText('Professional');
  await expect(page.getByTestId('current-plan')).toContainText('£49.00 per month');
  await expect(page.getByTestId('no-provider')).toContainText('No payment provider is configured for this installation');

  // £150,000 and £300,000 at 60% LTV stand for properties of £250,000 to £500,000.
  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  await expect(page.getByLabel('Property value (min)')).toHaveValue('£250,000');
  await expect(page.getByLabel('Property value (max)')).toHaveValue('£500,000');
  await expect(page.getByLabel('Loan term (max)')).toHaveValue('20 years');
  // Every other default too, written as the criteria reader reads them.
  await expect(page.getByLabel('Loan amount', { exact: true })).toHaveValue('£150,000 to £300,000');
  await expect(page.getByLabel('Maximum LTV', { exact: true })).toHaveValue('60%');
  await expect(page.getByLabel('Property type', { exact: true })).toHaveValue('residential, buy-to-let');
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('london, leeds');
  await expect(page.getByRole('checkbox', { name: /Auto-negotiate/ })).not.toBeChecked();
  await expect(page.getByText('Its conversations open with your side in manual mode')).toBeVisible();
  // The response time too: left unanswered 4 hours while negotiating by hand, the agent takes the side back.
  await expect(page.getByLabel('Response time')).toHaveValue('4');
  await expect(page.getByLabel('Response time').locator('option:checked')).toHaveText('4 hours');
});

test('Security: sessions listed with their device; a revoked one is refused at once; Delete Account signs out for good', async ({
  page,
  context,
  browser,
}) => {
  await page.goto('/api/login');
  const other = await sameAccountElsewhere(context, browser);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByTestId('session-row')).toHaveCount(2);
  await expect(page.getByTestId('session-row').filter({ hasText: 'This browser' })).toHaveCount(1);
  await expect(page.getByTestId('session-row').first()).toContainText('Chrome on Linux');

  expect((await other.page.request.get('/api/auth/user')).status()).toBe(200);
  await page.getByTestId('session-row').filter({ hasNotText: 'This browser' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  expect((await other.page.request.get('/api/auth/user')).status()).toBe(401);
  await other.context.close();

  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.getByLabel('Type DELETE to confirm').fill('DELETE');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  // The device identity went with the account: signing in again makes a new one.
  await page.goto('/api/login');
  expect(((await (await page.request.get('/api/auth/user')).json()) as CurrentUserView).firstName).toBe('Guest');
});

test.describe('the session timeout, on a server of its own (its database is changed by hand)', () => {
  let server: E2eServer;
  test.beforeAll(async () => {
    // No trust in a just-confirmed session: the next request is checked against the database.
    server = await startE2eServer({ SESSION_CACHE_MS: '0' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a session idle past the chosen timeout is refused: the console is signed out on its next request, with a message', async ({
    page,
  }) => {
    await page.goto(`${server.url}/api/login`);
    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await page.getByLabel('Session timeout').selectOption('15');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Preferences updated: Your preferences have been saved')).toBeVisible();
    const me = (await (await page.request.get(`${server.url}/api/auth/user`)).json()) as CurrentUserView;
    const before = ((await (await page.request.get(`${server.url}/api/auth/sessions`)).json()) as SessionView[])[0]!;

    // Its last use moved back 16 minutes, as if the person had left the console alone that long.
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query("update sessions set last_seen_at = now() - interval '16 minutes' where user_id = $1", [me.id]);
    } finally {
      await client.end();
    }

    // The toast lives only for the 500 ms before the sign-in navigation, which is held until it has been seen.
    const want = 'Unauthorized: You are logged out. Logging in again...';
    const { seen: toast } = await holdSignInUntilToast(page, want, 'this page');
    // The next request the console makes (opening Agents from the sidebar) is refused, and it signs out.
    await page.locator('.pf-sidebar').getByRole('menuitem', { name: 'My Agents' }).click();
    expect(await toast).toBe(want);
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
    // Signed in again (this browser's device brings it back to its account) with a new session: the idle one is gone.
    const after = ((await (await page.request.get(`${server.url}/api/auth/sessions`)).json()) as SessionView[])[0]!;
    expect(((await (await page.request.get(`${server.url}/api/auth/user`)).json()) as CurrentUserView).id).toBe(me.id);
    expect(after.id).not.toBe(before.id);
  });
});
