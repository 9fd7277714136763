import { describe, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '@pf/infra';
import { USER_MESSAGES, type AgentMove } from '@pf/events';
import { FURNESS_FIVE_YEAR_FIX } from '@pf/events/testing';
import { deciderSpec } from '../testing/decider-spec';
import { conversationDecider, type ConversationEvent } from './conversation';

const spec = deciderSpec(conversationDecider);
const started: ConversationEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 3,
    title: 'Amelia ↔ Northgate · £320,000',
    matchId: null,
    participants: [
      { agentId: 1, ownerId: 'alice', name: 'Amelia', type: 'borrower' },
      { agentId: 2, ownerId: 'bob', name: 'Northgate', type: 'lender' },
    ],
  },
};
const manual: ConversationEvent = { type: 'ManualModeChanged', data: { conversationId: 3, isManualMode: true } };

describe('conversation decider', () => {
  const bobTakes: ConversationEvent = {
    type: 'ManualModeChanged',
    data: { conversationId: 3, isManualMode: true, agentId: 2, agentIds: [2], byUserId: 'bob', sessionId: 'bob-1' },
  };
  const takeOver = (actorId: string, sessionId: string, isManualMode = true) =>
    ({ type: 'SetManualMode', conversationId: 3, actorId, actorFirmId: actorId, sessionId, isManualMode }) as const;

  it("takes over only the actor's own side, naming the person and the session, and records nothing when already there", () => {
    spec.given([started]).when(takeOver('bob', 'bob-1')).then([bobTakes]);
    spec.given([started, bobTakes]).when(takeOver('bob', 'bob-1')).then([]);
    spec
      .given([started, bobTakes])
      .when(takeOver('bob', 'bob-1', false))
      .then([{ type: 'ManualModeChanged', data: { ...bobTakes.data, isManualMode: false } }]);
    // The older shape (an owner's agents) is read as recorded: bob's side is held, and handed back per side.
    const ownerKeyed: ConversationEvent = {
      type: 'ManualModeChanged',
      data: { conversationId: 3, isManualMode: true, ownerId: 'bob', agentIds: [2], byUserId: 'bob', sessionId: 'bob-1' },
    };
    spec.given([started, ownerKeyed]).when(takeOver('bob', 'bob-1')).then([]);
    spec
      .given([started, ownerKeyed])
      .when(takeOver('bob', 'bob-1', false))
      .then([{ type: 'ManualModeChanged', data: { ...bobTakes.data, isManualMode: false } }]);
  });

  it("refuses to switch another firm's agent, with a clear 403", () => {
    spec
      .given([started])
      .when({
        type: 'SetManualMode',
        conversationId: 3,
        actorId: 'alice',
        actorFirmId: 'alice',
        sessionId: 'a',
        agentId: 2,
        isManualMode: true,
      })
      .thenThrows(Forbidden, "Northgate belongs to another firm: you can take over or hand back only your own firm's agents");
  });

  it('lets exactly one session hold a side: a takeover from another session of the same account is refused', () => {
    spec.given([started, bobTakes]).when(takeOver('bob', 'bob-2')).thenThrows(Conflict, USER_MESSAGES.sideTakenElsewhere);
  });

  it("keeps the other side's agent talking while one side is manual, and lets both people talk when both are", () => {
    const agentSays = (agentId: number) =>
      ({ type: 'SendMessage', conversationId: 3, messageId: 9, speaker: { kind: 'agent', agentId }, content: 'An offer' }) as const;
    spec.given([started, bobTakes]).when(agentSays(2)).then([]);
    spec
      .given([started, bobTakes])
      .when(agentSays(1))
      .then([
        {
          type: 'MessageSent',
          data: { conversationId: 3, messageId: 9, fromAgentId: 1, toAgentId: 2, content: 'An offer', isAutomated: true },
        },
      ]);
    spec
      .given([started, bobTakes])
      .when({
        type: 'SendMessage',
        conversationId: 3,
        messageId: 9,
        speaker: { kind: 'user', userId: 'alice', firmId: 'alice' },
        content: 'hi',
      })
      .thenThrows(Invalid, USER_MESSAGES.switchToManualFirst);
    const aliceTakes: ConversationEvent = {
      type: 'ManualModeChanged',
      data: { conversationId: 3, isManualMode: true, agentId: 1, agentIds: [1], byUserId: 'alice', sessionId: 'a' },
    };
    spec
      .given([started, bobTakes, aliceTakes])
      .when({
        type: 'SendMessage',
        conversationId: 3,
        messageId: 9,
        speaker: { kind: 'user', userId: 'alice', firmId: 'alice' },
        content: 'Hello Bob',
      })
      .then([
        {
          type: 'MessageSent',
          data: { conversationId: 3, messageId: 9, fromAgentId: 1, toAgentId: 2, content: 'Hello Bob', isAutomated: false },
        },
      ]);
  });

  it('hides the conversation from everyone else', () => {
    spec
      .given([started])
      .when({ type: 'SetManualMode', conversationId: 3, actorId: 'mallory', actorFirmId: 'mallory', isManualMode: true })
      .thenThrows(NotFound, 'Conversation 3 not found');
    spec
      .given([started, manual])
      .when({
        type: 'SendMessage',
        conversationId: 3,
        messageId: 9,
        speaker: { kind: 'user', userId: 'mallory', firmId: 'mallory' },
        content: 'hi',
      })
      .thenThrows(NotFound);
  });

  it("stores a person's message as not automated, from their own agent to the counterpart", () => {
    spec
      .given([started, manual])
      .when({
        type: 'SendMessage',
        conversationId: 3,
        messageId: 9,
        speaker: { kind: 'user', userId: 'alice', firmId: 'alice', preferredAgentId: 2 },
        content: 'We can do 4.1%',
      })
      .then([
        {
          type: 'MessageSent',
          data: { conversationId: 3, messageId: 9, fromAgentId: 1, toAgentId: 2, content: 'We can do 4.1%', isAutomated: false },
        },
      ]);
  });

  it('asks a person to switch to manual first, and keeps automated agents quiet in manual mode', () => {
    spec
      .given([started])
      .when({
        type: 'SendMessage',
        conversationId: 3,
        messageId: 9,
        speaker: { kind: 'user', userId: 'alice', firmId: 'alice' },
        content: 'hi',
      })
      .thenThrows(Invalid, USER_MESSAGES.switchToManualFirst);
    spec
      .given([started, manual])
      .when({ type: 'SendMessage', conversationId: 3, messageId: 9, speaker: { kind: 'agent', agentId: 2 }, content: 'hi' })
      .then([]);
  });

  it('refuses messages in a completed conversation and completes only once', () => {
    const completed: ConversationEvent = {
      type: 'ConversationCompleted',
      data: { conversationId: 3, outcome: 'agreed', reason: 'Terms agreed' },
    };
    spec
      .given([started, completed])
      .when({ type: 'SendMessage', conversationId: 3, messageId: 9, speaker: { kind: 'agent', agentId: 1 }, content: 'hi' })
      .thenThrows(Invalid, 'Conversation 3 is completed');
    spec
      .given([started, completed])
      .when({ type: 'CompleteConversation', conversationId: 3, outcome: 'no_agreement', reason: 'Deadline' })
      .then([]);
  });

  it("records an agent's turn whole, and nothing once a person has taken over", () => {
    const message: ConversationEvent = {
      type: 'MessageSent',
      data: { conversationId: 3, messageId: 5, fromAgentId: 2, toAgentId: 1, content: 'We could offer 4.6%.', isAutomated: true },
    };
    const terms = { interestRate: 4.6, termYears: 25, loanAmount: 240_000, arrangementFee: 999 };
    const reason = { rule: 'lender opens at list price', figures: { round: 0 } };
    const offer = { kind: 'offer', offerId: 'o1', terms, product: FURNESS_FIVE_YEAR_FIX, reason } as const;
    const turn = {
      type: 'RecordAgentTurn',
      conversationId: 3,
      agentId: 2,
      message: { messageId: 5, content: 'We could offer 4.6%.' },
    } as const;
    spec
      .given([started])
      .when({ ...turn, move: offer })
      .then([
        message,
        {
          type: 'OfferMade',
          data: { conversationId: 3, offerId: 'o1', round: 0, fromAgentId: 2, toAgentId: 1, terms, product: FURNESS_FIVE_YEAR_FIX, reason },
        },
      ]);
    spec
      .given([started, manual])
      .when({ ...turn, move: offer })
      .then([]);
    spec
      .given([started])
      .when({ ...turn, agentId: 99 })
      .thenThrows(NotFound);
  });

  it('refuses, in their words, a move the offer rules refuse (events/src/offers/agent-move.ts decides the events)', () => {
    const terms = { interestRate: 4.6, termYears: 25, loanAmount: 240_000, arrangementFee: 999 };
    const reason = { rule: 'a rule', figures: { round: 1 } };
    const stale: AgentMove = { kind: 'offer', offerId: 'l1', terms, product: FURNESS_FIVE_YEAR_FIX, reason, answersOfferId: 'b1' };
    spec
      .given([started])
      .when({ type: 'RecordAgentTurn', conversationId: 3, agentId: 2, move: stale })
      .thenThrows(Invalid, "Offer b1 is no longer the other side's offer on the table");
  });

  it("reads which offer stands from the offer book: a person's counter-offer turns down the other side's, and counts the offers made", () => {
    const terms = (interestRate: number) => ({ interestRate, termYears: 25, loanAmount: 240_000, arrangementFee: 999 });
    const aliceTakes: ConversationEvent = {
      type: 'ManualModeChanged',
      data: { conversationId: 3, isManualMode: true, agentId: 1, agentIds: [1], byUserId: 'alice' },
    };
    const made = (offerId: string, fromAgentId: number, round: number, interestRate: number): ConversationEvent => ({
      type: 'OfferMade',
      data: { conversationId: 3, offerId, round, fromAgentId, toAgentId: 3 - fromAgentId, terms: terms(interestRate) },
    });
    const offer = (interestRate: number) =>
      ({
        type: 'MakeOffer',
        conversationId: 3,
        offerId: 'mine',
        speaker: { kind: 'user', userId: 'alice', firmId: 'alice' },
        terms: terms(interestRate),
        need: { committed: null },
      }) as const;
    const mine = (round: number) => ({
      type: 'OfferMade' as const,
      data: { conversationId: 3, offerId: 'mine', round, fromAgentId: 1, toAgentId: 2, terms: terms(4.2), byPerson: true as const },
    });
    spec
      .given([started, made('l1', 2, 0, 4.9), aliceTakes])
      .when(offer(4.2))
      .then([{ type: 'OfferRejected', data: { conversationId: 3, offerId: 'l1', byAgentId: 1 } }, mine(1)]);
    // Amelia's own offer is the one on the table: her next supersedes it, and nothing is turned down.
    spec
      .given([started, made('l1', 2, 0, 4.9), made('b1', 1, 1, 4.1), aliceTakes])
      .when(offer(4.2))
      .then([mine(2)]);
    spec
      .given([
        started,
        made('l1', 2, 0, 4.9),
        { type: 'OfferRejected', data: { conversationId: 3, offerId: 'l1', byAgentId: 1 } },
        aliceTakes,
      ])
      .when(offer(4.2))
      .then([mine(1)]);
    spec.given([started, aliceTakes]).when(offer(0)).thenThrows(Invalid, 'terms.interestRate: must be between 0% and 100%');
  });

  describe('a firm with both sides (docs/decisions/per-side-control.md)', () => {
    // Ben (operator) and Ada (admin) of one firm; the borrower is Ben's, the lender Ada's; Cy is of another firm.
    const firm = 'harbour';
    const inFirm: ConversationEvent = {
      type: 'ConversationStarted',
      data: {
        conversationId: 3,
        title: 'Harriet ↔ Harbour',
        matchId: null,
        participants: [
          { agentId: 1, ownerId: 'ben', firmId: firm, name: 'Harriet Cole', type: 'borrower' },
          { agentId: 2, ownerId: 'ada', firmId: firm, name: 'Harbour Home Loans', type: 'lender' },
        ],
      },
    };
    const take = (actorId: string, sessionId: string, agentIds?: number[], isManualMode = true) =>
      ({
        type: 'SetManualMode',
        conversationId: 3,
        actorId,
        actorFirmId: firm,
        sessionId,
        isManualMode,
        ...(agentIds ? { agentIds } : {}),
      }) as const;
    const held = (agentId: number, byUserId: string, sessionId: string, isManualMode = true): ConversationEvent => ({
      type: 'ManualModeChanged',
      data: { conversationId: 3, isManualMode, agentId, agentIds: [agentId], byUserId, sessionId },
    });
    const handOver = (actorId: string, sessionId: string, to: { userId: string; firmId: string; sessionId: string; mayWrite?: boolean }) =>
      ({
        type: 'HandOverSide',
        conversationId: 3,
        agentId: 1,
        actorId,
        actorFirmId: firm,
        sessionId,
        to: { mayWrite: true, ...to },
      }) as const;

    it('takes the sides named, one event each: one side, or both', () => {
      spec
        .given([inFirm])
        .when(take('ben', 'b1', [1]))
        .then([held(1, 'ben', 'b1')]);
      spec
        .given([inFirm])
        .when(take('ben', 'b1', [1, 2]))
        .then([held(1, 'ben', 'b1'), held(2, 'ben', 'b1')]);
      // Named by nobody (an API client of before): the actor's own agent's side only, not the firm's other.
      spec
        .given([inFirm])
        .when(take('ada', 'a1'))
        .then([held(2, 'ada', 'a1')]);
    });

    it("refuses to take or hand back a side a colleague holds, saying so; the colleague's hand-back is theirs", () => {
      const refusal = 'The borrower side (Harriet Cole) is held by another person of your firm: request control, and they can hand it over';
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(take('ada', 'a1', [1]))
        .thenThrows(Conflict, refusal);
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(take('ada', 'a1', [1], false))
        .thenThrows(Conflict, refusal);
      // Ada's switch off without naming a side, holding none: refused, never a silent success.
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(take('ada', 'a1', undefined, false))
        .thenThrows(Conflict, refusal);
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(take('ben', 'b1', undefined, false))
        .then([held(1, 'ben', 'b1', false)]);
    });

    it('hands a side over only from its holder, to a person of its firm who may write', () => {
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(handOver('ben', 'b1', { userId: 'ada', firmId: firm, sessionId: 'a1' }))
        .then([{ type: 'ManualModeChanged', data: { ...held(1, 'ada', 'a1').data, handedOverBy: 'ben' } } as ConversationEvent]);
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(handOver('ada', 'a1', { userId: 'ada', firmId: firm, sessionId: 'a1' }))
        .thenThrows(Forbidden, 'Only the person holding the borrower side (Harriet Cole) can hand it over');
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(handOver('ben', 'b2', { userId: 'ada', firmId: firm, sessionId: 'a1' }))
        .thenThrows(Conflict, USER_MESSAGES.sideHeldElsewhere);
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(handOver('ben', 'b1', { userId: 'cy', firmId: 'crown', sessionId: 'c1' }))
        .thenThrows(Forbidden, 'The borrower side (Harriet Cole) can be handed over only to a person of its own firm');
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when(handOver('ben', 'b1', { userId: 'aud', firmId: firm, sessionId: 'x1', mayWrite: false }))
        .thenThrows(Forbidden, 'The borrower side (Harriet Cole) can be handed over only to an Admin or an Operator');
      spec
        .given([inFirm])
        .when(handOver('ben', 'b1', { userId: 'ada', firmId: firm, sessionId: 'a1' }))
        .thenThrows(Conflict, 'Nobody has taken over the borrower side (Harriet Cole): there is nothing to hand over');
    });

    it('lets only the holder speak for a side: a colleague is refused in words', () => {
      spec
        .given([inFirm, held(1, 'ben', 'b1')])
        .when({
          type: 'SendMessage',
          conversationId: 3,
          messageId: 9,
          speaker: { kind: 'user', userId: 'ada', firmId: firm, sessionId: 'a1', preferredAgentId: 1 },
          content: 'hi',
        })
        .thenThrows(Conflict, "Harriet Cole's side is held by another person of your firm: request control to speak for it");
    });
  });
});
