import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { DomainEvent } from '@pf/events';
import { createPool, migrate, type RecordedEvent } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { applyBatch } from './apply-batch';
import { applyEvent } from './apply-event';
import { READ_MODEL_TABLES, readModelMigrations } from './schema';

/** A history with every event type, several changes to one row, and timestamps out of order across streams. */
function history(): RecordedEvent[] {
  const owner = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  const agent = (agentId: number, type: 'borrower' | 'broker' | 'lender', n: number) => ({ agentId, ownerId: owner(n), name: `${type} ${agentId}`, type });
  const [a1, a2, a3, a4] = [agent(1, 'borrower', 1), agent(2, 'lender', 2), agent(3, 'broker', 1), agent(4, 'lender', 3)];
  const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
  const events: DomainEvent[] = [
    { type: 'AgentCreated', data: { ...a1, description: 'first', criteria: { propertyValueMin: '£200,000' }, strategy: 'boulware' } },
    { type: 'AgentCreated', data: { ...a2, description: 'lends', criteria: null } },
    { type: 'AgentUpdated', data: { agentId: 1, name: 'Renamed', description: 'second', criteria: null } },
    { type: 'AgentPaused', data: { agentId: 1 } },
    { type: 'AgentCreated', data: { ...a3, description: 'brokers', criteria: null } },
    { type: 'AgentResumed', data: { agentId: 1 } },
    { type: 'AgentUpdated', data: { agentId: 2, name: 'Lender two', description: 'changed', criteria: { loanTermMax: '30 years' }, strategy: 'conceder' } },
    { type: 'MatchFound', data: { matchId: 'm1', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: 3, score: 81.5, explanation: [{ criterion: 'rate', verdict: 'meets', detail: 'ok' }] } },
    { type: 'ConversationStarted', data: { conversationId: 10, title: 'One', participants: [{ ...a1, name: 'Renamed' }, a2, a3], matchId: 'm1' } },
    { type: 'MessageSent', data: { conversationId: 10, messageId: 100, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: true } },
    { type: 'OfferMade', data: { conversationId: 10, offerId: 'o1', round: 1, fromAgentId: 2, toAgentId: 1, terms } },
    { type: 'ManualModeChanged', data: { conversationId: 10, isManualMode: true } },
    { type: 'MessageSent', data: { conversationId: 10, messageId: 101, fromAgentId: 2, toAgentId: null, content: 'Offer', isAutomated: false } },
    { type: 'ManualModeChanged', data: { conversationId: 10, isManualMode: false } },
    { type: 'AgentCreated', data: { ...a4, description: 'other', criteria: null } },
    { type: 'ConversationStarted', data: { conversationId: 11, title: 'Two', participants: [a1, a4], matchId: null } },
    { type: 'MessageSent', data: { conversationId: 11, messageId: 102, fromAgentId: 4, toAgentId: 1, content: 'Hi', isAutomated: true } },
    { type: 'MessageSent', data: { conversationId: 11, messageId: 103, fromAgentId: 99, toAgentId: 1, content: 'Not a participant', isAutomated: true } },
    { type: 'OfferRejected', data: { conversationId: 11, offerId: 'o2', byAgentId: 1 } },
    { type: 'ConversationCompleted', data: { conversationId: 11, outcome: 'no_agreement', reason: 'deadline' } },
    { type: 'OfferAccepted', data: { conversationId: 10, offerId: 'o1', byAgentId: 1, terms } },
    { type: 'DealAgreed', data: { dealId: 'd1', conversationId: 10, borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: 3, propertyValue: 350_000, ltv: 71.4, ...terms } },
    { type: 'ConversationCompleted', data: { conversationId: 10, outcome: 'agreed', reason: 'deal' } },
    { type: 'AgentDeleted', data: { agentId: 4 } },
    { type: 'AgentUpdated', data: { agentId: 2, name: 'Lender two', description: 'again', criteria: null } },
    { type: 'AgentPaused', data: { agentId: 2 } },
  ];
  const streamVersions = new Map<string, number>();
  return events.map((event, index) => {
    const data = event.data as Record<string, unknown>;
    const stream = 'conversationId' in data ? `conversation-${data.conversationId}` : 'agentId' in data ? `agent-${data.agentId}` : `other-${index}`;
    const version = (streamVersions.get(stream) ?? -1) + 1;
    streamVersions.set(stream, version);
    return {
      id: `event-${index}`,
      type: event.type,
      stream,
      streamVersion: version,
      position: { commit: BigInt(index + 1), prepare: BigInt(index + 1) },
      // Out of order on purpose: the last event of a row wins, not the latest clock.
      recordedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, index % 2 === 0 ? index : 60 - index)),
      data: event.data,
      metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
    };
  });
}

async function snapshot(pool: pg.Pool): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of READ_MODEL_TABLES) result[table] = (await pool.query(`select * from ${table} order by 1, 2`)).rows;
  return result;
}

describe('applyBatch', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  const events = history();

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, 2);
    await migrate(pool, readModelMigrations);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('writes the same rows as applying each event in order, whatever the batch size', async () => {
    const client = await pool.connect();
    try {
      for (const event of events) await applyEvent(client, event);
      const oneByOne = await snapshot(pool);
      expect(oneByOne.rm_agents).toHaveLength(4);
      expect(oneByOne.rm_messages).toHaveLength(3);
      for (const size of [1, 2, 3, 5, 8, events.length]) {
        await client.query(`truncate ${READ_MODEL_TABLES.join(', ')}`);
        for (let start = 0; start < events.length; start += size) await applyBatch(client, events.slice(start, start + size));
        expect({ size, rows: await snapshot(pool) }).toEqual({ size, rows: oneByOne });
      }
    } finally {
      client.release();
    }
  });
});
