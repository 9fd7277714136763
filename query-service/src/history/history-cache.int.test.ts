import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type DomainEvent, type EventMetadata } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type EventStore, type OpenedContext, type StoredEvent } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { HistoryCache } from './history-cache';

/** Scrubbing must not read the whole history per step: the cache reads it once, and again only when a stream grows. */
describe('history cache', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  const metadata: EventMetadata = { actor: { kind: 'agent', agentId: 1 }, correlationId: 'c', causationId: null };
  const conversationId = 5150;
  const reads: string[] = [];

  /** The real store, counting whole-stream reads (what the cache is there to avoid). */
  const counting = (store: EventStore<StoredEvent>): EventStore<StoredEvent> =>
    new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'readStream') return (stream: string, from?: number) => (reads.push(stream), target.readStream(stream, from));
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });

  const participants = [
    { agentId: 1, ownerId: 'u1', name: 'Amelia Hart', type: 'borrower' as const },
    { agentId: 2, ownerId: 'u2', name: 'Northgate', type: 'lender' as const },
  ];
  const append = (stream: string, events: DomainEvent[]) =>
    context.store.append(
      stream,
      events.map((e) => ({ id: randomUUID(), ...e, metadata })),
      'any',
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await openServiceContext(
      parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
      createLogger('warn', 'cache-test'),
      database.url,
      [],
    );
    await append(streams.conversation(conversationId), [
      { type: 'ConversationStarted', data: { conversationId, title: 'T', participants, matchId: null } },
      { type: 'MessageSent', data: { conversationId, messageId: 1, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: true } },
    ]);
  });
  afterAll(async () => {
    await context?.close();
    await database?.drop();
  });

  it('reads the streams once for many steps, and again when one of them grows', async () => {
    const cache = new HistoryCache(counting(context.storedEvents));
    const first = await cache.load(conversationId);
    const readsForOneLoad = reads.length;
    expect(readsForOneLoad).toBe(3); // the conversation, then its two agents
    for (let step = 0; step < 20; step++) expect(await cache.load(conversationId)).toBe(first);
    expect(reads).toHaveLength(readsForOneLoad);

    await append(streams.conversation(conversationId), [
      {
        type: 'MessageSent',
        data: { conversationId, messageId: 2, fromAgentId: 2, toAgentId: 1, content: 'We offer 4.5%', isAutomated: true },
      },
    ]);
    const grown = await cache.load(conversationId);
    expect(reads).toHaveLength(2 * readsForOneLoad);
    expect(grown!.records.map((r) => r.recorded.type)).toEqual(['ConversationStarted', 'MessageSent', 'MessageSent']);

    // An agent's stream counts too: the history holds the agents as they stood while the conversation ran.
    await append(streams.agent(2), [{ type: 'AgentPaused', data: { agentId: 2 } }]);
    expect((await cache.load(conversationId))!.records.at(-1)!.recorded.type).toBe('AgentPaused');
    expect(reads).toHaveLength(3 * readsForOneLoad);
  });

  it('answers null for a conversation never started, and keeps at most its capacity', async () => {
    const cache = new HistoryCache(context.storedEvents, 1);
    expect(await cache.load(999_999)).toBeNull();
    await append(streams.conversation(5151), [
      { type: 'ConversationStarted', data: { conversationId: 5151, title: 'U', participants, matchId: null } },
    ]);
    const a = await cache.load(conversationId);
    await cache.load(5151);
    // The first was evicted for the second, so it is read again (a new object).
    expect(await cache.load(conversationId)).not.toBe(a);
  });
});
