import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { axeResults } from './axe';
import { writeNegotiation, type Negotiation } from './negotiation-fixture';
import { consoleDir } from './server';
import type { ConversationView, CurrentUserView } from '@pf/events';

/**
 * Accessibility and layout as tests, on the shared server, signed in with demo data and a long conversation (200
 * messages more): axe-core (every rule it runs by default, none disabled) over every route at desktop (1440×900)
 * and phone (390×844) size with no violation; no route wider than the screen at 390 px or 320 px. One page is
 * reused for every route and size.
 */
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 320, height: 640 };

let page: Page;
let negotiation: Negotiation;
let long: Negotiation;
let seededConversation: number;

const SIGNED_IN_ROUTES = (): [string, string][] => [
  ['dashboard', '/dashboard'],
  ['agents', '/agents'],
  ['conversations', '/conversations'],
  ['conversation', `/conversations/${negotiation.conversationId}`],
  ['seeded conversation', `/conversations/${seededConversation}`],
  ['history', `/conversations/${negotiation.conversationId}/history`],
  ['long conversation', `/conversations/${long.conversationId}`],
  ['long history', `/conversations/${long.conversationId}/history`],
  ['deals', '/deals'],
  ['documents', '/documents'],
  ['matching', '/matching'],
  ['analytics', '/analytics'],
  ['market', '/market'],
  ['notifications', '/notifications'],
  ['settings', '/settings'],
  ['system', '/system'],
  ['conversation-invalid', '/conversations/abc'],
  ['conversation-missing', '/conversations/999999'],
  ['not-found', '/no-such-page'],
  ['role picker', '/auth'],
];

/** Waits until the route has drawn its content: no spinner, no "Loading...". */
async function settled(page: Page) {
  await expect(page.locator('.pf-page-spinner, .bp6-spinner')).toHaveCount(0);
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
}

async function violationsOf(page: Page, label: string): Promise<string[]> {
  const result = await axeResults(page);
  return result.violations.map(
    (v) =>
      `${label}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 4)
        .join(' | ')}`,
  );
}

