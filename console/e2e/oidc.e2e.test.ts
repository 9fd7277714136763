import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startTestProvider, type TestProvider } from '@pf/single-node/testing/oidc-provider';
import { startE2eServer, type E2eServer } from './server';

/**
 * OIDC sign-in (docs/behaviour/sign-in.md) passes a browser test against a real provider started by the test. This
 * file starts a real OpenID provider (oidc-provider, with its development sign-in and consent pages) and its own
 * single node with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET pointing at it; Chromium signs in there.
 */
const PEOPLE = {
  grace: { given_name: 'Grace', family_name: 'Hopper', email: 'grace.hopper@example.co.uk' },
  alan: { given_name: 'Alan', family_name: 'Turing', email: 'alan.turing@example.co.uk' },
};

let provider: TestProvider;
let server: E2eServer;
/** Opened by hand (one per person), so closed by hand: their pages' live sockets must not outlast the test. */
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  provider = await startTestProvider(PEOPLE);
  server = await startE2eServer(provider.settings);
  provider.register(`${server.url}/api/auth/callback`);
});
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
test.afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

/** From the landing page's call to action through the provider's pages, as a person would. */
async function signInAtProvider(page: Page, login: string, consent: 'Continue' | 'Cancel' = 'Continue'): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.getByRole('button', { name: 'Get Started' }).first().click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  if (consent === 'Continue') await page.getByRole('button', { name: 'Continue' }).click();
  else await page.getByRole('link', { name: '[ Cancel ]' }).click();
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  contexts.push(context);
  return context.newPage();
}

test('signs in at the OpenID provider as that person; the same person again finds their agents, another is another account', async ({
  browser,
}) => {
  // Three browsers, each through the provider's pages: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const page = await newPage(browser);
  await signInAtProvider(page, 'grace');
  // Lands where registration-free sign-in lands: the role picker, then the console under the provider's name.
  await expect(page).toHaveURL(`${server.url}/auth`);
  await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
  await page.getByTestId('role-lender').getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(`${server.url}/dashboard`);
  await expect(page.locator('.pf-user-name')).toHaveText('Grace Hopper');

  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Hopper Bridging Desk');
  await dialog.getByLabel('Type', { exact: true }).selectOption('lender');
  await dialog.getByPlaceholder('2.5%').fill('4.1%');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(page.getByTestId('agent-card').filter({ hasText: 'Hopper Bridging Desk' })).toBeVisible();

  // Sign out, while the creation's toast still shows (it hides nothing: Log out stays clickable); signing in again
  // in this browser passes the provider (it remembers Grace) and finds the same agent.
  await expect(page.getByText('Agent created successfully')).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(`${server.url}/`);
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await page.getByRole('button', { name: 'Get Started' }).first().click();
  await expect(page).toHaveURL(`${server.url}/auth`);
  await page.goto('/agents');
  await expect(page.getByTestId('agent-card').filter({ hasText: 'Hopper Bridging Desk' })).toBeVisible();

  // Another browser, Grace typing her login again: the same account (keyed by issuer and subject).
  const elsewhere = await newPage(browser);
  await signInAtProvider(elsewhere, 'grace');
  await expect(elsewhere).toHaveURL(`${server.url}/auth`);
  await elsewhere.goto('/agents');
  await expect(elsewhere.locator('.pf-user-name')).toHaveText('Grace Hopper');
  await expect(elsewhere.getByTestId('agent-card').filter({ hasText: 'Hopper Bridging Desk' })).toBeVisible();

  // A different person at the provider is a different account, with none of Grace's agents.
  const alan = await newPage(browser);
  await signInAtProvider(alan, 'alan');
  await expect(alan).toHaveURL(`${server.url}/auth`);
  await alan.goto('/agents');
  await expect(alan.locator('.pf-user-name')).toHaveText('Alan Turing');
  await expect(alan.getByText('No agents yet')).toBeVisible();
  await expect(alan.getByText('Hopper Bridging Desk')).toBeHidden();
});

test("cancelling at the provider's consent page ends on a clear message, signed out", async ({ browser }) => {
  const page = await newPage(browser);
  await signInAtProvider(page, 'alan', 'Cancel');
  await expect(page).toHaveURL(new RegExp(`^${server.url}/api/auth/callback\\?error=access_denied`));
  await expect(page.getByText('Sign-in was not completed at the provider: access_denied (End-User aborted interaction)')).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});
