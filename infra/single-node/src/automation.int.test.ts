import { describe, expect, it } from 'vitest';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import type { ConversationView, MessageView, StatsView } from '@pf/events';

/** A single node of its own, with the agents on, for the tests of one describe block. */
const serverWithAutomation = (replyDelayMs: number) => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: String(replyDelayMs) });
  return () => node.server;
};

describe('automated agents on the single node (AGENT_REPLY_DELAY_MS=0)', () => {
  const server = serverWithAutomation(0);

  it('fills the seeded conversations with automated messages, reaching deals; a borrower that agreed leaves its other negotiations', async () => {
    const operator = await ApiClient.signIn(server().url);
    expect((await operator.post('/api/seed-demo')).status).toBe(201);
    const unfinished = async () => {
      const list = (await operator.get<ConversationView[]>('/api/conversations')).body;
      return list.length === 0 ? -1 : list.filter((c) => c.status !== 'completed').length;
    };
    await expect.poll(unfinished, { timeout: 30_000, interval: 200 }).toBe(0);
    const conversations = (await operator.get<ConversationView[]>('/api/conversations')).body;
    const outcomes = conversations.map((c) => c.outcome);
    expect(conversations.length).toBeGreaterThanOrEqual(4);
    expect(outcomes).toContain('agreed');
    // A pair whose limits leave nothing in common is no longer opened (docs/decisions/one-commitment-per-need.md);
    // a borrower that agreed with one lender leaves its other negotiations, which end as stopped.
    expect(outcomes).toContain('stopped');
    const agreed = conversations.find((c) => c.outcome === 'agreed')!;
    const thread = (await operator.get<MessageView[]>(`/api/conversations/${agreed.id}/messages`)).body;
    expect(thread.length).toBeGreaterThan(2);
    expect(thread.every((m) => m.isAutomated)).toBe(true);
    expect(thread.at(-1)!.content).toMatch(/£[\d,]+/);
    const stats = (await operator.get<StatsView>('/api/stats')).body;
    expect(stats.matchesFound).toBeGreaterThanOrEqual(conversations.length);
    expect(stats.successRate).toBeGreaterThan(0);
  });
});

describe('manual override stops and resumes the automated agents', () => {
  const server = serverWithAutomation(300);

  it('says nothing while a person has the conversation, and carries on when switched back', async () => {
    const operator = await ApiClient.signIn(server().url);
    await operator.post('/api/agents', {
      ...HARRIET_COLE,
    });
    await operator.post('/api/agents', {
      ...WESSEX_BUILDING_SOCIETY,
    });
    await expect
      .poll(async () => (await operator.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBe(1);
    const conversation = (await operator.get<ConversationView[]>('/api/conversations')).body[0]!;
    expect(conversation.title).toContain('Harriet Cole ↔ Wessex Building Society');

    await operator.patch(`/api/conversations/${conversation.id}`, { isManualMode: true });
    const messages = async (): Promise<MessageView[]> =>
      (await operator.get<MessageView[]>(`/api/conversations/${conversation.id}/messages`)).body;
    // The agents' own messages; the platform's note of how a person's message was read is not one of them.
    const agentsSaid = (thread: readonly MessageView[]) => thread.filter((m) => m.isAutomated && !m.isReading).length;
    const atSwitch = (await messages()).length;
    // Several reply delays pass: an agent that was typing finds the conversation in manual mode and says nothing.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await messages()).length).toBe(atSwitch);

    const content = 'We could accept 4.6% over 25 years.';
    await operator.post(`/api/conversations/${conversation.id}/messages`, { content });
    // The person's message stands, and after it at most the note of how it was read (the negotiator adds it in its
    // own time, so it may already be there): no agent answers while the person has the conversation.
    const thread = await messages();
    const sent = thread.findIndex((m) => !m.isAutomated && m.content === content);
    expect(sent).toBe(atSwitch);
    expect(thread.slice(sent + 1).every((m) => m.isReading === true)).toBe(true);
    const agentsAtSwitch = agentsSaid(thread);

    await operator.patch(`/api/conversations/${conversation.id}`, { isManualMode: false });
    await expect.poll(async () => agentsSaid(await messages()), { timeout: 15_000, interval: 100 }).toBeGreaterThan(agentsAtSwitch);
  });
});
