import { expect, test, type Browser, type Page } from '@playwright/test';
import { writeNegotiation, type Negotiation } from './negotiation-fixture';
import type { ConversationView, CurrentUserView } from '@pf/events';

/**
 * The words and numbers a person reads, on every route with demo data and a finished negotiation
 * (docs/behaviour/console-layout.md, "Money and numbers"): the page's own text, read as shown, not the format
 * module's unit tests. Rates to two decimals, LTV to one, money in full in tables and grouped everywhere, no raw
 * ids beside names, status badges capitalised. Every breach on every route is collected, then reported at once.
 */
let page: Page;
let negotiation: Negotiation;
let seededConversation: number;

const routes = (): [string, string][] => [
  ['dashboard', '/dashboard'],
  ['agents', '/agents'],
  ['conversations', '/conversations'],
  ['conversation', `/conversations/${negotiation.conversationId}`],
  ['seeded conversation', `/conversations/${seededConversation}`],
  ['history', `/conversations/${negotiation.conversationId}/history`],
  ['seeded history', `/conversations/${seededConversation}/history`],
  ['deals', '/deals'],
  ['documents', '/documents'],
  ['matching', '/matching'],
  ['analytics', '/analytics'],
  ['market', '/market'],
  ['notifications', '/notifications'],
  ['settings', '/settings'],
  ['system', '/system'],
  ['not-found', '/no-such-page'],
];

async function settled(page: Page) {
  await expect(page.locator('.pf-page-spinner, .bp6-spinner')).toHaveCount(0);
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
}

/** A percentage and the words just before it ("Rate 4.90%", "LTV up to 75.0%"). */
const percentages = (text: string) =>
  [...text.matchAll(/(\d+(?:\.(\d+))?)%/g)].map((m) => ({
    figure: m[0],
    decimals: m[2]?.length ?? 0,
    before: text.slice(Math.max(0, m.index - 28), m.index),
    after: text.slice(m.index + m[0].length, m.index + m[0].length + 8),
  }));

/** Words before a percentage that make it a share, a score or a change rather than an interest rate. */
const NOT_A_RATE = /success|completion|conversion|score|share|from last|progress|win|accept|aprc|ltv|of (?:the )?deals|matched|\bcpu\b/i;

/**
 * The page's text as shown, without what people and agents said in their own words (message bodies, and the
 * quotations “…” of them in History): those are quoted as written, not figures the console formats.
 */
async function shownText(page: Page): Promise<string> {
  const text = await page.evaluate(() => {
    const said = [...document.querySelectorAll<HTMLElement>('.pf-message-body, .pf-history-thread li')];
    const before = said.map((e) => e.style.display);
    said.forEach((e) => (e.style.display = 'none'));
    const shown = document.body.innerText;
    said.forEach((e, i) => (e.style.display = before[i]!));
    return shown;
  });
  return text.replace(/“[^”]*”/g, '“…”');
}

/** What the text of one route breaks of the house style. */
async function breaches(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  const text = await shownText(page);
  for (const p of percentages(text)) {
    // A band's bounds ("LTV band 60–75%") are its name, not a figure.
    if (/\d[–-]$/.test(p.before)) continue;
    const context = `${p.before}${p.figure}${p.after}`.replace(/\s+/g, ' ');
    if (/LTV|loan to value/i.test(p.before.slice(-16)) || /^\s*LTV/.test(p.after)) {
      if (p.decimals !== 1) found.push(`${label}: an LTV not to one decimal: "${context}"`);
    } else if (/rate\b|\bat\s*$|Rate\s*$/i.test(p.before) && !NOT_A_RATE.test(p.before)) {
      if (p.decimals !== 2) found.push(`${label}: a rate not to two decimals: "${context}"`);
    }
    if (p.decimals > 2) found.push(`${label}: a percentage with ${p.decimals} decimals: "${context}"`);
  }
  for (const m of text.matchAll(/£\d{4,}/g)) found.push(`${label}: money without its thousands separators: "${m[0]}"`);
  for (const m of text.matchAll(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}|\([0-9a-f]{8}\)|[0-9a-f]{8}-…/gi)) {
    found.push(`${label}: a raw id on the page: "${text.slice(Math.max(0, m.index - 30), m.index + m[0].length)}"`);
  }
  for (const table of await page.locator('table, [role="table"]').allInnerTexts()) {
    for (const m of table.matchAll(/£\d+(?:\.\d+)?(?:k|m|bn)\b/g)) found.push(`${label}: compact money in a table: "${m[0]}"`);
  }
  for (const tag of await page.locator('main .bp6-tag').allInnerTexts()) {
    if (/^[a-z]/.test(tag.trim())) found.push(`${label}: a badge not capitalised: "${tag.trim()}"`);
  }
  for (const placeholder of await page
    .locator('input[placeholder], textarea[placeholder]')
    .evaluateAll((inputs) =>
      inputs.map((i) => `${(i as HTMLInputElement).placeholder}|${getComputedStyle(i, '::placeholder').fontFamily}`),
    )) {
    const [words, font] = placeholder.split('|');
    if (/mono/i.test(font ?? '')) found.push(`${label}: a placeholder in a monospace font: "${words}"`);
  }
  return found;
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(90_000);
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  const me = (await (await page.request.get('/api/auth/user')).json()) as CurrentUserView;
  negotiation = await writeNegotiation(process.env.E2E_DATABASE_URL!, me.id, 3_600_000 + Math.floor(Math.random() * 1000) * 10);
  const list = (await (await page.request.get('/api/conversations')).json()) as ConversationView[];
  seededConversation = list.find((c) => c.id !== negotiation.conversationId)!.id;
  await expect.poll(async () => (await page.request.get(`/api/conversations/${negotiation.conversationId}`)).status()).toBe(200);
});

