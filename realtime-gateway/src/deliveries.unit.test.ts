import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { dealOpened, SAMPLE_DEAL_ID } from '@pf/events/testing';
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
    // Everyone here is in a firm of one (its id is theirs), so the firms told are the people told.
    (delivery.everyone ? ['*'] : [...delivery.firms, ...(delivery.users ?? [])]).map((user) => ({
      user,
      follow: delivery.onlyFollowersOf ?? null,
      body: delivery.body({ userId: user, firmId: user }),
    })),
  );

describe('deliveries', () => {
  it('tells only the owner of an agent about it, and nudges their stats (and, for a borrower, their own funnel: a new lead)', () => {
    const index = given();
    const pushes = summary(when(index, agent(1, 'alice')));
    expect(pushes.map(({ user, body }) => [user, body.type])).toEqual([
      ['alice', 'agent_updated'],
      ['alice', 'stats_changed'],
      ['alice', 'views_changed'],
      ['alice', 'views_changed'],
    ]);
    // Every agent is a lead on Matching & Leads; a borrower is also a new lead of its firm's funnel (no other firm's).
    expect(pushes[2]!.body).toEqual({ type: 'views_changed', views: ['leads', 'matches'] });
    expect(pushes[3]!.body).toEqual({ type: 'views_changed', views: ['analytics'] });
    expect(summary(when(given(), agent(2, 'bob', 'lender'))).map(({ user }) => user)).toEqual(['bob', 'bob', 'bob']);
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

  // docs/architecture.md "A push": a conversation travels in the push itself, as the receiving firm reads it, and
  // only to the firms the visibility rule lets see it.
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

  // docs/architecture.md "A push": a new message travels in the push (message_created), to the conversation's followers.
  it('pushes the mode change to every owner, and a message only to followers of the conversation', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started);
    const mode = summary(when(index, { type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } }));
    expect(mode.map(({ body }) => body)).toContainEqual(
      expect.objectContaining({ conversation: expect.objectContaining({ isManualMode: true, updatedAt: LATER }) as unknown }) as unknown,
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

  it('nudges the stats and the matching screens of every owner taking part in a match, once each', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), agent(3, 'alice', 'broker'));
    const pushes = summary(
      when(index, {
        type: 'MatchFound',
        data: { matchId: 'm1', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: 3, score: 80, explanation: [] },
      }),
    );
    expect(pushes.map(({ user, body }) => [user, body.type, 'views' in body ? body.views : null])).toEqual([
      ['alice', 'stats_changed', null],
      ['bob', 'stats_changed', null],
      ['alice', 'views_changed', ['matches', 'leads', 'notifications']],
      ['bob', 'views_changed', ['matches', 'leads', 'notifications']],
      ['alice', 'views_changed', ['analytics']],
      ['bob', 'views_changed', ['analytics']],
    ]);
  });

  it('completes a conversation with its outcome and nudges stats', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started);
    const pushes = summary(when(index, { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'agreed', reason: 'Deal' } }));
    expect(
      pushes
        .filter(({ body }) => body.type === 'stats_changed')
        .map(({ user }) => user)
        .sort(),
    ).toEqual(['alice', 'bob']);
    expect(pushes[0]!.body).toMatchObject({ conversation: { status: 'completed', outcome: 'agreed' } });
  });

  it('pushes no message from an agent that is not a participant (it is no part of the conversation)', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), agent(9, 'mallory', 'lender'), started);
    const message: DomainEvent = {
      type: 'MessageSent',
      data: { conversationId: 7, messageId: 41, fromAgentId: 9, toAgentId: 1, content: 'Psst', isAutomated: true },
    };
    expect(when(index, message)).toEqual([]);
    expect(index.conversations.get(7)!.updatedAt).toBe(AT);
  });

  it('counts an offer as activity: it moves the conversation’s updatedAt, tells the receiving owner (a notification) and both sides’ firms (rates moved), no other firm', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started);
    const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
    const pushes = summary(
      when(index, { type: 'OfferMade', data: { conversationId: 7, offerId: 'o1', round: 1, fromAgentId: 2, toAgentId: 1, terms } }),
    );
    expect(pushes.map(({ user, body }) => [user, 'views' in body ? body.views : body.type])).toEqual([
      ['bob', ['analytics', 'market']],
      ['alice', ['analytics', 'market']],
      ['alice', ['notifications']],
    ]);
    expect(index.conversations.get(7)!.updatedAt).toBe(LATER);
  });

  it('tells no one of a notification for an offer between two agents of the same owner', () => {
    const index = given(agent(1, 'alice'), agent(2, 'alice', 'lender'), started);
    const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
    const pushes = summary(
      when(index, { type: 'OfferMade', data: { conversationId: 7, offerId: 'o1', round: 1, fromAgentId: 2, toAgentId: 1, terms } }),
    );
    expect(pushes.map(({ user }) => user)).toEqual(['alice']);
  });

  it('nudges only the reader’s notifications for the notification commands', () => {
    const pushes = summary(when(given(), { type: 'AllNotificationsRead', data: { userId: 'alice' } }));
    expect(pushes.map(({ user, body }) => [user, 'views' in body ? body.views : body.type])).toEqual([['alice', ['notifications']]]);
  });

  it('still tells the owner of a deleted agent about a match it takes part in', () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), { type: 'AgentDeleted', data: { agentId: 2 } });
    const pushes = summary(
      when(index, {
        type: 'MatchFound',
        data: { matchId: 'm2', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null, score: 75, explanation: [] },
      }),
    );
    expect([...new Set(pushes.map(({ user }) => user))]).toEqual(['alice', 'bob']);
  });

  it('gives nothing for events about things it never saw', () => {
    const index = given();
    expect(when(index, { type: 'ManualModeChanged', data: { conversationId: 99, isManualMode: true } })).toEqual([]);
    expect(when(index, { type: 'AgentPaused', data: { agentId: 99 } })).toEqual([]);
  });

  it('tells the owners of a deal’s agents about the deal, its documents and the figures it moves, and no other firm', () => {
    const party = (agentId: number, ownerId: string, type: 'borrower' | 'lender') => ({ agentId, ownerId, name: `Agent ${agentId}`, type });
    const dealId = SAMPLE_DEAL_ID;
    const documentId = '7a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'));
    const opened = summary(when(index, dealOpened({ borrower: party(1, 'alice', 'borrower'), lender: party(2, 'bob', 'lender') })));
    expect(opened.map(({ user, body }) => [user, body])).toEqual([
      ['alice', { type: 'views_changed', views: ['deals', 'matches', 'leads', 'documents', 'notifications'] }],
      ['bob', { type: 'views_changed', views: ['deals', 'matches', 'leads', 'documents', 'notifications'] }],
      ['alice', { type: 'views_changed', views: ['analytics', 'market'] }],
      ['bob', { type: 'views_changed', views: ['analytics', 'market'] }],
    ]);
    expect(
      summary(when(index, { type: 'DealStageChanged', data: { dealId, stage: 'valuation', from: 'application' } })).map((p) => p.user),
    ).toEqual(['alice', 'bob', 'alice', 'bob']);
    const uploaded = summary(
      when(index, {
        type: 'DocumentUploaded',
        data: {
          documentId,
          dealId,
          name: 'survey.pdf',
          documentType: 'valuation',
          contentType: 'application/pdf',
          size: 10,
          sha256: 'a'.repeat(64),
          uploadedBy: { userId: 'alice', name: 'Alice' },
          ownerIds: ['alice', 'bob'],
        },
      }),
    );
    expect(uploaded.map(({ user, body }) => [user, body])).toEqual([
      ['alice', { type: 'views_changed', views: ['documents', 'notifications'] }],
      ['bob', { type: 'views_changed', views: ['documents', 'notifications'] }],
    ]);
    expect(
      summary(when(index, { type: 'DocumentDownloaded', data: { documentId: 'b'.repeat(8) + '-0000-4000-8000-000000000000' } })),
    ).toEqual([]);
  });

  it("rewrites a deleted person's conversations at once: their agent is a Deleted agent and the title is told again, to every party", () => {
    const index = given(agent(1, 'alice'), agent(2, 'bob', 'lender'), started);
    index.names.set('alice', 'Alice Archer');
    const pushes = summary(when(index, { type: 'AccountDeleted', data: { userId: 'alice' } }));
    const views = pushes.filter(({ body }) => body.type === 'conversation_updated').map(({ user, body }) => [user, body]);
    expect(views.map(([user]) => user)).toEqual(['alice', 'bob']);
    for (const [, body] of views) {
      expect(body).toMatchObject({
        conversation: {
          id: 7,
          title: 'Deleted agent ↔ Agent 2',
          participants: [
            { agentId: 1, name: 'Deleted agent' },
            { agentId: 2, name: 'Agent 2' },
          ],
        },
      });
    }
    expect(pushes.filter(({ body }) => body.type === 'views_changed').map(({ user }) => user)).toEqual(['alice', 'bob']);
    expect(index.names.has('alice')).toBe(false);
    expect(index.agents.get(1)).toMatchObject({ name: 'Deleted agent', description: '', criteria: null, isDeleted: true });
    // A later push of the conversation tells it the same way.
    const completed = summary(when(index, { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'stopped', reason: '' } }));
    expect(completed.find(({ body }) => body.type === 'conversation_updated')?.body).toMatchObject({
      conversation: { title: 'Deleted agent ↔ Agent 2' },
    });
  });
});
