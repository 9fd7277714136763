import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { DomainEvent } from '@pf/events';
import { dealAgreed } from '@pf/events/testing';
import { checkpointMigrations, migrate, type RecordedEvent } from '@pf/infra';
import { ProjectorMemory } from '../projection-kit/memory';
import { projectBatch } from '../projector/projector';
import { projectReadModels, READ_MODEL_TABLES } from '.';
import { readModelDatabase, recorded } from './testing';

/** A history with every event type, several changes to one row, and timestamps out of order across streams. */
function history(): RecordedEvent[] {
  const owner = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  const agent = (agentId: number, type: 'borrower' | 'broker' | 'lender', n: number) => ({
    agentId,
    ownerId: owner(n),
    name: `${type} ${agentId}`,
    type,
  });
  const [a1, a2, a3, a4] = [agent(1, 'borrower', 1), agent(2, 'lender', 2), agent(3, 'broker', 1), agent(4, 'lender', 3)];
  const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
  const events: DomainEvent[] = [
    { type: 'AgentCreated', data: { ...a1, description: 'first', criteria: { propertyValueMin: '£200,000' }, strategy: 'boulware' } },
    { type: 'AgentCreated', data: { ...a2, description: 'lends', criteria: null } },
    { type: 'AgentUpdated', data: { agentId: 1, name: 'Renamed', description: 'second', criteria: null } },
    { type: 'AgentPaused', data: { agentId: 1 } },
    { type: 'AgentCreated', data: { ...a3, description: 'brokers', criteria: null } },
    { type: 'AgentResumed', data: { agentId: 1 } },
    {
      type: 'AgentUpdated',
      data: { agentId: 2, name: 'Lender two', description: 'changed', criteria: { loanTermMax: '30 years' }, strategy: 'conceder' },
    },
    {
      type: 'MatchFound',
      data: {
        matchId: 'm1',
        borrowerAgentId: 1,
        lenderAgentId: 2,
        brokerAgentId: 3,
        score: 81.5,
        explanation: [{ criterion: 'rate', verdict: 'pass', detail: 'ok' }],
      },
    },
    {
      type: 'ConversationStarted',
      data: { conversationId: 10, title: 'One', participants: [{ ...a1, name: 'Renamed' }, a2, a3], matchId: 'm1' },
    },
    {
      type: 'MessageSent',
      data: { conversationId: 10, messageId: 100, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: true },
    },
    { type: 'OfferMade', data: { conversationId: 10, offerId: 'o1', round: 1, fromAgentId: 2, toAgentId: 1, terms } },
    { type: 'ManualModeChanged', data: { conversationId: 10, isManualMode: true } },
    {
      type: 'MessageSent',
      data: { conversationId: 10, messageId: 101, fromAgentId: 2, toAgentId: null, content: 'Offer', isAutomated: false },
    },
    { type: 'ManualModeChanged', data: { conversationId: 10, isManualMode: false } },
    { type: 'AgentCreated', data: { ...a4, description: 'other', criteria: null } },
    { type: 'ConversationStarted', data: { conversationId: 11, title: 'Two', participants: [a1, a4], matchId: null } },
    { type: 'MessageSent', data: { conversationId: 11, messageId: 102, fromAgentId: 4, toAgentId: 1, content: 'Hi', isAutomated: true } },
    {
      type: 'MessageSent',
      data: { conversationId: 11, messageId: 103, fromAgentId: 99, toAgentId: 1, content: 'Not a participant', isAutomated: true },
    },
    { type: 'OfferRejected', data: { conversationId: 11, offerId: 'o2', byAgentId: 1 } },
    { type: 'ConversationCompleted', data: { conversationId: 11, outcome: 'no_agreement', reason: 'deadline' } },
    { type: 'OfferAccepted', data: { conversationId: 10, offerId: 'o1', byAgentId: 1, terms } },
    dealAgreed({ conversationId: 10, ...terms }),
    { type: 'ConversationCompleted', data: { conversationId: 10, outcome: 'agreed', reason: 'deal' } },
    { type: 'AgentDeleted', data: { agentId: 4 } },
    { type: 'AgentUpdated', data: { agentId: 2, name: 'Lender two', description: 'again', criteria: null } },
    { type: 'AgentPaused', data: { agentId: 2 } },
  ];
  // Out of order on purpose: the last event of a row wins, not the latest clock.
  return recorded(events, (index) => new Date(Date.UTC(2026, 0, 1, 12, 0, index % 2 === 0 ? index : 60 - index)));
}

