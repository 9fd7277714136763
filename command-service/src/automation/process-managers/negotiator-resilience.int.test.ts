import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type EventMetadata } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type OpenedContext, type RecordedEvent } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../../index';
import { AutomationState } from './automation-state';
import { Negotiator, type NegotiatorOptions } from './negotiator';

const owner: EventMetadata = { actor: { kind: 'user', userId: 'owner' }, correlationId: 'c', causationId: null };
const criteria = { propertyValueMin: '£300k', propertyValueMax: '£400k', interestRateMin: '4%', interestRateMax: '5%' };
const participants = [
  { agentId: 1, ownerId: 'owner', name: 'Beatrice Cole', type: 'borrower' as const },
  { agentId: 2, ownerId: 'owner', name: 'Wessex Bank', type: 'lender' as const },
];

const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** The negotiator against real PostgreSQL, fed by hand the way the reactor feeds it (observe, then schedule). */
describe('negotiator: appends on the version it decided on, never stalls silently', () => {
  let context: OpenedContext;
  let nextConversation = 10;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    const opened = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
    context = { ...opened, close: async () => (await opened.close(), await database.drop()) };
    for (const p of participants) {
      const data = { agentId: p.agentId, ownerId: 'owner', name: p.name, type: p.type, description: '', criteria };
      await context.store.append(
        streams.agent(p.agentId),
        [{ id: randomUUID(), type: 'AgentCreated', data, metadata: owner }],
        'no_stream',
      );
    }
  });
  afterAll(async () => context?.close());

  /** A new conversation between the two agents, and a state that has seen it. */
  async function conversation(): Promise<{
    id: number;
    state: AutomationState;
    seen: () => Promise<void>;
    events: () => Promise<RecordedEvent[]>;
  }> {
    const id = nextConversation++;
    const data = { conversationId: id, title: 't', participants, matchId: null };
    await context.store.append(
      streams.conversation(id),
      [{ id: randomUUID(), type: 'ConversationStarted', data, metadata: owner }],
      'no_stream',
    );
    const state = new AutomationState();
    for (const p of participants) state.observe((await context.store.readStream(streams.agent(p.agentId)))[0]!);
    let seenVersion = -1;
    const events = () => context.store.readStream(streams.conversation(id));
    // What the reactor does: the state observes what was appended since, then the conversation is looked at.
    const seen = async () => {
      for (const event of await events()) if (event.streamVersion > seenVersion) state.observe(event);
      seenVersion = (await events()).at(-1)!.streamVersion;
    };
    await seen();
    return { id, state, seen, events };
  }

  const negotiator = (state: AutomationState, options: Partial<NegotiatorOptions>) =>
    new Negotiator(context, state, {
      settings: { deadlineRounds: 10, opener: 'borrower' },
      replyDelayMs: 0,
      phrase: async (draft) => draft,
      log: context.log,
      ...options,
    });

  /** A phraser that holds the agent's words until released: the window in which an operator can act. */
  function heldPhraser() {
    let release!: () => void;
    let entered!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const composing = new Promise<void>((resolve) => (entered = resolve));
    const phrase: NegotiatorOptions['phrase'] = async (draft) => {
      entered();
      await released;
      return draft;
    };
    return { phrase, composing, release };
  }

  it("does not record a move decided before an operator's offer after it: it decides again on what stands", async () => {
    const { id, state, seen, events } = await conversation();
    const held = heldPhraser();
    const agents = negotiator(state, { phrase: held.phrase });
    agents.schedule(id);
    await held.composing; // the borrower's opening move is decided on version 0 and being worded
    // Meanwhile the lender's operator makes an offer (recorded as the lender's, at version 1).
    const terms = { interestRate: 4.8, termYears: 25, loanAmount: 250_000, arrangementFee: 1_500 };
    const offer = { conversationId: id, offerId: randomUUID(), round: 0, fromAgentId: 2, toAgentId: 1, terms };
    await context.store.append(streams.conversation(id), [{ id: randomUUID(), type: 'OfferMade', data: offer, metadata: owner }], 0);
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await events()).map((e) => e.type)).toEqual(['ConversationStarted', 'OfferMade']);

    // The reactor delivers the offer: the borrower now moves on the state that includes it.
    await seen();
    agents.schedule(id);
    await until(async () => (await events()).length > 2, "the borrower's move on the new state");
    agents.close();
    const after = (await events()).slice(2);
    expect(after.every((e) => e.metadata.causationId === `${id}:1:borrower`)).toBe(true);
    expect(after.every((e) => e.metadata.actor.kind === 'agent' && e.metadata.actor.agentId === 1)).toBe(true);
  });

  it('does not record a move decided before a manual takeover, even when the operator has handed back meanwhile', async () => {
    const { id, state, seen, events } = await conversation();
    const held = heldPhraser();
    const agents = negotiator(state, { phrase: held.phrase });
    agents.schedule(id);
    await held.composing;
    for (const [version, isManualMode] of [
      [0, true],
      [1, false],
    ] as const) {
      const data = { conversationId: id, isManualMode };
      await context.store.append(
        streams.conversation(id),
        [{ id: randomUUID(), type: 'ManualModeChanged', data, metadata: owner }],
        version,
      );
    }
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await events()).map((e) => e.type)).toEqual(['ConversationStarted', 'ManualModeChanged', 'ManualModeChanged']);
    await seen();
    agents.schedule(id);
    await until(async () => (await events()).length > 3, 'the move decided again');
    agents.close();
    expect((await events())[3]!.metadata.causationId).toBe(`${id}:2:borrower`);
  });

  it('retries a failing move with backoff, records the stall once with its reason, and carries on when it can', async () => {
    const { id, state, seen, events } = await conversation();
    let broken = true;
    let attempts = 0;
    // Stands in for any failure of a move (the built-in LLM phraser itself falls back rather than throw).
    const phrase: NegotiatorOptions['phrase'] = async (draft) => {
      attempts += 1;
      if (broken) throw new Error('the wording service is unreachable');
      return draft;
    };
    const agents = negotiator(state, { phrase, retry: { baseMs: 5, maxMs: 20, stallAfter: 3 } });
    agents.schedule(id);
    await until(async () => (await events()).some((e) => e.type === 'ConversationStalled'), 'the stall');
    const triesAtStall = attempts;
    await until(async () => attempts >= triesAtStall + 5, 'more retries after the stall');
    const stalls = (await events()).filter((e) => e.type === 'ConversationStalled');
    expect(stalls).toHaveLength(1);
    expect(stalls[0]!.data).toEqual({
      conversationId: id,
      agentId: 1,
      reason: 'Beatrice Cole could not make the next move (3 attempts in a row): Error: the wording service is unreachable; still trying',
    });
    expect(stalls[0]!.metadata.actor).toEqual({ kind: 'system', name: 'negotiator' });

    broken = false;
    await seen(); // the stall itself is an event of the conversation; the reactor then looks at it again
    agents.schedule(id);
    await until(async () => (await events()).some((e) => e.type === 'MessageSent'), 'the move once the failure passed');
    agents.close();
    expect((await events()).map((e) => e.type).slice(0, 3)).toEqual(['ConversationStarted', 'ConversationStalled', 'MessageSent']);
  });
});
