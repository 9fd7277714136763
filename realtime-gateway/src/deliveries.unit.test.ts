import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { deliveriesFor, type Delivery } from './deliveries';
import { applyEvent, canSeeConversation, emptyIndex, type ViewIndex } from './view-index';

const AT = '2025-01-01T10:00:00.000Z';
const LATER = '2025-01-01T10:05:00.000Z';

function given(...events: DomainEvent[]): ViewIndex {
  const index = emptyIndex();
  for (const event of events) applyEvent(index, event, AT);
  return index;
}

/** when: the event is applied, then its pushes are built, as the live follower does. */
function when(index: ViewIndex, event: DomainEvent, at = LATER): Delivery[] {
  applyEvent(index, event, at);
  return deliveriesFor(index, event, at);
}

const agent = (agentId: number, ownerId: string, type: 'borrower' | 'lender' | 'broker' = 'borrower'): DomainEvent => ({
  type: 'AgentCreated',
  data: { agentId, ownerId, name: `Agent ${agentId}`, type, description: '', criteria: null },
});

const started: DomainEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 7,
    title: 'Loan for 12 Elm Street',
    matchId: null,
    participants: [
      { agentId: 1, ownerId: 'alice', name: 'Agent 1', type: 'borrower' },
      { agentId: 2, ownerId: 'bob', name: 'Agent 2', type: 'lender' },
    ],
  },
};

const summary = (deliveries: Delivery[]) =>
  deliveries.flatMap((delivery) =>
    delivery.users.map((user) => ({ user, follow: delivery.onlyFollowersOf ?? null, body: delivery.body(user) })),
  );

describe('deliveries', () => {
  it('tells only the owner of an agent about it, and nudges their stats', () => {
    const index = given();
    const pushes = summary(when(index, agent(1, 'alice')));
    expect(pushes.map(({ user, body }) => [user, body.type])).toEqual([
      ['alice', 'agent_updated'],
      ['alice', 'stats_changed'],
    ]);
    expect(pushes[0]!.body).toMatchObject({ agentId: 1, agent: { id: 1, isActive: true, createdAt: LATER } });
  });

  it('pushes a paused agent as inactive and a deleted one as null', () => {
    const index = given(agent(1, 'alice'));
    expect(summary(when(index, { type: 'AgentPaused', data: { agentId: 1 } }))[0]!.body).toMatchObject({
      agent: { isActive: false, updatedAt: LATER },
    });
    expect(summary(when(index, { type: 'AgentDeleted', data: { agentId: 1 } }))[0]!.body).toEqual({
      type: 'agent_updated',
      agentId: 1,
      agent: null,
    });
  });

  it('shows a conversation to the owners of its agents, each with their own isMine', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'));
    const pushes = summary(when(index, started)).filter(({ body }) => body.type === 'conversation_updated');
    expect(pushes.map(({ user }) => user).sort()).toEqual(['alice', 'bob']);
    const forAlice = pushes.find(({ user }) => user === 'alice')!.body;
    expect(forAlice).toMatchObject({
      conversation: { id: 7, status: 'active', isManualMode: false, participants: [{ isMine: true }, { isMine: false }] },
    });
    expect(canSeeConversation(index, 7, 'alice')).toBe(true);
    expect(canSeeConversation(index, 7, 'mallory')).toBe(false);
  });

  it('pushes the mode change to every owner, and a message only to followers of the conversation', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started);
    const mode = summary(when(index, { type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } }));
    expect(mode.map(({ body }) => body)).toContainEqual(
      expect.objectContaining({ conversation: expect.objectContaining({ isManualMode: true, updatedAt: LATER }) }),
    );
    const message = summary(
      when(index, {
        type: 'MessageSent',
        data: { conversationId: 7, messageId: 40, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: false },
      }),
    );
    expect(message.map(({ user, follow }) => [user, follow])).toEqual([
      ['alice', 7],
      ['bob', 7],
    ]);
    expect(message[0]!.body).toEqual({
      type: 'message_created',
      conversationId: 7,
      message: {
        id: 40,
        conversationId: 7,
        fromAgentId: 1,
        toAgentId: 2,
        fromAgentName: 'Agent 1',
        fromAgentType: 'borrower',
        content: 'Hello',
        isAutomated: false,
        createdAt: LATER,
      },
    });
  });

  it('keeps a deleted agent’s conversations visible to its owner', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started, { type: 'AgentDeleted', data: { agentId: 1 } });
    expect(canSeeConversation(index, 7, 'alice')).toBe(true);
  });

  it('nudges the stats of every owner taking part in a match, once each', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), agent(3, 'alice', 'broker'));
    const pushes = summary(
      when(index, {
        type: 'MatchFound',
        data: { matchId: 'm1', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: 3, score: 80, explanation: [] },
      }),
    );
    expect(pushes.map(({ user, body }) => [user, body.type])).toEqual([
      ['alice', 'stats_changed'],
      ['bob', 'stats_changed'],
    ]);
  });

  it('completes a conversation with its outcome and nudges stats', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started);
    const pushes = summary(
      when(index, { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'agreed', reason: 'Deal' } }),
    );
    expect(pushes.filter(({ body }) => body.type === 'stats_changed').map(({ user }) => user).sort()).toEqual([
      'alice',
      'bob',
    ]);
    expect(pushes[0]!.body).toMatchObject({ conversation: { status: 'completed', outcome: 'agreed' } });
  });

  it('gives nothing for events about things it never saw', () => {
    const index = given();
    expect(when(index, { type: 'ManualModeChanged', data: { conversationId: 99, isManualMode: true } })).toEqual([]);
    expect(when(index, { type: 'AgentPaused', data: { agentId: 99 } })).toEqual([]);
  });
});
