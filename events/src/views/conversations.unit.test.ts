import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../domain-events';
import { conversationsView, conversationViewFor, ownersOf, type Conversation } from './conversations';
import { canSeeConversation } from '../visibility';
import { messageOf } from './messages';
import { GIVEN_AT, viewSpec, WHEN_AT } from './view-spec';
import { dealAgreed } from '../testing/fixtures';

const participants = [
  { agentId: 1, ownerId: 'alice', name: 'Alice Borrower', type: 'borrower' as const },
  { agentId: 2, ownerId: 'bob', name: 'Northern Bank', type: 'lender' as const },
  { agentId: 3, ownerId: 'alice', name: 'Alice Broker', type: 'broker' as const },
];
const started: DomainEvent = {
  type: 'ConversationStarted',
  data: { conversationId: 7, title: 'Loan for 12 Elm Street', participants, matchId: 'm1' },
};
const conversation: Conversation = {
  id: 7,
  title: 'Loan for 12 Elm Street',
  status: 'active',
  outcome: null,
  isManualMode: false,
  manualSides: [],
  matchId: 'm1',
  participants,
  createdAt: GIVEN_AT,
  updatedAt: GIVEN_AT,
};
const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
const message = (fromAgentId: number): DomainEvent => ({
  type: 'MessageSent',
  data: { conversationId: 7, messageId: 40, fromAgentId, toAgentId: 2, content: 'Hello', isAutomated: false },
});
const spec = viewSpec(conversationsView);

const takeover = (ownerId: string, isManualMode: boolean, sessionId = 's1'): DomainEvent => ({
  type: 'ManualModeChanged',
  data: {
    conversationId: 7,
    isManualMode,
    ownerId,
    agentIds: participants.filter((p) => p.ownerId === ownerId).map((p) => p.agentId),
    byUserId: ownerId,
    sessionId,
  },
});

describe('control per side', () => {
  it("takes over one owner's side only, and hands it back", () => {
    spec
      .given(started)
      .when(takeover('bob', true))
      .then({
        ...conversation,
        isManualMode: true,
        manualSides: [{ ownerId: 'bob', byUserId: 'bob', sessionId: 's1', since: WHEN_AT }],
        updatedAt: WHEN_AT,
      });
    spec
      .given(started, takeover('bob', true))
      .when(takeover('bob', false))
      .then({ ...conversation, updatedAt: WHEN_AT });
  });

  it("shows each viewer whether their own side is manual, who controls each side, and only their own side's session", () => {
    let state: Conversation | null = null;
    for (const event of [started, takeover('bob', true, 'bob-laptop')]) state = conversationsView.evolve(state, event, GIVEN_AT);
    const names = (id: string) => ({ alice: 'Alice Smith', bob: 'Bob Jones' })[id] ?? null;
    const forAlice = conversationViewFor(state!, 'alice', names);
    const forBob = conversationViewFor(state!, 'bob', names);
    expect(forAlice.isManualMode).toBe(false);
    expect(forBob.isManualMode).toBe(true);
    expect(forAlice.control).toEqual([
      { agentIds: [1, 3], isMine: true, isManual: false, controllerName: null, sessionId: null, since: null },
      { agentIds: [2], isMine: false, isManual: true, controllerName: 'Bob Jones', sessionId: null, since: GIVEN_AT },
    ]);
    expect(forBob.control[1]).toEqual({
      agentIds: [2],
      isMine: true,
      isManual: true,
      controllerName: 'Bob Jones',
      sessionId: 'bob-laptop',
      since: GIVEN_AT,
    });
  });
});

describe('conversations view', () => {
  it('starts active, automatic, with its participants', () => {
    spec
      .given()
      .when(started)
      .then({ ...conversation, createdAt: WHEN_AT, updatedAt: WHEN_AT });
    spec
      .given(started)
      .when({ ...started, data: { ...started.data, title: 'Again' } })
      .thenUnchanged();
  });

  it('switches mode and completes with an outcome, each moving updatedAt', () => {
    // A switch written before control was per side (no ownerId) holds every side.
    spec
      .given(started)
      .when({ type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } })
      .then({
        ...conversation,
        isManualMode: true,
        manualSides: [
          { ownerId: 'alice', byUserId: null, sessionId: null, since: WHEN_AT },
          { ownerId: 'bob', byUserId: null, sessionId: null, since: WHEN_AT },
        ],
        updatedAt: WHEN_AT,
      });
    spec
      .given(started)
      .when({ type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'agreed', reason: 'Deal' } })
      .then({ ...conversation, status: 'completed', outcome: 'agreed', updatedAt: WHEN_AT });
  });

  it('counts a participant’s message as activity: updatedAt moves', () => {
    spec
      .given(started)
      .when(message(1))
      .then({ ...conversation, updatedAt: WHEN_AT });
  });

  it('counts offers as activity a person sees: made, accepted and rejected each move updatedAt', () => {
    const offered: DomainEvent = {
      type: 'OfferMade',
      data: { conversationId: 7, offerId: 'o1', round: 1, fromAgentId: 2, toAgentId: 1, terms },
    };
    spec
      .given(started)
      .when(offered)
      .then({ ...conversation, updatedAt: WHEN_AT });
    spec
      .given(started, offered)
      .when({ type: 'OfferAccepted', data: { conversationId: 7, offerId: 'o1', byAgentId: 1, terms } })
      .then({ ...conversation, updatedAt: WHEN_AT });
    spec
      .given(started, offered)
      .when({ type: 'OfferRejected', data: { conversationId: 7, offerId: 'o1', byAgentId: 1 } })
      .then({ ...conversation, updatedAt: WHEN_AT });
  });

  it('leaves out a non-participant: its message or offer changes nothing and is no message of the conversation', () => {
    spec.given(started).when(message(99)).thenUnchanged();
    spec
      .given(started)
      .when({ type: 'OfferMade', data: { conversationId: 7, offerId: 'o9', round: 1, fromAgentId: 99, toAgentId: 1, terms } })
      .thenUnchanged();
    expect(messageOf(conversation, message(99), WHEN_AT)).toBeNull();
  });

  it('lists a participant’s message under the name and type it had when the conversation started', () => {
    expect(messageOf(conversation, message(2), WHEN_AT)).toEqual({
      id: 40,
      conversationId: 7,
      fromAgentId: 2,
      toAgentId: 2,
      fromAgentName: 'Northern Bank',
      fromAgentType: 'lender',
      content: 'Hello',
      isAutomated: false,
      createdAt: WHEN_AT,
    });
    expect(messageOf(null, message(2), WHEN_AT)).toBeNull();
  });

  it('ignores events about a conversation it never saw, and deals (the deals view’s)', () => {
    spec
      .given()
      .when({ type: 'ManualModeChanged', data: { conversationId: 9, isManualMode: true } })
      .then(null);
    expect(conversationsView.keyOf(dealAgreed())).toBeNull();
  });

  it('is seen by the owners of its agents, each told which participants are theirs', () => {
    expect(ownersOf(conversation)).toEqual(['alice', 'bob']);
    expect([
      canSeeConversation(conversation, 'bob'),
      canSeeConversation(conversation, 'mallory'),
      canSeeConversation(undefined, 'bob'),
    ]).toEqual([true, false, false]);
    expect(conversationViewFor(conversation, 'bob').participants).toEqual([
      { agentId: 1, name: 'Alice Borrower', type: 'borrower', isMine: false },
      { agentId: 2, name: 'Northern Bank', type: 'lender', isMine: true },
      { agentId: 3, name: 'Alice Broker', type: 'broker', isMine: false },
    ]);
  });
});