test.afterAll(async () => {
  await page?.context().close();
});

test('every route writes rates to two decimals, LTV to one, money grouped and in full in tables, names without ids, badges capitalised', async () => {
  test.setTimeout(240_000);
  const found: string[] = [];
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const [name, path] of routes()) {
      await page.goto(path);
      await settled(page);
      found.push(...(await breaches(page, `${name} ${size.width}`)));
    }
    for (const tab of ['Preferences', 'Agent Defaults', 'Security', 'Members']) {
      await page.goto('/settings');
      await settled(page);
      await page.getByRole('tab', { name: tab }).click();
      await settled(page);
      found.push(...(await breaches(page, `settings ${tab} ${size.width}`)));
    }
    for (const tab of ['Deal Performance', 'Agent Analysis', 'Market Trends']) {
      await page.goto('/analytics');
      await settled(page);
      const control = page.getByRole('tab', { name: tab });
      if ((await control.count()) === 0) continue;
      await control.click();
      await settled(page);
      found.push(...(await breaches(page, `analytics ${tab} ${size.width}`)));
    }
  }
  expect(found).toEqual([]);
});

test('the offers of a negotiation read as a person checks them: rates to two decimals in the thread and the timeline', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/conversations/${negotiation.conversationId}`);
  await settled(page);
  const accepted = page.getByTestId('offer-card').last();
  await expect(accepted).toContainText('Rate4.60%');
  await expect(accepted).toContainText('Loan£236,000');
  await page.goto(`/conversations/${negotiation.conversationId}/history`);
  await settled(page);
  await expect(page.locator('svg.pf-timeline').getByTestId('lane-interestRate').getByTestId('offer-value')).toContainText(['4.60%']);
});

test('Agent Defaults shows its amounts in pounds with separators, and saves what it shows', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/settings');
  await settled(page);
  await page.getByRole('tab', { name: 'Agent Defaults' }).click();
  const minimum = page.getByLabel('Minimum loan amount');
  await expect(minimum).toHaveValue(/^£\d{1,3}(,\d{3})*$/);
  await expect(page.getByLabel('Maximum loan amount')).toHaveValue(/^£\d{1,3}(,\d{3})*$/);
  await minimum.fill('75000');
  await minimum.blur();
  await expect(minimum).toHaveValue('£75,000');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Agent defaults updated')).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Agent Defaults' }).click();
  await expect(page.getByLabel('Minimum loan amount')).toHaveValue('£75,000');
});

test("signed out: the sign-in page greets in the specification's words, and the 404 page leads back", async ({ browser }) => {
  const visitor = await (await browser.newContext()).newPage();
  try {
    await visitor.goto('/sign-in');
    await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(visitor.getByText('Welcome to the product')).toHaveCount(0);
  } finally {
    await visitor.context().close();
  }
  await page.goto('/no-such-page');
  const back = page.getByRole('link', { name: /dashboard/i });
  await expect(back).toBeVisible();
  await back.click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
