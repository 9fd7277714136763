import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../domain-events';
import { agentsSwitched, conversationsView, conversationViewFor, ownersOf, storedSides, type Conversation } from './conversations';
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

/** A takeover or hand-back of one side (one participant), as recorded since a side is one agent. */
const side = (agentId: number, byUserId: string, isManualMode: boolean, sessionId = 's1'): DomainEvent => ({
  type: 'ManualModeChanged',
  data: { conversationId: 7, isManualMode, agentId, agentIds: [agentId], byUserId, sessionId },
});
/** The shape recorded while a side was an owner's agents. */
const ownerTakeover = (ownerId: string, isManualMode: boolean, sessionId = 's1'): DomainEvent => ({
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
const held = (agentId: number, byUserId: string | null, sessionId: string | null = 's1') => ({
  agentId,
  byUserId,
  sessionId,
  since: WHEN_AT,
});

describe('control per side (docs/decisions/per-side-control.md)', () => {
  it('takes over one participant only (not its owner’s other agents), and hands it back', () => {
    spec
      .given(started)
      .when(side(1, 'alice', true))
      .then({ ...conversation, isManualMode: true, manualSides: [held(1, 'alice')], updatedAt: WHEN_AT });
    spec
      .given(started, side(1, 'alice', true), side(3, 'alice', true))
      .when(side(1, 'alice', false))
      .then({ ...conversation, isManualMode: true, manualSides: [{ ...held(3, 'alice'), since: GIVEN_AT }], updatedAt: WHEN_AT });
  });

  it('reads a hand-over as the side moving to the person it was given to, in their session', () => {
    const handedOver: DomainEvent = {
      type: 'ManualModeChanged',
      data: { conversationId: 7, isManualMode: true, agentId: 1, agentIds: [1], byUserId: 'carol', sessionId: 'c1', handedOverBy: 'alice' },
    };
    spec
      .given(started, side(1, 'alice', true))
      .when(handedOver)
      .then({ ...conversation, isManualMode: true, manualSides: [held(1, 'carol', 'c1')], updatedAt: WHEN_AT });
  });

  it('reads the older shapes as they were recorded: an owner’s agents, or every side', () => {
    spec
      .given(started)
      .when(ownerTakeover('alice', true))
      .then({ ...conversation, isManualMode: true, manualSides: [held(1, 'alice'), held(3, 'alice')], updatedAt: WHEN_AT });
    spec
      .given(started, side(1, 'alice', true), side(3, 'alice', true))
      .when(ownerTakeover('alice', false))
      .then({ ...conversation, updatedAt: WHEN_AT });
    // A switch written before control was per side (no ownerId) holds every side.
    spec
      .given(started)
      .when({ type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } })
      .then({
        ...conversation,
        isManualMode: true,
        manualSides: [held(1, null, null), held(2, null, null), held(3, null, null)],
        updatedAt: WHEN_AT,
      });
    expect(
      agentsSwitched({ type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: false, ownerId: 'bob' } }, participants),
    ).toEqual([2]);
  });

  it('reads sides a read model stored by owner as that owner’s participants', () => {
    const stored = [{ ownerId: 'alice', byUserId: 'alice', sessionId: 's1', since: WHEN_AT }, held(2, 'bob')];
    expect(storedSides(stored, participants)).toEqual([held(1, 'alice'), held(3, 'alice'), held(2, 'bob')]);
  });

  it("shows each viewer every side, whether it is their firm's, whether they hold it, and only their own firm's sessions", () => {
    let state: Conversation | null = null;
    for (const event of [started, side(2, 'bob', true, 'bob-laptop')]) state = conversationsView.evolve(state, event, GIVEN_AT);
    const names = (id: string) => ({ alice: 'Alice Smith', bob: 'Bob Jones' })[id] ?? null;
    const forAlice = conversationViewFor(state!, 'alice', names);
    const forBob = conversationViewFor(state!, 'bob', names);
    expect(forAlice.isManualMode).toBe(false);
    expect(forBob.isManualMode).toBe(true);
    const automatic = { isManual: false, controllerId: null, controllerName: null, sessionId: null, since: null };
    expect(forAlice.control).toEqual([
      { agentId: 1, agentIds: [1], side: 'borrower', isMine: true, ...automatic },
      {
        agentId: 2,
        agentIds: [2],
        side: 'lender',
        isMine: false,
        isManual: true,
        controllerId: null,
        controllerName: 'Bob Jones',
        sessionId: null,
        since: GIVEN_AT,
      },
      { agentId: 3, agentIds: [3], side: 'broker', isMine: true, ...automatic },
    ]);
    expect(forBob.control[1]).toEqual({
      agentId: 2,
      agentIds: [2],
      side: 'lender',
      isMine: true,
      isManual: true,
      controllerId: 'bob',
      controllerName: 'Bob Jones',
      sessionId: 'bob-laptop',
      since: GIVEN_AT,
    });
    // A colleague of Bob's firm is shown the same: who holds it and in which session (to ask there).
    expect(conversationViewFor(state!, { userId: 'dan', firmId: 'bob' }, names).control[1]).toMatchObject({
      isMine: true,
      controllerId: 'bob',
      controllerName: 'Bob Jones',
      sessionId: 'bob-laptop',
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
