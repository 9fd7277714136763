import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { projectReadModels } from '.';
import { pageAgents } from './agents/queries';
import { pageConversations } from './conversations/queries';
import { readModelDatabase, recorded } from './testing';

/** The paged lists of a large book: every row once, in the list's order, searched and filtered on the server. */
describe('paged agents and conversations', () => {
  const database = readModelDatabase();
  const types = ['borrower', 'lender', 'broker'] as const;

  it('pages agents newest first with a cursor, by name and type, never a deleted one or another firm’s', async () => {
    const events: DomainEvent[] = [];
    for (let id = 1; id <= 25; id++) {
      events.push({
        type: 'AgentCreated',
        data: {
          agentId: id,
          ownerId: id === 25 ? 'bob' : 'alice',
          name: id % 5 === 0 ? `Harbour Bank ${id}` : `Agent ${id}`,
          type: types[id % 3]!,
          description: '',
          criteria: null,
        },
      });
    }
    events.push({ type: 'AgentDeleted', data: { agentId: 24 } });
    const client = await database.pool.connect();
    try {
      await projectReadModels(client, recorded(events));
    } finally {
      client.release();
    }

    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await pageAgents(database.pool, 'alice', { limit: 7, cursor });
      expect(page.total).toBe(23);
      seen.push(...page.items.map((agent) => agent.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));

    const harbour = await pageAgents(database.pool, 'alice', { q: 'harbour' });
    expect(harbour.items.map((agent) => agent.name)).toEqual(['Harbour Bank 20', 'Harbour Bank 15', 'Harbour Bank 10', 'Harbour Bank 5']);
    expect(harbour).toMatchObject({ total: 4, nextCursor: null });
    const lenders = await pageAgents(database.pool, 'alice', { type: 'lender', q: 'Harbour' });
    expect(lenders.items.map((agent) => agent.id)).toEqual([10]);
    // "%" and "_" are searched for as they are, not as patterns.
    expect((await pageAgents(database.pool, 'alice', { q: '%' })).total).toBe(0);
    await expect(pageAgents(database.pool, 'alice', { cursor: 'bm90LWEta2V5' })).rejects.toThrow(
      'cursor: cursor must be a cursor from a previous page',
    );
  });

  it('pages conversations most recently active first, by title and status', async () => {
    const events: DomainEvent[] = [];
    const alice = { agentId: 101, ownerId: 'alice', name: 'A', type: 'borrower' as const };
    const bank = { agentId: 102, ownerId: 'alice', name: 'B', type: 'lender' as const };
    for (let id = 1; id <= 12; id++) {
      events.push({
        type: 'ConversationStarted',
        data: {
          conversationId: id,
          title: id % 4 === 0 ? `Buy-to-let ${id}` : `Residential ${id}`,
          participants: [alice, bank],
          matchId: null,
        },
      });
    }
    events.push({
      type: 'ManualModeChanged',
      data: { conversationId: 5, isManualMode: true, ownerId: 'alice', agentIds: [101], byUserId: 'alice' },
    });
    // Conversation 3 moves last, so it is the most recently active.
    events.push({ type: 'ConversationCompleted', data: { conversationId: 3, outcome: 'agreed', reason: 'deal' } });
    const client = await database.pool.connect();
    try {
      await projectReadModels(client, recorded(events));
    } finally {
      client.release();
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await pageConversations(database.pool, 'alice', { limit: 5, cursor });
      expect(page.total).toBe(12);
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([3, 5, 12, 11, 10, 9, 8, 7, 6, 4, 2, 1]);
    expect((await pageConversations(database.pool, 'alice', { mode: 'manual' })).items.map((c) => c.id)).toEqual([5]);
    expect((await pageConversations(database.pool, 'alice', { mode: 'automatic' })).total).toBe(11);
    expect((await pageConversations(database.pool, 'alice', { q: 'buy-to-LET' })).items.map((c) => c.id)).toEqual([12, 8, 4]);
    expect((await pageConversations(database.pool, 'alice', { status: 'completed' })).items.map((c) => c.id)).toEqual([3]);
    expect((await pageConversations(database.pool, 'bob', {})).total).toBe(0);
  });
});
