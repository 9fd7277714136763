import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { readModelDatabase, recorded } from '../testing';
import { streamVersion, versionsReadModel } from '.';

describe('versions read model', () => {
  const database = readModelDatabase();

  const project = async (batch: ReturnType<typeof recorded>) => {
    const client = await database.pool.connect();
    try {
      await versionsReadModel.project(client, batch);
    } finally {
      client.release();
    }
  };

  it('holds each agent’s and conversation’s last stream version, and never moves one back on a redelivery', async () => {
    const participants = [
      { agentId: 1, ownerId: 'alice', name: 'Amelia', type: 'borrower' as const },
      { agentId: 2, ownerId: 'bob', name: 'Oakfield', type: 'lender' as const },
    ];
    const events = recorded([
      { type: 'AgentCreated', data: { ...participants[0]!, description: '', criteria: null } },
      { type: 'AgentCreated', data: { ...participants[1]!, description: '', criteria: null } },
      { type: 'AgentPaused', data: { agentId: 1 } },
      { type: 'ConversationStarted', data: { conversationId: 7, title: 'Amelia and Oakfield', participants, matchId: null } },
      { type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } },
      { type: 'AgentResumed', data: { agentId: 1 } },
      {
        type: 'MatchFound',
        data: { matchId: 'm1', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null, score: 80, explanation: [] },
      },
    ] satisfies DomainEvent[]);
    await project(events.slice(0, 4));
    await project(events.slice(4));
    expect(await streamVersion(database.pool, 'agent-1')).toBe(2);
    expect(await streamVersion(database.pool, 'agent-2')).toBe(0);
    expect(await streamVersion(database.pool, 'conversation-7')).toBe(1);
    expect(await streamVersion(database.pool, 'conversation-8')).toBeNull();
    // Streams that are not agents or conversations are not kept.
    expect(
      (await database.pool.query<{ stream: string }>('select stream from rm_stream_versions order by stream')).rows.map(
        (row) => row.stream,
      ),
    ).toEqual(['agent-1', 'agent-2', 'conversation-7']);

    await project(events.slice(0, 3));
    expect(await streamVersion(database.pool, 'agent-1')).toBe(2);
  });
});
