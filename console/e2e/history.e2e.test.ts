import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { startE2eServer, type E2eServer } from './server';
import { streams, type ConversationView, type HistoryEvent, type HistoryExport, type HistoryPage, type LoanTerms } from '@pf/events';

/**
 * The "Done when", as a new user would try it: seed demo data, let a negotiation run with one manual
 * takeover in the middle, open its history, watch events arrive live (and pause them), scrub to before the
 * takeover, filter, replay, verify the chain, then alter a stored row by hand and see the verifier name it.
 * This file runs its own single node with the automated agents on (the shared one runs without them), with
 * replies every ~5 s (room for a loaded machine) so a person (this test) can take over mid-negotiation.
 */
let server: E2eServer;

test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '5000', NEGOTIATION_DEADLINE_ROUNDS: '10' });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A history event, its data read as the three kinds this test looks at (MessageSent, ManualModeChanged, OfferMade). */
type Event = Omit<HistoryEvent, 'data'> & { data: { content: string; isManualMode: boolean; terms: LoanTerms } };

async function historyOf(page: Page, id: number): Promise<Event[]> {
  const answer = await page.request.get(`${server.url}/api/conversations/${id}/history?limit=500`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as HistoryPage).events as Event[];
}

const rows = (page: Page) => page.getByTestId('history-event');
/** Clicks a filter's label, as a person does (Blueprint draws the box over the input). */
const toggleKind = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Show kinds of event' }).getByText(label, { exact: true }).click();

