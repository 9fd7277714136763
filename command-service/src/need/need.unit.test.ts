import { describe, expect, it } from 'vitest';
import { Invalid } from '@pf/infra';
import type { ConversationEvent } from '@pf/events';
import { FURNESS_FIVE_YEAR_FIX } from '@pf/events/testing';
import { deciderSpec } from '../testing/decider-spec';
import { conversationDecider } from '../conversation/conversation';
import { NeedCommittedElsewhere, needDecider, type NeedEvent } from './need';

const commitment = { conversationId: 3, dealId: 'deal-a', lenderAgentId: 2, lenderName: 'Northgate' };
const committed: NeedEvent = {
  type: 'NeedCommitted',
  data: { borrowerAgentId: 1, agreedInConversationId: 3, dealId: 'deal-a', lenderAgentId: 2, lenderName: 'Northgate' },
};
const need = deciderSpec(needDecider);

// docs/decisions/one-commitment-per-need.md: one commitment per need; a second refused naming the deal; reopening.
describe('a borrower need', () => {
  it('is committed once; a second agreement is refused, naming neither the lender nor the deal; the same one is idempotent', () => {
    need.given([]).when({ type: 'CommitNeed', borrowerAgentId: 1, borrowerName: 'Amelia', commitment }).then([committed]);
    need.given([committed]).when({ type: 'CommitNeed', borrowerAgentId: 1, borrowerName: 'Amelia', commitment }).then([]);
    need
      .given([committed])
      .when({
        type: 'CommitNeed',
        borrowerAgentId: 1,
        borrowerName: 'Amelia',
        commitment: { ...commitment, conversationId: 4, dealId: 'deal-b' },
      })
      .thenThrows(NeedCommittedElsewhere, /^Amelia has agreed terms in another negotiation: this need is committed/);
  });

  it('opens again only for the deal it holds when one is named', () => {
    const reopened: NeedEvent = { type: 'NeedReopened', data: { borrowerAgentId: 1, reason: 'its deal was cancelled' } };
    need
      .given([committed])
      .when({ type: 'ReopenNeed', borrowerAgentId: 1, reason: 'its deal was cancelled', onlyIfDealId: 'deal-a' })
      .then([reopened]);
    need.given([committed]).when({ type: 'ReopenNeed', borrowerAgentId: 1, reason: 'stale', onlyIfDealId: 'deal-z' }).then([]);
    need.given([committed, reopened]).when({ type: 'ReopenNeed', borrowerAgentId: 1, reason: 'again' }).then([]);
  });
});

// docs/decisions/one-commitment-per-need.md "What the rule covers": every offer, agreement and leave is decided against the need.
describe('a conversation against its borrower need', () => {
  const spec = deciderSpec(conversationDecider);
  const started: ConversationEvent = {
    type: 'ConversationStarted',
    data: {
      conversationId: 4,
      title: 'Amelia ↔ Eastbank',
      matchId: null,
      participants: [
        { agentId: 1, ownerId: 'alice', name: 'Amelia', type: 'borrower' },
        { agentId: 5, ownerId: 'bob', name: 'Eastbank', type: 'lender' },
      ],
    },
  };
  const aliceTakes: ConversationEvent = {
    type: 'ManualModeChanged',
    data: { conversationId: 4, isManualMode: true, ownerId: 'alice', agentIds: [1], byUserId: 'alice' },
  };
  const terms = { loanAmount: 315_000, interestRate: 4.35, termYears: 25, arrangementFee: 999 };
  const elsewhere = { committed: commitment };
  const reason = { rule: 'lender accepts', figures: {} };
  const asked: ConversationEvent = {
    type: 'OfferMade',
    data: { conversationId: 4, offerId: 'o1', round: 0, fromAgentId: 1, toAgentId: 5, terms, product: FURNESS_FIVE_YEAR_FIX },
  };
  const agree: ConversationEvent[] = [
    { type: 'OfferAccepted', data: { conversationId: 4, offerId: 'o1', byAgentId: 5, terms, reason } },
    {
      type: 'DealAgreed',
      data: {
        dealId: 'deal-b',
        conversationId: 4,
        borrowerAgentId: 1,
        lenderAgentId: 5,
        brokerAgentId: null,
        propertyValue: 450_000,
        loanAmount: 315_000,
        ltv: 70,
        interestRate: 4.35,
        termYears: 25,
        arrangementFee: 999,
        product: FURNESS_FIVE_YEAR_FIX,
      },
    },
    { type: 'ConversationCompleted', data: { conversationId: 4, outcome: 'agreed', reason: 'Terms agreed' } },
  ];

  it("refuses an operator's offer for a borrower committed elsewhere, naming neither the winning lender nor its deal", () => {
    const offer = {
      type: 'MakeOffer',
      conversationId: 4,
      offerId: 'x',
      speaker: { kind: 'user', userId: 'alice', firmId: 'alice' },
      terms,
      need: elsewhere,
    } as const;
    spec
      .given([started, aliceTakes])
      .when(offer)
      .thenThrows(NeedCommittedElsewhere, /^Amelia has agreed terms in another negotiation/);
    spec
      .given([started, aliceTakes])
      .when(offer)
      .thenThrows(NeedCommittedElsewhere, /^((?!Northgate|deal-a).)*$/);
    spec
      .given([started, aliceTakes])
      .when({
        type: 'MakeOffer',
        conversationId: 4,
        offerId: 'x',
        speaker: { kind: 'user', userId: 'alice', firmId: 'alice' },
        terms,
        need: { committed: null },
      })
      .then([
        { type: 'OfferMade', data: { conversationId: 4, offerId: 'x', round: 0, fromAgentId: 1, toAgentId: 5, terms, byPerson: true } },
      ]);
  });

  it("records an agent's acceptance only with the need committed to this conversation", () => {
    const turn = (need: { committed: typeof commitment | null }) => ({
      type: 'RecordAgentTurn' as const,
      conversationId: 4,
      agentId: 5,
      move: {
        kind: 'accept' as const,
        offerId: 'o1',
        reason,
        deal: { dealId: 'deal-b', propertyValue: 450_000, procurationFeePercent: 0 },
      },
      need,
    });
    spec.given([started, asked]).when(turn(elsewhere)).thenThrows(NeedCommittedElsewhere);
    spec
      .given([started, asked])
      .when(turn({ committed: null }))
      .thenThrows(Invalid, /committed to this conversation/);
    spec
      .given([started, asked])
      .when(turn({ committed: { ...commitment, conversationId: 4, dealId: 'deal-b' } }))
      .then(agree);
  });

  it('lets the automated side leave politely once the need is committed elsewhere, and nobody else', () => {
    const leave = {
      type: 'EndForCommitment' as const,
      conversationId: 4,
      byAgentId: 5,
      need: elsewhere,
      message: { messageId: 9, content: 'Thank you' },
    };
    const events = conversationDecider.decide(
      leave,
      [started].reduce((state, event) => conversationDecider.evolve(state, event), conversationDecider.initialState),
    );
    expect(events.map((e) => e.type)).toEqual(['MessageSent', 'ConversationCompleted']);
    // The outcome, not the winner: the losing lender's firm reads this reason too.
    expect(events[1]).toMatchObject({ data: { outcome: 'stopped', reason: 'Amelia agreed terms in another negotiation' } });
    spec
      .given([started])
      .when({ ...leave, need: { committed: null } })
      .thenThrows(Invalid);
    spec
      .given([started, aliceTakes])
      .when({ ...leave, byAgentId: 1 })
      .then([]);
  });
});
