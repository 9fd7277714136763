import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  canSeeConversation,
  comparePositions,
  conversationsView,
  conversationViewFor,
  emptyOfferBook,
  evolveOfferBook,
  formatPosition,
  historyState,
  latestOfferOf,
  messageOf,
  streams,
  type Conversation,
  type DomainEvent,
  type EventMetadata,
  type HistoryState,
  type MessageView,
  type StandingOffer,
} from '@pf/events';
import { FURNESS_FIVE_YEAR_FIX } from '@pf/events/testing';
import {
  createHttpServer,
  createLogger,
  openServiceContext,
  parseConfig,
  SESSION_COOKIE,
  sessionPlugin,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { loadHistory, type HistoryRecord } from './load-history';
import { withoutDeleted } from './erasure';
import { personNames } from './people';
import { historyRoutes } from './routes';
import { CHECKPOINT_EVERY, stateAt, standingOfferOf, type Moment } from './state-at';
import { takeoversOf } from './takeovers';

/**
 * The state at a moment as it was answered before scrub steps kept states (docs/behaviour/history.md): every event
 * up to the moment folded from the first. Each step's answer must be this, for every position and time.
 */
function fullFold(
  conversationId: number,
  records: readonly HistoryRecord[],
  moment: Moment,
  requested: string,
  viewerFirmId: string,
  now: Date,
  personName: (userId: string) => string,
): HistoryState {
  const upTo = records.filter((record) =>
    'position' in moment
      ? comparePositions(record.recorded.position, moment.position) <= 0
      : record.recorded.recordedAt.getTime() <= moment.time.getTime(),
  );
  let conversation: Conversation | null = null;
  const messages: MessageView[] = [];
  let book = emptyOfferBook;
  const recordedOffers = new Map<string, { position: string; recordedAt: string }>();
  for (const { recorded, event } of upTo) {
    if (!event || recorded.stream !== streams.conversation(conversationId)) continue;
    const at = recorded.recordedAt.toISOString();
    if (conversationsView.keyOf(event) === conversationId) conversation = conversationsView.evolve(conversation, event, at);
    const message = messageOf(conversation, event, at);
    if (message) messages.push(message);
    book = evolveOfferBook(book, event);
    if (event.type === 'OfferMade') recordedOffers.set(event.data.offerId, { position: formatPosition(recorded.position), recordedAt: at });
  }
  const offers: StandingOffer[] = [];
  for (const side of conversation?.participants ?? []) {
    const offer = latestOfferOf(book, side.agentId);
    const recorded = offer && recordedOffers.get(offer.offerId);
    if (!offer || !recorded) continue;
    offers.push(standingOfferOf(side, offer, recorded));
  }
  const last = upTo[upTo.length - 1]?.recorded;
  const until = 'time' in moment ? moment.time : (last?.recordedAt ?? now);
  const participants = conversation?.participants ?? [];
  return {
    conversationId,
    at: { requested, position: last ? formatPosition(last.position) : null, recordedAt: last ? last.recordedAt.toISOString() : null },
    conversation: conversation && canSeeConversation(conversation, viewerFirmId) ? conversationViewFor(conversation, viewerFirmId) : null,
    messages,
    offers: offers.sort((a, b) => a.agentId - b.agentId),
    takeovers: takeoversOf(upTo, participants, until, personName),
  };
}

/** As the route serialises it. */
const served = (state: HistoryState): unknown => JSON.parse(JSON.stringify(historyState.parse(state)));

const terms = (interestRate: number) => ({ interestRate, termYears: 25, loanAmount: 200_000, arrangementFee: 999 });
const REASON = { rule: 'Moved within its discretion towards the borrower', figures: { ratePercent: 4.3, trueCostPounds: 60_000 } };

// docs/behaviour/history.md: a scrub step costs no fold of the whole conversation (fewer than 64 events from a kept state), and answers as folding from the first event, for every position and time.
describe('History scrub steps: each answer is the full fold, and folds fewer than CHECKPOINT_EVERY events', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let app: FastifyInstance;
  let base: string;
  let cookie: string;
  let firmId: string;
  const conversationId = 8100;
  const [borrower, lender] = [81001, 81002];

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off' });
    const log = createLogger('warn', 'scrub-test');
    context = await openServiceContext(config, log, database.url, []);
    app = await createHttpServer(config, log);
    await app.register(sessionPlugin, { sessions: context.sessions });
    await app.register(historyRoutes, context);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const [alice, bob] = [await context.sessions.signInGuest('scrub test'), await context.sessions.signInGuest('scrub test')];
    cookie = `${SESSION_COOKIE}=${encodeURIComponent(alice.token)}`;
    firmId = alice.user.firmId;

    const by = (user: typeof alice): EventMetadata => ({
      actor: { kind: 'user', userId: user.user.id, sessionId: user.user.sessionId },
      correlationId: 'c',
      causationId: null,
    });
    const agent = (agentId: number): EventMetadata => ({ actor: { kind: 'agent', agentId }, correlationId: 'c', causationId: null });
    const append = (stream: string, events: DomainEvent[], metadata: EventMetadata) =>
      context.store.append(
        stream,
        events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
        'any',
      );
    const stream = streams.conversation(conversationId);
    const participants = [
      { agentId: borrower, ownerId: alice.user.id, name: 'Amelia Hart', type: 'borrower' as const },
      { agentId: lender, ownerId: bob.user.id, name: 'Northgate Building Society', type: 'lender' as const },
    ];
    const side = (agentId: number, isManualMode: boolean, holder: typeof alice, handedOverBy?: string): DomainEvent => ({
      type: 'ManualModeChanged',
      data: {
        conversationId,
        isManualMode,
        agentId,
        byUserId: holder.user.id,
        sessionId: holder.user.sessionId,
        ...(handedOverBy ? { handedOverBy } : {}),
      },
    });
    let messageId = 0;
    const says = (fromAgentId: number, content: string, isAutomated: boolean): DomainEvent => ({
      type: 'MessageSent',
      data: {
        conversationId,
        messageId: ++messageId,
        fromAgentId,
        toAgentId: fromAgentId === borrower ? lender : borrower,
        content,
        isAutomated,
      },
    });
    const offers = (fromAgentId: number, round: number, rate: number, byPerson: boolean): DomainEvent => ({
      type: 'OfferMade',
      data: {
        conversationId,
        offerId: `o${round}-${fromAgentId}`,
        round,
        fromAgentId,
        toAgentId: fromAgentId === borrower ? lender : borrower,
        terms: terms(rate),
        ...(byPerson ? { byPerson: true as const } : fromAgentId === lender ? { product: FURNESS_FIVE_YEAR_FIX, reason: REASON } : {}),
      },
    });

    await append(
      streams.agent(borrower),
      [{ type: 'AgentCreated', data: { ...participants[0]!, description: 'First home', criteria: null } }],
      by(alice),
    );
    await append(
      streams.agent(lender),
      [{ type: 'AgentCreated', data: { ...participants[1]!, description: 'Lends', criteria: null } }],
      by(bob),
    );
    await append(
      stream,
      [{ type: 'ConversationStarted', data: { conversationId, title: 'Amelia ↔ Northgate', participants, matchId: null } }],
      agent(lender),
    );
    // Rounds of offers and messages, with each side taken over, held at once, handed over, handed back, and a takeover
    // of the whole conversation as recorded before control was per side; the agents paused meanwhile.
    for (let round = 1; round <= 45; round++) {
      const heldByAlice = (round >= 6 && round < 11) || (round >= 16 && round < 24);
      const lenderHeld = round >= 14 && round < 30;
      if (round === 6 || round === 16) await append(stream, [side(borrower, true, alice)], by(alice));
      if (round === 11 || round === 24) await append(stream, [side(borrower, false, alice)], by(alice));
      if (round === 14) await append(stream, [side(lender, true, bob)], by(bob));
      if (round === 20) await append(stream, [side(lender, true, alice, bob.user.id)], by(bob));
      if (round === 30) await append(stream, [side(lender, false, alice)], by(alice));
      if (round === 34) await append(stream, [{ type: 'ManualModeChanged', data: { conversationId, isManualMode: true } }], by(bob));
      if (round === 36) await append(stream, [{ type: 'ManualModeChanged', data: { conversationId, isManualMode: false } }], by(alice));
      if (round === 25) await append(streams.agent(lender), [{ type: 'AgentPaused', data: { agentId: lender } }], by(bob));
      if (round === 27) await append(streams.agent(lender), [{ type: 'AgentResumed', data: { agentId: lender } }], by(bob));
      const lenderBy = lenderHeld ? (round >= 20 ? by(alice) : by(bob)) : agent(lender);
      await append(
        stream,
        [offers(lender, round, 5 - round / 100, lenderHeld), says(lender, `Round ${round}: our rate`, !lenderHeld)],
        lenderBy,
      );
      const borrowerBy = heldByAlice ? by(alice) : agent(borrower);
      const reply: DomainEvent[] = [
        { type: 'OfferRejected', data: { conversationId, offerId: `o${round}-${lender}`, byAgentId: borrower } },
        says(borrower, `Round ${round}: too high`, !heldByAlice),
      ];
      await append(stream, round % 3 === 0 ? [...reply, offers(borrower, round, 4 - round / 100, heldByAlice)] : reply, borrowerBy);
    }
    await append(stream, [offers(lender, 46, 4.5, false)], agent(lender));
    await append(
      stream,
      [
        { type: 'OfferAccepted', data: { conversationId, offerId: `o46-${lender}`, byAgentId: borrower, terms: terms(4.5) } },
        { type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Agreed at 4.5%' } },
      ],
      agent(borrower),
    );
    // After its end: not part of its history (load-history.ts).
    await append(streams.agent(borrower), [{ type: 'AgentPaused', data: { agentId: borrower } }], by(alice));
  });
  afterAll(async () => {
    await app?.close();
    await context?.close();
    await database?.drop();
  });

  const step = async (at: string): Promise<unknown> => {
    const response = await fetch(`${base}/api/conversations/${conversationId}/history?at=${encodeURIComponent(at)}`, {
      headers: { cookie },
    });
    expect(response.status).toBe(200);
    return response.json();
  };

  it('answers every position and every time as the full fold does', async () => {
    const { records } = (await loadHistory(context.storedEvents, conversationId))!;
    const names = await personNames(context.pool, records);
    expect(records.length).toBeGreaterThan(3 * CHECKPOINT_EVERY);
    const full = fullFold(conversationId, records, { time: new Date('2100-01-01T00:00:00Z') }, 'end', firmId, new Date(), names);
    expect(full.conversation?.status).toBe('completed');
    expect(full.messages).toHaveLength(90);
    expect(full.offers.map((o) => [o.offerId, o.status])).toEqual([
      [`o45-${borrower}`, 'superseded'],
      [`o46-${lender}`, 'accepted'],
    ]);
    expect(full.takeovers.map((t) => [t.agentIds, t.messages.length, t.endedBy !== null])).toEqual([
      [[borrower], 5, false],
      [[lender], 6, false],
      [[borrower], 8, false],
      [[lender], 10, false],
      [[borrower, lender], 0, true],
    ]);

    // Every position, from before the first event to the last; every time an event was recorded, the millisecond
    // before it, and times before and after them all. Asked ten at a time, as a quick scrub does.
    const moments: [string, Moment][] = [
      ...['0:0', ...records.map((r) => formatPosition(r.recorded.position))].map((at): [string, Moment] => {
        const [commit, prepare] = at.split(':').map(BigInt);
        return [at, { position: { commit: commit!, prepare: prepare! } }];
      }),
      ...[
        0,
        ...records.flatMap((r) => [r.recorded.recordedAt.getTime() - 1, r.recorded.recordedAt.getTime()]),
        Date.parse('2100-01-01T00:00:00Z'),
      ].map((ms): [string, Moment] => [new Date(ms).toISOString(), { time: new Date(ms) }]),
    ];
    for (let i = 0; i < moments.length; i += 10) {
      const batch = moments.slice(i, i + 10);
      const answers = await Promise.all(batch.map(([at]) => step(at)));
      batch.forEach(([at, moment], j) => {
        expect(answers[j], at).toEqual(served(fullFold(conversationId, records, moment, at, firmId, new Date(), names)));
      });
    }
  }, 180_000);

  it('folds fewer than CHECKPOINT_EVERY events per step once the history is indexed, and the full fold when times go back', async () => {
    const loaded = (await loadHistory(context.storedEvents, conversationId))!;
    const names = await personNames(context.pool, loaded.records);
    let folded = 0;
    const counted = loaded.records.map((record) => ({
      recorded: record.recorded,
      get event() {
        folded++;
        return record.event;
      },
    }));
    const now = new Date();
    stateAt(conversationId, counted, { position: loaded.records.at(-1)!.recorded.position }, 'last', firmId, now, names);
    for (const record of loaded.records) {
      folded = 0;
      const at = formatPosition(record.recorded.position);
      const answer = stateAt(conversationId, counted, { position: record.recorded.position }, at, firmId, now, names);
      expect(folded, at).toBeLessThan(CHECKPOINT_EVERY);
      expect(answer).toEqual(fullFold(conversationId, loaded.records, { position: record.recorded.position }, at, firmId, now, names));
    }

    // A record stamped before the one ahead of it (a transaction that committed after a later one began): the events
    // at or before a time are then no prefix of the records, and are folded alone.
    const middle = Math.floor(loaded.records.length / 2);
    const early = new Date(loaded.records[middle - 40]!.recorded.recordedAt.getTime() + 1);
    const shuffled = loaded.records.map((record, i) =>
      i === middle ? { ...record, recorded: { ...record.recorded, recordedAt: early } } : record,
    );
    for (const record of shuffled.slice(middle - 45, middle + 5)) {
      const time = record.recorded.recordedAt;
      const answer = stateAt(conversationId, shuffled, { time }, time.toISOString(), firmId, now, names);
      expect(answer).toEqual(fullFold(conversationId, shuffled, { time }, time.toISOString(), firmId, now, names));
    }
  });

  it("makes a history's erased copy once: a scrub step gets the same copy while the same people are gone", async () => {
    const loaded = (await loadHistory(context.storedEvents, conversationId))!;
    const [first, second] = loaded.started.participants;
    const gone = (...owners: string[]) => ({
      ...loaded,
      started: { ...loaded.started, participants: [first!, second!].map((p, i) => (owners[i] ? { ...p, ownerId: owners[i] } : p)) },
    });
    const oneGone = gone('a person since deleted');
    const erased = await withoutDeleted(context.pool, oneGone);
    expect(erased.started.participants.map((p) => p.name)).toEqual(['', 'Northgate Building Society']);
    expect(await withoutDeleted(context.pool, oneGone)).toBe(erased);
    const bothGone = gone('a person since deleted', 'another');
    const again = await withoutDeleted(context.pool, bothGone);
    expect(again.started.participants.map((p) => p.name)).toEqual(['', '']);
    expect(await withoutDeleted(context.pool, bothGone)).toBe(again);
    expect(await withoutDeleted(context.pool, loaded)).toBe(loaded);
  });
});
