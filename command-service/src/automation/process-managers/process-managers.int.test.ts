import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type EventMetadata } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type EventStore, type OpenedContext, type RecordedEvent } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../../index';
import { AutomationState } from './automation-state';
import { matchAgent, stopAgent } from './matcher';
import { Negotiator } from './negotiator';

/** A database of its own with the command-service's tables, opened the way the services open theirs. */
async function openTestContext(): Promise<OpenedContext> {
  const database = await createTestDatabase();
  const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const context = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
  return {
    ...context,
    async close() {
      await context.close();
      await database.drop();
    },
  };
}

const metadata: EventMetadata = { actor: { kind: 'user', userId: 'owner' }, correlationId: 'c', causationId: null };

describe('matcher (process manager) on real PostgreSQL', () => {
  let context: OpenedContext;
  let store: EventStore;
  beforeAll(async () => {
    context = await openTestContext();
    store = context.store;
  });
  afterAll(async () => context?.close());

  async function createAgent(agentId: number, type: 'borrower' | 'lender', name: string): Promise<RecordedEvent> {
    const criteria = { propertyValueMin: '£300k', propertyValueMax: '£400k', interestRateMin: '4%', interestRateMax: '5%' };
    await store.append(
      streams.agent(agentId),
      [{ id: randomUUID(), type: 'AgentCreated', data: { agentId, ownerId: 'owner', name, type, description: '', criteria }, metadata }],
      'no_stream',
    );
    return (await store.readStream(streams.agent(agentId)))[0]!;
  }

  const conversationsStarted = async () =>
    (await context.pool.query<{ n: number }>("select count(*) as n from events where type = 'ConversationStarted'")).rows[0]!.n;

  it('opens one conversation for a match however often the causing event is delivered, and stops it when an agent is paused', async () => {
    const state = new AutomationState();
    state.observe(await createAgent(9001, 'borrower', 'Beatrice Cole'));
    const lenderCreated = await createAgent(9002, 'lender', 'Wessex Bank');
    state.observe(lenderCreated);
    const settings = { threshold: 70, maxOpenConversations: 3 };

    await matchAgent(context, state, 9002, lenderCreated, settings);
    // Redelivered (a restart before the checkpoint moved): the stored decision is found again.
    const afterRestart = new AutomationState();
    for (const event of await store.readAll({ commit: 0n, prepare: 0n }, 1000)) {
      if (event.type === 'AgentCreated') afterRestart.observe(event);
    }
    await matchAgent(context, afterRestart, 9002, lenderCreated, settings);
    expect(await conversationsStarted()).toBe(1);
    expect((await context.pool.query<{ n: number }>("select count(*) as n from events where type = 'MatchFound'")).rows[0]!.n).toBe(1);

    const [started] = (await store.readAll({ commit: 0n, prepare: 0n }, 1000)).filter((e) => e.type === 'ConversationStarted');
    state.observe(started!);
    await store.append(streams.agent(9002), [{ id: randomUUID(), type: 'AgentPaused', data: { agentId: 9002 }, metadata }], 0);
    const paused = (await store.readStream(streams.agent(9002)))[1]!;
    state.observe(paused);
    await stopAgent(context, state, 9002, paused);
    await stopAgent(context, state, 9002, paused);
    const conversationId = started!.data.conversationId;
    const completed = (await store.readStream(streams.conversation(conversationId))).filter((e) => e.type === 'ConversationCompleted');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({ outcome: 'stopped', reason: 'Wessex Bank was paused' });
    // A paused agent is never matched again.
    await matchAgent(context, state, 9001, (await store.readStream(streams.agent(9001)))[0]!, settings);
    expect(await conversationsStarted()).toBe(1);
  });
});

describe('negotiator (process manager) on real PostgreSQL', () => {
  let context: OpenedContext;
  let store: EventStore;
  beforeAll(async () => {
    context = await openTestContext();
    store = context.store;
  });
  afterAll(async () => context?.close());

  it('makes one move per state of the conversation, however often it is asked to', async () => {
    const state = new AutomationState();
    const criteria = { propertyValueMin: '£300k', propertyValueMax: '£400k', interestRateMin: '4%', interestRateMax: '5%' };
    for (const [agentId, type, name] of [
      [1, 'borrower', 'Beatrice Cole'],
      [2, 'lender', 'Wessex Bank'],
    ] as const) {
      await store.append(
        streams.agent(agentId),
        [{ id: randomUUID(), type: 'AgentCreated', data: { agentId, ownerId: 'owner', name, type, description: '', criteria }, metadata }],
        'no_stream',
      );
    }
    const participants = [
      { agentId: 1, ownerId: 'owner', name: 'Beatrice Cole', type: 'borrower' as const },
      { agentId: 2, ownerId: 'owner', name: 'Wessex Bank', type: 'lender' as const },
    ];
    await store.append(
      streams.conversation(5),
      [{ id: randomUUID(), type: 'ConversationStarted', data: { conversationId: 5, title: 't', participants, matchId: null }, metadata }],
      'no_stream',
    );
    for (const event of await store.readAll({ commit: 0n, prepare: 0n }, 100)) state.observe(event);

    const negotiator = new Negotiator(context, state, {
      settings: { deadlineRounds: 10, opener: 'borrower' },
      replyDelayMs: 0,
      phrase: async (draft) => draft,
      log: context.log,
    });
    // Asked again before and after the first move lands, without the state having seen it (a redelivery).
    negotiator.schedule(5);
    negotiator.schedule(5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    negotiator.schedule(5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    negotiator.close();

    const events = await store.readStream(streams.conversation(5));
    expect(events.map((e) => e.type)).toEqual(['ConversationStarted', 'MessageSent', 'OfferMade']);
    expect(events[1]!.data).toMatchObject({ fromAgentId: 1, toAgentId: 2, isAutomated: true });
    expect(events[2]!.metadata).toMatchObject({ actor: { kind: 'agent', agentId: 1 } });
  });
});
