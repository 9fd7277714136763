import { expect, test, type Browser, type Page } from '@playwright/test';
import { writeNegotiation, type Negotiation } from './negotiation-fixture';
import type { ConversationView, CurrentUserView } from '@pf/events';

/**
 * The keyboard paths (docs/behaviour/console-layout.md, "Keyboard"): the skip link as the first Tab stop, the
 * focus on what changed after taking over and after an offer, the History slider's Home, End, Page Up and Page
 * Down, and a long conversation opening at its top. Signed in with demo data, on the shared server.
 */
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let page: Page;
let negotiation: Negotiation;
let long: Negotiation;
let seededConversation: number;

async function settled(page: Page) {
  await expect(page.locator('.pf-page-spinner, .bp6-spinner')).toHaveCount(0);
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
}

const focusInMain = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    return !!main && (main === document.activeElement || main.contains(document.activeElement));
  });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(90_000);
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await page.goto('/api/login');
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  const me = (await (await page.request.get('/api/auth/user')).json()) as CurrentUserView;
  const base = 4_600_000 + Math.floor(Math.random() * 1000) * 10;
  negotiation = await writeNegotiation(process.env.E2E_DATABASE_URL!, me.id, base);
  long = await writeNegotiation(process.env.E2E_DATABASE_URL!, me.id, base + 5, 200);
  const list = (await (await page.request.get('/api/conversations')).json()) as ConversationView[];
  seededConversation = list.find((c) => c.status === 'active' && c.id !== negotiation.conversationId && c.id !== long.conversationId)!.id;
  for (const id of [negotiation.conversationId, long.conversationId]) {
    await expect.poll(async () => (await page.request.get(`/api/conversations/${id}`)).status()).toBe(200);
  }
});

test.afterAll(async () => {
  await page?.context().close();
});

test('the first Tab stop is "Skip to content", and Enter on it puts the focus in the page’s main content', async () => {
  for (const path of ['/dashboard', `/conversations/${seededConversation}`, '/settings', '/no-such-page']) {
    await page.goto(path);
    await settled(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip, `on ${path}`).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusInMain(page), `focus in main on ${path}`).toBe(true);
    await expect(skip).not.toBeFocused();
    // The next Tab goes on from the content, not back through the navigation.
    await page.keyboard.press('Tab');
    await expect.poll(() => focusInMain(page), `the next Tab stays in main on ${path}`).toBe(true);
  }
});

test('after taking over, and after handing back, the focus stays on the Manual Mode switch', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`/conversations/${seededConversation}`);
  await settled(page);
  const manual = page.getByLabel('Manual Mode');
  await manual.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText(/Switched to manual mode/)).toBeVisible();
  await expect(manual).toBeChecked();
  await expect(manual).toBeFocused();

  await page.keyboard.press('Space');
  await expect(page.getByText(/Switched to automatic mode/)).toBeVisible();
  await expect(manual).not.toBeChecked();
  await expect(manual).toBeFocused();

  // Quick Actions' Toggle Mode lands the focus on the switch it changed.
  await page.getByRole('button', { name: 'Toggle Mode' }).click();
  await expect(manual).toBeChecked();
  await expect(manual).toBeFocused();
});

test('after sending an offer the focus is on what was sent, not the page', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`/conversations/${seededConversation}`);
  await settled(page);
  const manual = page.getByLabel('Manual Mode');
  if (!(await manual.isChecked())) {
    await manual.focus();
    await page.keyboard.press('Space');
    await expect(manual).toBeChecked();
  }
  await page.getByRole('button', { name: 'Make offer' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByTestId('make-offer');
  // Opening the form puts the focus in its first figure.
  await expect(form.getByLabel('Loan')).toBeFocused();
  for (const [label, value] of [
    ['Loan', '£318k'],
    ['Rate (%)', '4.3'],
    ['Term (years)', '25'],
    ['Fee', '£999'],
  ] as const) {
    await form.getByLabel(label).fill(value);
  }
  await form.getByRole('button', { name: 'Send offer' }).focus();
  await page.keyboard.press('Enter');
  const sent = page.getByTestId('offer-sent');
  await expect(sent).toHaveText('Offer sent: £318,000 at 4.30% over 25 years, £999 fee');
  await expect(sent).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Offer sent' })).toBeVisible();
  await expect(page.getByTestId('message').filter({ hasText: 'Offer made: £318,000 at 4.3' })).toBeVisible();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);

  // Hand the side back, so the other tests find the conversation as the seed left it.
  await manual.focus();
  await page.keyboard.press('Space');
  await expect(manual).not.toBeChecked();
});

