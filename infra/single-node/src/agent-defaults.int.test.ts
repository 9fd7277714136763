import { describe, expect, it } from 'vitest';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import type { AgentView, ApiError, ConversationView, MessageView } from '@pf/events';

/**
 * Settings → Agent Defaults' auto-negotiate off, as a broker would expect it: the agent is still matched, but
 * its conversations open with its owner's side in manual mode (from the first event), so it makes no move of
 * its own until the owner hands the side back; the other side's agent negotiates as usual.
 */
describe('an agent created with auto-negotiate off', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '50' });

  it('is matched, but its side opens in manual mode: its owner negotiates, and the agent says nothing until handed back', async () => {
    const alice = await ApiClient.signIn(node.server.url);
    const bob = await ApiClient.signIn(node.server.url);
    expect((await alice.post<ApiError>('/api/agents', { name: 'Harriet Cole', type: 'borrower', autoNegotiate: 'no' })).body.message).toBe(
      'autoNegotiate: autoNegotiate must be true or false',
    );
    const borrower = (
      await alice.post<AgentView>('/api/agents', {
        ...HARRIET_COLE,
        autoNegotiate: false,
      })
    ).body;
    const lender = (
      await bob.post<AgentView>('/api/agents', {
        ...WESSEX_BUILDING_SOCIETY,
      })
    ).body;
    await expect
      .poll(async () => (await alice.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBe(1);
    const conversation = (await alice.get<ConversationView[]>('/api/conversations')).body[0]!;
    const mine = (await alice.get<ConversationView>(`/api/conversations/${conversation.id}`)).body;
    expect(mine.control.find((c) => c.isMine)).toMatchObject({ agentIds: [borrower.id], isManual: true });

    // The borrower opens a negotiation: with its side Alice's, its agent makes no move, however long it is left.
    const messages = async () => (await alice.get<MessageView[]>(`/api/conversations/${conversation.id}/messages`)).body;
    await new Promise((resolve) => setTimeout(resolve, 1000)); // many reply delays: room for a move it must not make
    expect((await messages()).filter((m) => m.isAutomated && !m.isReading && m.fromAgentId === borrower.id)).toEqual([]);
    // Alice negotiates herself; the lender's agent (its side automatic) answers her.
    expect(
      (await alice.post(`/api/conversations/${conversation.id}/messages`, { content: 'We could accept 4.6% over 25 years.' })).status,
    ).toBe(201);
    await expect
      .poll(async () => (await messages()).some((m) => m.isAutomated && m.fromAgentId === lender.id), { timeout: 10_000, interval: 100 })
      .toBe(true);
    expect((await messages()).filter((m) => m.isAutomated && !m.isReading && m.fromAgentId === borrower.id)).toEqual([]);

    // Handed back, the agent takes up the negotiation.
    expect((await alice.patch(`/api/conversations/${conversation.id}`, { isManualMode: false })).status).toBe(200);
    await expect
      .poll(async () => (await messages()).some((m) => m.isAutomated && !m.isReading && m.fromAgentId === borrower.id), {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(true);
  });
});