test('history of a negotiation with a manual takeover: live, scrub, filter, replay, verify, tamper', async ({ page, browser }) => {
  test.setTimeout(420_000);
  await page.goto(`${server.url}/api/login`);
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();

  // The matcher opens conversations and the negotiator starts at once: take the first one still under way.
  let id = 0;
  await expect(async () => {
    const list = (await (await page.request.get(`${server.url}/api/conversations`)).json()) as ConversationView[];
    id = list.find((c) => c.status === 'active')?.id ?? 0;
    expect(id).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  await page.goto(`${server.url}/conversations/${id}`);
  await expect(page.getByRole('heading', { name: 'Conversation Thread' })).toBeVisible();

  // The history open in a second tab from the start, so what happens next arrives there live: the takeover
  // below is made by this test, so what arrives (and its words) is known, however fast the agents settle.
  const live = await page.context().newPage();
  await live.goto(`${server.url}/conversations/${id}/history`);
  await expect(live.getByRole('heading', { name: /^History: / })).toBeVisible();
  await expect(rows(live).first()).toBeVisible();
  const row = (position: string) => live.locator(`[data-testid="history-event"][data-position="${position}"]`);

  // The takeover in the middle: once the agents have spoken, manual mode, a message stating terms (read as
  // this side's offer), back to automatic.
  await expect(page.getByTestId('message').first()).toBeVisible({ timeout: 30_000 });
  await page.getByText('Manual Mode', { exact: true }).click();
  await expect(page.getByText('Mode Updated: Switched to manual mode')).toBeVisible();
  await expect(rows(live).filter({ hasText: 'took manual control' })).toHaveCount(1);
  const said = 'We can do 4.1% over 25 years';
  await page.getByRole('textbox', { name: 'Message' }).fill(said);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.getByTestId('message').filter({ hasText: said })).toBeVisible();

  // Live arrival: the person's message appears in the open history without a reload, with its own summary.
  const arrived = (await historyOf(page, id)).find((e) => e.type === 'MessageSent' && e.data.content === said)!;
  await expect(row(arrived.position)).toContainText(arrived.summary);
  await expect(row(arrived.position)).toContainText(`(written by a person) wrote: “${said}”`);

  // Paused, new events wait, counted, and none of them is listed until resumed: the hand-back is one of them.
  await live.getByRole('button', { name: 'Pause live' }).click();
  const frozen = await rows(live).count();
  await page.getByText('Manual Mode', { exact: true }).click();
  await expect(page.getByText(/Switched to automatic mode/)).toBeVisible();
  const waiting = live.getByTestId('waiting');
  await expect(waiting).toHaveText(/^[1-9]\d* new events? waiting$/, { timeout: 30_000 });
  const waitingCount = Number((await waiting.textContent())!.match(/^(\d+)/)![1]);
  const handBack = (await historyOf(page, id)).find((e) => e.type === 'ManualModeChanged' && !e.data.isManualMode)!;
  await expect(row(handBack.position)).toHaveCount(0);
  expect(await rows(live).count()).toBe(frozen);
  await live.getByRole('button', { name: 'Resume live' }).click();
  await expect(row(handBack.position)).toContainText(handBack.summary);
  await expect.poll(() => rows(live).count()).toBeGreaterThanOrEqual(frozen + waitingCount);
  await live.close();

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(new RegExp(`/conversations/${id}/history$`));
  await expect(page.getByRole('heading', { name: /^History: / })).toBeVisible();
  await expect(rows(page).filter({ hasText: 'took manual control' })).toBeVisible();

  // Let the negotiation finish.
  await expect(rows(page).filter({ hasText: 'The conversation ended' })).toBeVisible({ timeout: 240_000 });
  const events = await historyOf(page, id);
  const takeoverAt = events.findIndex((e) => e.type === 'ManualModeChanged' && e.data.isManualMode);
  expect(takeoverAt).toBeGreaterThan(0);

  // Who took over, for how long, saying what.
  const takeover = page.getByTestId('takeover');
  await expect(takeover).toContainText('Guest Operator');
  await expect(takeover).toContainText(/took control at \d\d:\d\d:\d\d \(session 1\) and held it for \d+ s/);
  await expect(takeover).toContainText(`Said: “${said}”`);
  await expect(takeover).toContainText(/Offered: 4\.10%, £[\d,]+, 25 yrs, £[\d,]+/);
  await expect(page.getByTestId('takeover-span')).toHaveCount(1);

  // Scrub to the moment before the takeover: the thread and offers as they stood then.
  await takeover.getByRole('button', { name: 'Show the moment before' }).click();
  await expect(page.getByTestId('moment')).toContainText(`Event ${takeoverAt} of ${events.length}`);
  const state = page.getByTestId('state-at');
  await expect(page.getByTestId('mode-at')).toHaveText('Automatic');
  const messagesThen = events.slice(0, takeoverAt).filter((e) => e.type === 'MessageSent');
  await expect(page.getByTestId('message-at')).toHaveCount(messagesThen.length);
  await expect(page.getByTestId('message-at').last()).toContainText(messagesThen[messagesThen.length - 1]!.data.content);
  await expect(state).not.toContainText(said);
  const offersThen = events.slice(0, takeoverAt).filter((e) => e.type === 'OfferMade');
  if (offersThen.length) {
    const lastRate = `${Number(offersThen[offersThen.length - 1]!.data.terms.interestRate.toFixed(3))}%`;
    await expect(page.getByTestId('offers-at')).toContainText(lastRate);
  } else {
    await expect(state).toContainText('No offer on the table yet.');
  }

  // One step on with the keyboard: the takeover itself.
  await page.getByRole('slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('moment')).toContainText(`Event ${takeoverAt + 1} of ${events.length}`);
  await expect(page.getByTestId('mode-at')).toHaveText('Manual control');
  // On to the person's message: the other side's agent may have spoken between the takeover and it.
  const saidAt = events.findIndex((e) => e.type === 'MessageSent' && e.data.content === said);
  expect(saidAt).toBeGreaterThan(takeoverAt);
  await expect(page.getByTestId('message-at').filter({ hasText: said })).toHaveCount(0);
  for (let step = takeoverAt + 1; step <= saidAt; step++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('moment')).toContainText(`Event ${saidAt + 1} of ${events.length}`);
  await expect(page.getByTestId('message-at').filter({ hasText: said })).toBeVisible();

  // Filter by kind: without messages, only offers, control and the rest are listed.
  const messageRows = rows(page).and(page.locator('[data-kind="message"]'));
  expect(await messageRows.count()).toBe(events.filter((e) => e.type === 'MessageSent').length);
  await toggleKind(page, 'Messages');
  await expect(messageRows).toHaveCount(0);
  await expect(rows(page).and(page.locator('[data-kind="offer"]')).first()).toBeVisible();
  await toggleKind(page, 'Offers');
  await toggleKind(page, 'Other events');
  await expect(rows(page)).toHaveCount(events.filter((e) => e.type === 'ManualModeChanged').length);
  await toggleKind(page, 'Messages');
  await toggleKind(page, 'Offers');
  await toggleKind(page, 'Other events');

  // Replay: from the start, the moment moves on by itself until paused.
  await page.getByRole('button', { name: 'Previous event' }).click();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  const moment = page.getByTestId('moment');
  const playingFrom = await moment.textContent();
  await expect(moment).not.toHaveText(playingFrom!, { timeout: 5_000 });
  await page.getByRole('button', { name: 'Pause', exact: true }).click();

  // Export: the full history with its hashes.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export history (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`conversation-${id}-history.json`);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as HistoryExport;
  expect(exported.events).toHaveLength(events.length);
  expect(exported.events.every((e) => /^[0-9a-f]{64}$/.test(String(e.hash)))).toBe(true);
  expect(exported.verification.intact).toBe(true);

  // Verify: intact; then a row altered by hand in PostgreSQL, and the verifier names it.
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.getByTestId('verify-result')).toContainText('Chain intact');
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  const altered = await client.query<{ stream_version: number }>(
    `update events set data = jsonb_set(data, '{content}', '"We can do 2.1% over 25 years"')
     where stream_name = $1 and type = 'MessageSent' and data->>'content' = $2 returning stream_version`,
    [streams.conversation(id), said],
  );
  await client.end();
  const version = altered.rows[0]!.stream_version;
  await page.getByRole('button', { name: 'Verify chain' }).click();
  const verdict = page.getByTestId('verify-result');
  await expect(verdict).toContainText('Tampering found');
  await expect(verdict).toContainText(`${streams.conversation(id)}, version ${version}`);
  await expect(verdict).toContainText(`Event ${version} (MessageSent) was altered: its stored contents no longer give its hash`);

  // Anyone else is told the conversation does not exist.
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(`${server.url}/api/login`);
  await other.goto(`${server.url}/conversations/${id}/history`);
  await expect(other.getByText('Conversation not found')).toBeVisible();
  await stranger.close();
});
