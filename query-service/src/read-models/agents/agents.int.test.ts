import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { readModelDatabase, recorded } from '../testing';
import { projectAgents } from './projection';
import { listAgents } from './queries';

const created = (agentId: number, ownerId: string, strategy?: 'boulware'): DomainEvent => ({
  type: 'AgentCreated',
  data: {
    agentId,
    ownerId,
    name: `Agent ${agentId}`,
    type: 'lender',
    description: 'Lends',
    criteria: { interestRateMin: '3.9%' },
    ...(strategy ? { strategy } : {}),
  },
});

describe('agents read model', () => {
  const database = readModelDatabase();

  it('lists a user’s agents newest first, as they stand after their last change, and never a deleted one', async () => {
    const events = recorded([
      created(1, 'alice', 'boulware'),
      created(2, 'alice'),
      created(3, 'bob'),
      { type: 'AgentUpdated', data: { agentId: 1, name: 'Northern Bank', description: 'Mortgages', criteria: null } },
      { type: 'AgentPaused', data: { agentId: 1 } },
      created(4, 'alice'),
      { type: 'AgentDeleted', data: { agentId: 4 } },
    ]);
    const client = await database.pool.connect();
    try {
      // Two batches: the second folds on the rows the first stored.
      await projectAgents(client, events.slice(0, 4));
      await projectAgents(client, events.slice(4));
    } finally {
      client.release();
    }
    const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 12, n)).toISOString();
    expect(await listAgents(database.pool, 'alice')).toEqual([
      {
        id: 2,
        name: 'Agent 2',
        type: 'lender',
        description: 'Lends',
        criteria: { interestRateMin: '3.9%' },
        products: null,
        needs: null,
        strategy: null,
        isActive: true,
        createdAt: minute(1),
        updatedAt: minute(1),
      },
      // An update without a strategy keeps the agent's.
      {
        id: 1,
        name: 'Northern Bank',
        type: 'lender',
        description: 'Mortgages',
        criteria: null,
        products: null,
        needs: null,
        strategy: 'boulware',
        isActive: false,
        createdAt: minute(0),
        updatedAt: minute(4),
      },
    ]);
    expect((await listAgents(database.pool, 'bob')).map((agent) => agent.id)).toEqual([3]);
  });
});