/** How far the page is wider than the screen, and the innermost elements that reach past its right edge. */
async function overflowOf(page: Page): Promise<{ by: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const by = document.documentElement.scrollWidth - width;
    const past = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width + 1);
    const innermost = past.filter((e) => !past.some((other) => other !== e && e.contains(other)));
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${[...e.classList].map((c) => `.${c}`).join('')}`;
    return { by, culprits: innermost.slice(0, 4).map((e) => `${e.parentElement ? name(e.parentElement) + ' > ' : ''}${name(e)}`) };
  });
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(60_000);
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  const me = (await (await page.request.get('/api/auth/user')).json()) as CurrentUserView;
  const base = 2_600_000 + Math.floor(Math.random() * 1000) * 10;
  negotiation = await writeNegotiation(process.env.E2E_DATABASE_URL!, me.id, base);
  long = await writeNegotiation(process.env.E2E_DATABASE_URL!, me.id, base + 5, 200);
  const list = (await (await page.request.get('/api/conversations')).json()) as ConversationView[];
  seededConversation = list.find((c) => c.id !== negotiation.conversationId && c.id !== long.conversationId)!.id;
  for (const id of [negotiation.conversationId, long.conversationId]) {
    await expect.poll(async () => (await page.request.get(`/api/conversations/${id}`)).status()).toBe(200);
  }
});

test.afterAll(async () => {
  await page?.context().close();
});

test('axe-core finds no violation on any route, signed out or in, at desktop and phone size', async ({ browser }) => {
  // 44 scans of up to ten seconds each on a loaded two-core machine (a 200-message History is the slowest).
  test.setTimeout(720_000);
  const found: string[] = [];
  for (const size of [DESKTOP, PHONE]) {
    const visitor = await (await browser.newContext({ viewport: size })).newPage();
    try {
      await visitor.goto('/');
      await expect(visitor.getByRole('button', { name: 'Start Your Journey' })).toBeVisible();
      found.push(...(await violationsOf(visitor, `landing ${size.width}`)));
    } finally {
      await visitor.context().close();
    }
    await page.setViewportSize(size);
    for (const [name, path] of SIGNED_IN_ROUTES()) {
      await page.goto(path);
      await settled(page);
      found.push(...(await violationsOf(page, `${name} ${size.width}`)));
    }
  }
  expect(found).toEqual([]);
});

test('no route is wider than a phone at 390 px or 320 px', async () => {
  test.setTimeout(120_000);
  const wide: string[] = [];
  for (const size of [SMALL_PHONE, PHONE]) {
    await page.setViewportSize(size);
    for (const [name, path] of SIGNED_IN_ROUTES()) {
      await page.goto(path);
      await settled(page);
      const overflow = await overflowOf(page);
      if (overflow.by > 0) wide.push(`${name} at ${size.width} px: ${overflow.by} px too wide (${overflow.culprits.join(', ')})`);
    }
  }
  expect(wide).toEqual([]);
});

const SCREENSHOTS = path.resolve(consoleDir, '..', 'test-results', 'screenshots');

/** A screenshot attached to the test report and written to test-results/screenshots/ (a stable place to look). */
async function keep(target: Page | Locator, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await target.screenshot({ path: file, animations: 'disabled' });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

test('the thread reads at a glance: sides and colours, who wrote each message, offers as cards with what became of them', async () => {
  for (const [size, label] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(`/conversations/${negotiation.conversationId}`);
    await settled(page);
    const thread = page.locator('.pf-thread');
    // A finished conversation says how it ended, and is not "Live".
    await expect(page.getByText('Completed: terms agreed')).toBeVisible();
    await expect(thread.getByText('Live', { exact: true })).toHaveCount(0);

    const cards = thread.getByTestId('offer-card');
    await expect(cards).toHaveCount(negotiation.offers.length);
    const statuses = negotiation.offers.map((o) => o.status.charAt(0).toUpperCase() + o.status.slice(1));
    await expect(cards.getByTestId('offer-status')).toHaveText(statuses);
    // The accepted offer's terms, in the one money style.
    await expect(cards.last()).toContainText('Rate4.60%');
    await expect(cards.last()).toContainText('Loan£236,000');
    await expect(cards.last()).toContainText('Term25 years');
    await expect(cards.last()).toContainText('Fee£999');

    // Each message names its agent and says whether the agent or a person wrote it.
    const fromLender = thread.getByTestId('message').filter({ hasText: 'Good morning' });
    await expect(fromLender).toContainText(negotiation.lender.name);
    await expect(fromLender.getByTestId('author')).toHaveText('Agent');
    const fromPerson = thread.getByTestId('message').filter({ hasText: negotiation.personSaid });
    await expect(fromPerson).toContainText(negotiation.borrower.name);
    await expect(fromPerson.getByTestId('author')).toContainText('Person: ');
    // The person's own offer is marked as theirs too.
    await expect(thread.getByTestId('offer').nth(3).getByTestId('author')).toContainText('Person: ');

    // Borrower on the left, lender on the right, each in its own colour.
    const fromBorrower = thread.getByTestId('message').filter({ hasText: 'That is above what I can take on' });
    const [left, right] = [await fromBorrower.boundingBox(), await fromLender.boundingBox()];
    expect(left!.x).toBeLessThan(right!.x);
    expect(right!.x + right!.width).toBeGreaterThan(left!.x + left!.width);
    const background = (l: Locator) => l.evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await background(fromBorrower)).not.toBe(await background(fromLender));

    await thread.scrollIntoViewIfNeeded();
    await keep(thread, `thread-${label}`);
  }
});

test('the timeline an auditor can use: unique ticks, values at points and on focus, the takeover named, the scrubber by keyboard', async () => {
  for (const [size, label] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(`/conversations/${negotiation.conversationId}/history`);
    await settled(page);
    const chart = page.locator('svg.pf-timeline');
    await expect(chart).toBeVisible();

    const ticks = await chart.getByTestId('axis-tick').allTextContents();
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ticks).size, `axis labels repeat: ${ticks.join(', ')}`).toBe(ticks.length);

    // Every line shows values at its points: the first and last of each side at least.
    for (const lane of ['interestRate', 'loanAmount', 'termYears', 'arrangementFee']) {
      await expect(chart.getByTestId(`lane-${lane}`).getByTestId('offer-value').first()).toBeVisible();
    }
    await expect(chart.getByTestId('lane-interestRate').getByTestId('offer-value')).toContainText(['4.60%']);
    // A point taken by the keyboard shows its value (the lender's middle offer, 4.90%).
    const middle = chart.getByRole('img', { name: new RegExp(`^${negotiation.lender.name}, Rate 4\\.90%`) });
    await middle.focus();
    await expect(middle.getByTestId('offer-value')).toHaveText('4.90%');

    const me = (await (await page.request.get('/api/auth/user')).json()) as CurrentUserView;
    const takeover = chart.getByTestId('takeover-span');
    await expect(takeover).toHaveCount(1);
    await expect(takeover).toContainText('Taken over by');
    if (me.firstName) await expect(takeover).toContainText(me.firstName);

    // The standing offers and the thread below them do not overlap.
    const table = await page.getByTestId('offers-at').boundingBox();
    const threadHeading = await page.getByRole('heading', { name: /^Thread \(/ }).boundingBox();
    expect(table!.y + table!.height).toBeLessThanOrEqual(threadHeading!.y);

    // The scrubber moves by keyboard.
    const moment = page.getByTestId('moment');
    const before = Number((await moment.textContent())!.match(/Event (\d+) of/)![1]);
    await page.getByRole('slider', { name: 'Moment in the history (use the arrow keys)' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(moment).toContainText(`Event ${before - 1} of`);

    await keep(page.locator('.pf-history-timeline'), `timeline-${label}`);
  }
});

/** Moves the keyboard focus with Tab alone until it reaches the target (at most 80 presses). */
async function tabTo(page: Page, target: Locator, what: string) {
  await expect(target, what).toBeAttached();
  for (let presses = 0; presses < 80; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

test('by keyboard alone: take over your side, send a message as your agent and make a structured offer', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`/conversations/${seededConversation}`);
  await settled(page);
  await expect(page.getByText('Active conversation', { exact: true })).toBeVisible();
  await page.locator('body').focus();

  const manual = page.getByLabel('Manual Mode');
  await tabTo(page, manual, 'the Manual Mode switch');
  await page.keyboard.press('Space');
  await expect(page.getByText('Mode Updated: Switched to manual mode')).toBeVisible();
  await expect(manual).toBeChecked();

  const said = 'Speaking for my side from the keyboard: could you do 4.3% over 25 years?';
  const box = page.getByRole('textbox', { name: 'Message' });
  await tabTo(page, box, 'the message box');
  await page.keyboard.type(said);
  await page.keyboard.press('Enter');
  const sent = page.getByTestId('message').filter({ hasText: said });
  await expect(sent).toBeVisible();
  await expect(sent.getByTestId('author')).toContainText('Person: ');

  // A structured offer from the Make offer form, field by field.
  await tabTo(page, page.getByRole('button', { name: 'Make offer' }), 'the Make offer button');
  await page.keyboard.press('Enter');
  const form = page.getByTestId('make-offer');
  for (const [label, value] of [
    ['Loan', '£315k'],
    ['Rate (%)', '4.35'],
    ['Term (years)', '25'],
    ['Fee', '£999'],
  ] as const) {
    await tabTo(page, form.getByLabel(label), `the offer's ${label}`);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(value);
  }
  await tabTo(page, form.getByRole('button', { name: 'Send offer' }), 'Send offer');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('message').filter({ hasText: 'Offer made: £315,000 at 4.35% over 25 years, £999 fee' })).toBeVisible();
  const offered = page.getByTestId('offer').last();
  await expect(offered.getByTestId('offer-status')).toHaveText('Open');
  await expect(offered).toContainText('Loan£315,000');
  await expect(offered.getByTestId('author')).toContainText('Person: ');

  // And back to the agent, still by keyboard.
  await tabTo(page, manual, 'the Manual Mode switch again');
  await page.keyboard.press('Space');
  await expect(page.getByText(/Switched to automatic mode/)).toBeVisible();
  await expect(manual).not.toBeChecked();
});
