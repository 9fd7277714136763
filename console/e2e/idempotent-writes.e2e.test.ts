import { expect, test, type Page, type Route } from '@playwright/test';

// docs/decisions/idempotency-keys.md: every write the console sends carries an Idempotency-Key, and a retry of a
// write whose answer was lost gets the first answer back, "and nothing is appended twice". Here the server
// handles the create and its answer is lost on the way back (the route fetches it from the server, then fails the
// browser's request as a dropped connection would); whoever retries, the client or the person, one agent exists.

/** Loses the answers to the first `lost` creations the server handled; returns the keys the server was sent. */
async function loseCreateAnswers(page: Page, lost: number): Promise<string[]> {
  const keys: string[] = [];
  await page.route('**/api/agents', async (route: Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    keys.push((await route.request().headerValue('idempotency-key')) ?? 'none');
    if (keys.length > lost) return route.continue();
    await route.fetch();
    return route.abort('connectionreset');
  });
  return keys;
}

async function createAgent(page: Page, name: string) {
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Type', { exact: true }).selectOption('lender');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  return dialog;
}

const cards = (page: Page, name: string) => page.getByTestId('agent-card').filter({ hasText: name });

test('a create whose answer the network lost is sent again by the console with its key, and makes one agent', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/agents');
  await expect(page.getByText('No agents yet')).toBeVisible();
  const keys = await loseCreateAnswers(page, 1);

  const dialog = await createAgent(page, 'Harbour Lending Desk');
  await expect(page.getByText('Success: Agent created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);

  await expect(cards(page, 'Harbour Lending Desk')).toHaveCount(1);
  await page.reload();
  await expect(cards(page, 'Harbour Lending Desk')).toHaveCount(1);
});

test('when every attempt is lost, the person is told trying again is safe, and pressing Create again makes one agent', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/agents');
  await expect(page.getByText('No agents yet')).toBeVisible();
  // The console's own attempts (three) all lose their answers; the person's retry gets through.
  const keys = await loseCreateAnswers(page, 3);

  const dialog = await createAgent(page, 'Quayside Mortgages');
  await expect(page.getByText(/it will not be done twice/)).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expect(page.getByText('Success: Agent created successfully')).toBeVisible();
  expect(keys).toHaveLength(4);
  expect(new Set(keys).size).toBe(1);

  await page.reload();
  await expect(cards(page, 'Quayside Mortgages')).toHaveCount(1);
  await expect(page.getByTestId('agent-card')).toHaveCount(1);
});
