import type { AgentView, ConversationView, MessageView } from '@pf/events';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { resetPosition, takeView } from '../position';
import { queryKeys } from '../query-keys';
import { applyPush } from './apply-push';

const conversation = (id: number, updatedAt: string, isManualMode = false): ConversationView => ({
  id,
  title: `Conversation ${id}`,
  status: 'active',
  outcome: null,
  isManualMode,
  control: [],
  participants: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt,
});

const message = (id: number): MessageView => ({
  id,
  conversationId: 3,
  fromAgentId: 1,
  toAgentId: 2,
  fromAgentName: 'Amelia Hart',
  fromAgentType: 'borrower',
  content: `message ${id}`,
  isAutomated: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const agent = (id: number, isActive: boolean): AgentView => ({
  id,
  name: `Agent ${id}`,
  type: 'lender',
  description: null,
  criteria: null,
  products: null,
  needs: null,
  strategy: null,
  isActive,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const pushed = { position: '9:1', previousPosition: null };

describe('applyPush', () => {
  it('appends a new message once, to a thread already loaded', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.messages(3), [message(1)]);
    applyPush(client, { type: 'message_created', conversationId: 3, message: message(2), ...pushed });
    applyPush(client, { type: 'message_created', conversationId: 3, message: message(2), ...pushed });
    expect(client.getQueryData<MessageView[]>(queryKeys.messages(3))?.map((m) => m.id)).toEqual([1, 2]);
  });

  it('does not invent a thread that was never loaded', () => {
    const client = new QueryClient();
    applyPush(client, { type: 'message_created', conversationId: 3, message: message(2), ...pushed });
    expect(client.getQueryData(queryKeys.messages(3))).toBeUndefined();
  });

  it('replaces a changed conversation in the detail and the list, most recently updated first', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.conversations, [conversation(2, '2026-01-02'), conversation(1, '2026-01-01')]);
    const changed = conversation(1, '2026-01-03', true);
    applyPush(client, { type: 'conversation_updated', conversation: changed, ...pushed });
    expect(client.getQueryData(queryKeys.conversation(1))).toEqual(changed);
    const list = client.getQueryData<ConversationView[]>(queryKeys.conversations);
    expect(list?.map((c) => [c.id, c.isManualMode])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('keeps a later view of a conversation over a push from an earlier position', () => {
    resetPosition();
    const client = new QueryClient();
    // Our own command's answer (position 20:1) showed the side taken over by the other session...
    const later = conversation(5, '2026-01-03', true);
    expect(takeView('conversation:5', '20:1')).toBe(true);
    client.setQueryData(queryKeys.conversation(5), later);
    // ...and the push of the hand-back before it (19:1) arrives afterwards: it must not undo what is known.
    applyPush(client, {
      type: 'conversation_updated',
      conversation: conversation(5, '2026-01-02', false),
      position: '19:1',
      previousPosition: null,
    });
    expect(client.getQueryData(queryKeys.conversation(5))).toEqual(later);
    applyPush(client, {
      type: 'conversation_updated',
      conversation: conversation(5, '2026-01-04', false),
      position: '21:1',
      previousPosition: '20:1',
    });
    expect(client.getQueryData<ConversationView>(queryKeys.conversation(5))?.isManualMode).toBe(false);
  });

  it('updates, adds and removes agents', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.agents, [agent(1, true)]);
    applyPush(client, { type: 'agent_updated', agentId: 1, agent: agent(1, false), ...pushed });
    applyPush(client, { type: 'agent_updated', agentId: 2, agent: agent(2, true), ...pushed });
    expect(client.getQueryData<AgentView[]>(queryKeys.agents)?.map((a) => [a.id, a.isActive])).toEqual([
      [2, true],
      [1, false],
    ]);
    applyPush(client, { type: 'agent_updated', agentId: 1, agent: null, ...pushed });
    expect(client.getQueryData<AgentView[]>(queryKeys.agents)?.map((a) => a.id)).toEqual([2]);
  });

  it('marks the stats stale so that they are read again', () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(queryKeys.stats, { activeAgents: 1, activeConversations: 0, matchesFound: 0, successRate: 0 });
    applyPush(client, { type: 'stats_changed', ...pushed });
    expect(client.getQueryState(queryKeys.stats)?.isInvalidated).toBe(true);
  });
});
