import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { axeResults } from './axe';

/**
 * Sign-in that locks when asked to (docs/behaviour/sign-in.md, docs/decisions/sign-in-secrets.md): a person protects
 * the account with a password and an authenticator app, logs out, presses Get Started and is asked for both; a
 * wrong password or code is refused in words; with both, they are back in their own account. The codes are
 * computed here from the key the page shows, as an authenticator app would (RFC 6238: SHA-1, 6 digits, 30 s).
 */
const appFor = (secret: string) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
/** A code that is none of the three the server accepts now (the last digits moved by half the code space). */
const wrong = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

/** axe-core's violations on the page as it stands (rule and where), none expected. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await axeResults(page);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

async function securityTab(page: Page) {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
}

test('a protected account asks for its password and code after Log out, refuses wrong ones in words, and lets its owner back in', async ({
  page,
}) => {
  const email = `imogen.${Date.now()}@example.co.uk`;
  const password = 'correct horse battery staple';
  await page.goto('/api/login');
  await page.getByTestId('role-lender').getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };

  await securityTab(page);
  await expect(page.getByTestId('log-out-means')).toContainText(
    'anyone who presses Get Started here afterwards is signed back in as you, without a password',
  );
  const form = page.getByTestId('password-form');
  await expect(form.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  await form.getByLabel('Sign-in email').fill(email);
  await form.getByLabel('New password', { exact: true }).fill('too short');
  await form.getByLabel('Confirm new password').fill('too short');
  await form.getByRole('button', { name: 'Set Password' }).click();
  await expect(form).toContainText('New password must be at least 12 characters');
  await form.getByLabel('New password', { exact: true }).fill(password);
  await form.getByLabel('Confirm new password').fill(`${password}!`);
  await form.getByRole('button', { name: 'Set Password' }).click();
  await expect(form).toContainText('The passwords do not match');
  await form.getByLabel('Confirm new password').fill(password);
  await form.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByTestId('log-out-means')).toContainText('Your account is protected');
  await expect(form.getByLabel('Current password')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Two-factor on: the QR code and its key, a wrong code refused, the right one turns it on and shows the recovery codes once.
  await page.getByTestId('two-factor').getByText('Two-factor authentication', { exact: true }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const app = appFor((await dialog.getByTestId('totp-secret').textContent())!.trim());
  await dialog.getByLabel('Code from your app').fill(wrong(app.generate()));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  await expect(dialog).toContainText('That code is not right');
  await dialog.getByLabel('Code from your app').fill(app.generate());
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await expect(codes.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await codes.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect(page.getByTestId('log-out-means')).toContainText('and a code from your authenticator app');

  // Log out, then Get Started on the same browser: asked to sign in, not let back in.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: 'Get Started' }).first().click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  expect(await axeViolations(page)).toEqual([]);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('sign-in-problem')).toContainText('The email or password is not right');
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);

  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.getByLabel('Authentication code').fill(wrong(app.generate()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('sign-in-problem')).toContainText('That code is not right');
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);

  // The code of the next step (the one that turned two-factor on has been used, and a code works once).
  await page.getByLabel('Authentication code').fill(app.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByTestId('role-lender').getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(((await (await page.request.get('/api/auth/user')).json()) as { id: string }).id).toBe(me.id);
});