async function snapshot(pool: pg.Pool): Promise<Record<string, Record<string, unknown>[]>> {
  const result: Record<string, Record<string, unknown>[]> = {};
  for (const table of READ_MODEL_TABLES)
    result[table] = (await pool.query<Record<string, unknown>>(`select * from ${table} order by 1, 2`)).rows;
  return result;
}

const at = (index: number) => history()[index]!.recordedAt;

describe('the read models’ projections', () => {
  const database = readModelDatabase();
  const events = history();

  it('write the same rows whatever the batch size (one event at a time is what the live projector often does)', async () => {
    const client = await database.pool.connect();
    const project = async (size: number) => {
      await database.reset();
      for (let start = 0; start < events.length; start += size) await projectReadModels(client, events.slice(start, start + size));
      return snapshot(database.pool);
    };
    try {
      const oneByOne = await project(1);
      expect(oneByOne.rm_agents).toHaveLength(4);
      expect(oneByOne.rm_agents!.map((row) => [row.id, row.name, row.strategy, row.is_active, row.is_deleted, row.updated_at])).toEqual([
        [1, 'Renamed', 'boulware', true, false, at(5)],
        [2, 'Lender two', 'conceder', false, false, at(25)],
        [3, 'broker 3', null, true, false, at(4)],
        [4, 'lender 4', null, false, true, at(23)],
      ]);
      // The non-participant's message (103) is no part of conversation 11.
      expect(oneByOne.rm_messages!.map((row) => [row.id, row.from_agent_name, row.from_agent_type])).toEqual([
        [100, 'Renamed', 'borrower'],
        [101, 'lender 2', 'lender'],
        [102, 'lender 4', 'lender'],
      ]);
      expect(oneByOne.rm_conversations!.map((row) => [row.id, row.status, row.outcome, row.is_manual_mode, row.updated_at])).toEqual([
        [10, 'completed', 'agreed', false, at(22)],
        [11, 'completed', 'no_agreement', false, at(19)],
      ]);
      expect(oneByOne.rm_match_parties).toHaveLength(2);
      expect(oneByOne.rm_deals).toHaveLength(1);
      for (const size of [2, 3, 5, 8, events.length]) expect({ size, rows: await project(size) }).toEqual({ size, rows: oneByOne });
    } finally {
      client.release();
    }
  });

  it('write the same rows when the projector folds from what it remembers, and when two copies take turns', async () => {
    await migrate(database.pool, checkpointMigrations);
    const reference = async () => {
      await database.reset();
      const client = await database.pool.connect();
      try {
        await projectReadModels(client, events);
      } finally {
        client.release();
      }
      return snapshot(database.pool);
    };
    const expected = await reference();
    const run = async (size: number, copies: ProjectorMemory[]) => {
      await database.reset();
      await database.pool.query('delete from checkpoints');
      for (let start = 0, turn = 0; start < events.length; start += size, turn++) {
        await projectBatch(database.pool, events.slice(start, start + size), 'projection:test', copies[turn % copies.length]);
      }
      return snapshot(database.pool);
    };
    for (const size of [1, 2, 5]) {
      expect({ size, rows: await run(size, [new ProjectorMemory()]) }).toEqual({ size, rows: expected });
      expect({ size, copies: 2, rows: await run(size, [new ProjectorMemory(), new ProjectorMemory()]) }).toEqual({
        size,
        copies: 2,
        rows: expected,
      });
    }
  });
});