test('the History slider answers Home, End, Page Up and Page Down as well as the arrows', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`/conversations/${long.conversationId}/history`);
  await settled(page);
  const moment = page.getByTestId('moment');
  await expect(moment).toContainText(/Event \d+ of \d+/);
  const total = Number((await moment.textContent())!.match(/of (\d+)/)![1]);
  expect(total).toBeGreaterThan(200);
  const pageStep = Math.max(1, Math.round(total / 10));
  const slider = page.getByRole('slider', { name: 'Moment in the history (use the arrow keys)' });
  await slider.focus();

  await page.keyboard.press('Home');
  await expect(moment).toContainText(`Event 1 of ${total}`);
  await page.keyboard.press('PageUp');
  await expect(moment).toContainText(`Event ${1 + pageStep} of ${total}`);
  await page.keyboard.press('ArrowRight');
  await expect(moment).toContainText(`Event ${2 + pageStep} of ${total}`);
  await page.keyboard.press('PageDown');
  await expect(moment).toContainText(`Event 2 of ${total}`);
  await page.keyboard.press('PageDown');
  await expect(moment).toContainText(`Event 1 of ${total}`);
  await page.keyboard.press('End');
  await expect(moment).toContainText(`Event ${total} of ${total}`);
  await page.keyboard.press('PageUp');
  await expect(moment).toContainText(`Event ${total} of ${total}`);
  await page.keyboard.press('PageDown');
  await expect(moment).toContainText(`Event ${total - pageStep} of ${total}`);
  await page.keyboard.press('ArrowLeft');
  await expect(moment).toContainText(`Event ${total - pageStep - 1} of ${total}`);
  await expect(slider).toBeFocused();
});

test('a long conversation opens at its top: title, Back and History in view, the thread at its latest message', async () => {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`/conversations/${long.conversationId}`);
    await settled(page);
    // The fixture's six lines of negotiation and its 200 of chatter.
    await expect(page.getByTestId('message')).toHaveCount(206);
    await expect(page.getByRole('heading', { level: 1, name: long.title })).toBeInViewport();
    await expect(page.getByRole('link', { name: 'Back' })).toBeInViewport();
    await expect(page.getByRole('link', { name: 'History' })).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY), `scrolled at ${size.width} px`).toBe(0);
    // The thread's own box is scrolled to its latest message.
    const box = page.getByRole('region', { name: 'Messages and offers' });
    await expect
      .poll(() => box.evaluate((e) => Math.round(e.scrollTop + e.clientHeight - e.scrollHeight)), `thread box at ${size.width} px`)
      .toBeGreaterThanOrEqual(-2);
  }
  // What lays out later (here the screen narrowing, so every message wraps taller) keeps the reader at the latest...
  const box = page.getByRole('region', { name: 'Messages and offers' });
  const gap = () => box.evaluate((e) => Math.round(e.scrollTop + e.clientHeight - e.scrollHeight));
  const grownBy = await box.evaluate((e) => e.scrollHeight);
  await page.setViewportSize({ width: 320, height: PHONE.height });
  await expect.poll(() => box.evaluate((e) => e.scrollHeight), 'the thread wraps taller at 320 px').toBeGreaterThan(grownBy);
  await expect.poll(gap, 'thread box at 320 px').toBeGreaterThanOrEqual(-2);
  // ...but never pulls back a reader who scrolled up to read.
  await box.evaluate((e) => e.scrollTo({ top: 0 }));
  await page.setViewportSize(PHONE);
  await expect.poll(() => box.evaluate((e) => e.scrollTop), 'scrolled up, stays up').toBe(0);
});
