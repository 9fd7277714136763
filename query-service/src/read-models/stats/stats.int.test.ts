import { beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { projectReadModels } from '..';
import { readModelDatabase, recorded } from '../testing';
import { userStats } from './queries';
import { weeklyTrends } from './trends';

const agent = (agentId: number, ownerId: string, type: 'borrower' | 'lender' | 'broker'): DomainEvent => ({
  type: 'AgentCreated',
  data: { agentId, ownerId, name: `Agent ${agentId}`, type, description: '', criteria: null },
});
const match = (matchId: string, borrowerAgentId: number, lenderAgentId: number, brokerAgentId: number | null): DomainEvent => ({
  type: 'MatchFound',
  data: { matchId, borrowerAgentId, lenderAgentId, brokerAgentId, score: 80, explanation: [] },
});
const start = (conversationId: number, agentIds: [number, string, 'borrower' | 'lender'][]): DomainEvent => ({
  type: 'ConversationStarted',
  data: {
    conversationId,
    title: `Loan ${conversationId}`,
    matchId: null,
    participants: agentIds.map(([agentId, ownerId, type]) => ({ agentId, ownerId, name: `Agent ${agentId}`, type })),
  },
});
const complete = (conversationId: number, outcome: 'agreed' | 'no_agreement' | 'stopped'): DomainEvent => ({
  type: 'ConversationCompleted',
  data: { conversationId, outcome, reason: outcome },
});

describe('stats', () => {
  const database = readModelDatabase();

  beforeAll(async () => {
    const client = await database.pool.connect();
    try {
      await projectReadModels(
        client,
        recorded([
          agent(1, 'alice', 'borrower'),
          agent(2, 'bob', 'lender'),
          agent(3, 'alice', 'broker'),
          agent(4, 'carol', 'lender'),
          { type: 'AgentPaused', data: { agentId: 3 } },
          // One match counts once for alice although two of her agents take part.
          match('m1', 1, 2, 3),
          match('m2', 1, 4, null),
          { type: 'AgentDeleted', data: { agentId: 4 } },
          start(10, [
            [1, 'alice', 'borrower'],
            [2, 'bob', 'lender'],
          ]),
          start(11, [
            [1, 'alice', 'borrower'],
            [4, 'carol', 'lender'],
          ]),
          start(12, [
            [1, 'alice', 'borrower'],
            [2, 'bob', 'lender'],
          ]),
          start(13, [
            [1, 'alice', 'borrower'],
            [2, 'bob', 'lender'],
          ]),
          complete(10, 'agreed'),
          complete(11, 'no_agreement'),
          complete(12, 'stopped'),
        ]),
      );
    } finally {
      client.release();
    }
  });

  it('counts a user’s active agents, matches, open conversations and agreed over ended negotiations (a stopped one ended too)', async () => {
    // Alice: 10 agreed, 11 no agreement, 12 stopped, 13 running: 1 of 3 ended (events/src/success-rate.ts).
    expect(await userStats(database.pool, 'alice')).toEqual({
      activeAgents: 1,
      activeConversations: 1,
      matchesFound: 2,
      successRate: 33.3,
    });
    expect(await userStats(database.pool, 'bob')).toEqual({ activeAgents: 1, activeConversations: 1, matchesFound: 1, successRate: 50 });
  });

  it('still counts a match for the owner of an agent deleted since', async () => {
    expect(await userStats(database.pool, 'carol')).toEqual({ activeAgents: 0, activeConversations: 0, matchesFound: 1, successRate: 0 });
  });

  it('counts this week against last from the times recorded (agents created, conversations started, matches found)', async () => {
    // Every event above is recorded on 1 January 2026 between 12:00 and 12:20.
    const counts = (thisWeek: number, lastWeek: number) => ({ thisWeek, lastWeek });
    expect(await weeklyTrends(database.pool, 'alice', new Date('2026-01-05T00:00:00Z'))).toEqual({
      agentsCreated: counts(2, 0),
      conversationsStarted: counts(4, 0),
      matchesFound: counts(2, 0),
    });
    expect(await weeklyTrends(database.pool, 'alice', new Date('2026-01-10T00:00:00Z'))).toEqual({
      agentsCreated: counts(0, 2),
      conversationsStarted: counts(0, 4),
      matchesFound: counts(0, 2),
    });
    // Carol's lender was deleted: it is no longer counted as created.
    expect((await weeklyTrends(database.pool, 'carol', new Date('2026-01-05T00:00:00Z'))).agentsCreated).toEqual(counts(0, 0));
    expect((await weeklyTrends(database.pool, 'alice', new Date('2026-01-20T00:00:00Z'))).matchesFound).toEqual(counts(0, 0));
  });
});
