import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPosition, streams, type ConversationStatusView } from '@pf/events';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { createPool, PostgresEventStore } from '@pf/infra';
import { startSingleNode, type RunningServer } from '@pf/single-node';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { testServerEnv } from '@pf/single-node/testing/server-env';

/** The conversation's status on the real single node: a stall recorded by the negotiator shows, with its reason. */
describe('GET /api/conversations/:id/status', () => {
  let database: TestDatabase;
  let server: RunningServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('shows a stalled conversation and why until it moves again, and only to its owners', async () => {
    const alice = await ApiClient.signIn(server.url);
    await alice.post('/api/seed-demo'); // without automation: two conversations under way
    const [conversation] = (await alice.get('/api/conversations')).body as { id: number; participants: { agentId: number }[] }[];
    const id = conversation!.id;
    expect((await alice.get(`/api/conversations/${id}/status`)).body).toEqual({
      conversationId: id,
      status: 'active',
      outcome: null,
      isManualMode: false,
      stalled: null,
    });

    // What the negotiator appends after a run of failed moves (appended here directly, as the system).
    const pool = createPool(server.databaseUrl, 2);
    const store = new PostgresEventStore(pool, server.databaseUrl);
    const [last] = (await store.readStream(streams.conversation(id))).slice(-1);
    const reason = 'Beatrice Cole could not make the next move (5 attempts in a row): connection refused; still trying';
    const agentId = conversation!.participants[0]!.agentId;
    const { position } = await store.append(
      streams.conversation(id),
      [
        {
          id: randomUUID(),
          type: 'ConversationStalled',
          data: { conversationId: id, agentId, reason },
          metadata: { actor: { kind: 'system', name: 'negotiator' }, correlationId: 'c', causationId: null },
        },
      ],
      last!.streamVersion,
    );
    await store.close();
    await pool.end();
    alice.lastPosition = formatPosition(position);
    await alice.get('/api/conversations'); // waits for the projections to pass the stall
    const stalled = (await alice.get<ConversationStatusView>(`/api/conversations/${id}/status`)).body;
    expect(stalled.stalled).toMatchObject({ agentId, reason });

    const bob = await ApiClient.signIn(server.url);
    expect((await bob.get(`/api/conversations/${id}/status`)).status).toBe(404);

    // The operator takes over: the conversation moves again and is no longer shown as stalled.
    await alice.patch(`/api/conversations/${id}`, { isManualMode: true });
    await alice.get('/api/conversations');
    expect((await alice.get(`/api/conversations/${id}/status`)).body).toMatchObject({ isManualMode: true, stalled: null });
  });
});
