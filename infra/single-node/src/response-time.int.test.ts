import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';
import { BORROWER_CRITERIA, LENDER_CRITERIA } from '@pf/events/testing';
import { streams, type AgentView, type ApiError, type ConversationView, type EventMetadata, type MessageView } from '@pf/events';

/**
 * The agent response time, made real: an owner negotiating by hand (auto-negotiate off) who leaves the
 * other side unanswered past their agent's response time loses the side to the agent, which says so and carries
 * on; an owner who answers in time keeps it. One "hour" lasts HOUR_MS here (AGENT_RESPONSE_HOUR_MS).
 */
const HOUR_MS = 1000;

describe('an agent whose owner negotiates by hand, with a response time', () => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(
      testServerEnv(database.url, { AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '50', AGENT_RESPONSE_HOUR_MS: String(HOUR_MS) }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  /** Alice's borrower (auto-negotiate off, her side opens manual) and Bob's lender, matched into one conversation. */
  async function negotiation(firstName: string) {
    const alice = await ApiClient.signIn(server.url);
    const bob = await ApiClient.signIn(server.url);
    const profile = {
      firstName,
      lastName: 'Borrowes',
      email: `${firstName.toLowerCase()}@example.co.uk`,
      phone: '+44 20 7946 0958',
      company: 'Home Ltd',
      role: 'borrower',
      address: '1 High Street, Leeds',
      bio: '',
      timezone: 'Europe/London',
      language: 'en',
    };
    expect((await alice.put('/api/auth/profile', profile)).status).toBe(200);
    expect(
      (await alice.post<ApiError>('/api/agents', { name: `${firstName}'s home`, type: 'borrower', autoNegotiate: false, responseTime: 3 }))
        .body.message,
    ).toBe('responseTime: Response time must be 1, 4, 24 or 48 hours');
    const borrower = (
      await alice.post<AgentView>('/api/agents', {
        name: `${firstName}'s home`,
        type: 'borrower',
        autoNegotiate: false,
        responseTime: 1,
        criteria: BORROWER_CRITERIA,
      })
    ).body;
    const lender = (await bob.post<AgentView>('/api/agents', { name: `${firstName}'s lender`, type: 'lender', criteria: LENDER_CRITERIA }))
      .body;
    // Her agent may also be matched with the lender of an earlier test: this test's is the one with this lender.
    const withLender = async (): Promise<number | undefined> =>
      (await alice.get<ConversationView[]>('/api/conversations')).body.find((c) => c.participants.some((p) => p.agentId === lender.id))?.id;
    await expect.poll(withLender, { timeout: 10_000, interval: 50 }).toBeDefined();
    const id = (await withLender())!;
    const messages = async (): Promise<MessageView[]> => (await alice.get<MessageView[]>(`/api/conversations/${id}/messages`)).body;
    const aliceHolds = async (): Promise<boolean> =>
      (await alice.get<ConversationView>(`/api/conversations/${id}`)).body.control.find((c) => c.isMine)!.isManual;
    expect(await aliceHolds()).toBe(true);
    // Alice opens; the lender's agent (its side automatic) answers her: from then on she owes an answer.
    expect((await alice.post(`/api/conversations/${id}/messages`, { content: 'We could accept 4.6% over 25 years.' })).status).toBe(201);
    await expect
      .poll(async () => (await messages()).some((m) => m.fromAgentId === lender.id), { timeout: 10_000, interval: 50 })
      .toBe(true);
    return { alice, borrower, lender, id, messages, aliceHolds };
  }

  it('takes the side back when the owner leaves the other side unanswered past the response time, says so, and negotiates on', async () => {
    const { borrower, id, messages, aliceHolds } = await negotiation('Alice');
    // Alice says nothing more: after one (shortened) hour the agent takes her side back.
    await expect.poll(aliceHolds, { timeout: 15_000, interval: 100 }).toBe(false);
    const said = (await messages()).filter((m) => m.fromAgentId === borrower.id && m.isAutomated && !m.isReading);
    expect(said[0]?.content).toBe('No answer from Alice Borrowes within 1 hour: the agent carries on');
    // Recorded as done by the system, not by Alice.
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    try {
      const handBack = await sql.query<{ data: { byUserId?: string }; metadata: EventMetadata }>(
        "select data, metadata from events where stream_name = $1 and type = 'ManualModeChanged' and data->>'isManualMode' = 'false'",
        [streams.conversation(id)],
      );
      expect(handBack.rows).toHaveLength(1);
      expect(handBack.rows[0]!.data.byUserId).toBeUndefined();
      expect(handBack.rows[0]!.metadata.actor).toEqual({ kind: 'system', name: 'agent response time' });
    } finally {
      await sql.end();
    }
    // The negotiator carries on for the borrower: it speaks again, beyond the hand-back.
    await expect
      .poll(async () => (await messages()).filter((m) => m.fromAgentId === borrower.id && m.isAutomated && !m.isReading).length, {
        timeout: 15_000,
        interval: 100,
      })
      .toBeGreaterThan(1);
  });

  it('finds an owner overdue after a restart: the state comes from the events, not from a timer that was lost', async () => {
    const { alice, borrower, id } = await negotiation('Dora');
    // Stopped right after the lender spoke, and down for longer than the response time.
    const env = testServerEnv(database.url, { AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '50', AGENT_RESPONSE_HOUR_MS: String(HOUR_MS) });
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 1.5 * HOUR_MS));
    server = await startSingleNode(env);
    const again = new ApiClient(server.url);
    again.cookie = alice.cookie;
    const holds = async (): Promise<boolean> =>
      (await again.get<ConversationView>(`/api/conversations/${id}`)).body.control.find((c) => c.isMine)!.isManual;
    await expect.poll(holds, { timeout: 15_000, interval: 100 }).toBe(false);
    const said = (await again.get<MessageView[]>(`/api/conversations/${id}/messages`)).body;
    expect(said.filter((m) => m.fromAgentId === borrower.id && m.isAutomated && !m.isReading)[0]?.content).toBe(
      'No answer from Dora Borrowes within 1 hour: the agent carries on',
    );
  });

  it('leaves the side with an owner who answers within the response time, for several response times', async () => {
    const { alice, borrower, lender, id, messages, aliceHolds } = await negotiation('Carol');
    // For four response times, Carol answers each of the lender's messages within a fraction of one.
    const until = Date.now() + 4 * HOUR_MS;
    let answered = (await messages()).filter((m) => m.fromAgentId === lender.id).length;
    let replies = 0;
    while (Date.now() < until) {
      const fromLender = (await messages()).filter((m) => m.fromAgentId === lender.id).length;
      if (fromLender > answered || replies === 0) {
        answered = fromLender;
        replies += 1;
        expect(
          (await alice.post(`/api/conversations/${id}/messages`, { content: `Thank you, let me think about it (${replies}).` })).status,
        ).toBe(201);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await aliceHolds()).toBe(true);
    expect((await messages()).filter((m) => m.fromAgentId === borrower.id && m.isAutomated && !m.isReading)).toEqual([]);
  });
});
