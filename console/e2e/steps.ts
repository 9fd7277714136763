import { expect, type Page } from '@playwright/test';

/** A new user with demo data, on the first conversation's page. Returns the conversation's id. */
export async function openSeededConversation(page: Page): Promise<number> {
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await page.goto('/conversations');
  await page.getByTestId('conversation-card').first().click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

/**
 * The console's "logged out" toast lives only for the 500 ms before its sign-in navigation. This holds that
 * navigation (GET /api/login) until the page itself has reported the toast: a binding called from a
 * MutationObserver, because a locator check waits for the held navigation to finish, which on a loaded
 * machine it could start waiting for first. `watch`: the pages loaded from now on, or the page as it is.
 * `seen` resolves with the text once the toast has been shown (wrapped: an async function would wait for it).
 */
export async function holdSignInUntilToast(
  page: Page,
  text: string,
  watch: 'pages to come' | 'this page',
): Promise<{ seen: Promise<string> }> {
  let seen: (found: string) => void = () => undefined;
  const toast = new Promise<string>((resolve) => (seen = resolve));
  await page.exposeFunction('pfToastSeen', (found: string) => seen(found));
  const observe = (wanted: string) => {
    const report = () => {
      if (document.body?.innerText.includes(wanted)) (window as unknown as { pfToastSeen(t: string): void }).pfToastSeen(wanted);
    };
    new MutationObserver(report).observe(document, { subtree: true, childList: true, characterData: true });
  };
  if (watch === 'pages to come') await page.addInitScript(observe, text);
  else await page.evaluate(observe, text);
  await page.route('**/api/login', async (route) => {
    await toast;
    await route.continue();
  });
  return { seen: toast };
}
