import { randomUUID } from 'node:crypto';
import { streams, type DomainEvent, type EventMetadata, type MoveReason } from '@pf/events';
import type { EventStore } from '@pf/infra';

import { FURNESS_FIVE_YEAR_FIX, FURNESS_TERMS } from '@pf/events/testing';

export { FURNESS_FIVE_YEAR_FIX, FURNESS_TERMS };
/** The lender's procuration fee to the broker: 0.35% of the loan, the rate the demo ranges pay (docs/behaviour/products.md). */
export const FURNESS_PROCURATION_FEE = 525;

export const LENDER_REASON: MoveReason = {
  rule: 'Held its rate within the product’s discretion',
  figures: { ratePercent: 4.59, trueCostPounds: 54_203 },
};
export const BORROWER_REASON: MoveReason = {
  rule: 'Accepted: at least as good as its own next offer',
  figures: { trueCostPounds: 54_203 },
};

export interface IntroducedDeal {
  readonly conversationId: number;
  readonly dealId: string;
  readonly borrowerName: string;
  readonly lenderName: string;
  readonly brokerName: string;
}

/**
 * Tests only: one firm's borrower, lender and broker agents and a negotiation the broker introduced, ended in the
 * lender's offer of the Furness fix accepted, recorded as the negotiator records one (each move with its product and
 * reason, the agreement with the product and the procuration fee), appended to the server's own store so its followers
 * (the deal opener, the projector, analytics) take it as they take any. `base` numbers its agents and conversation
 * apart from the platform's own.
 */
export async function recordIntroducedDeal(
  store: EventStore,
  firm: { userId: string; firmId: string },
  base: number,
): Promise<IntroducedDeal> {
  const correlationId = `introduced-${base}`;
  const metadata = (name: string): EventMetadata => ({ actor: { kind: 'system', name }, correlationId, causationId: null });
  const byAgent = (agentId: number): EventMetadata => ({ actor: { kind: 'agent', agentId }, correlationId, causationId: null });
  const party = (agentId: number, name: string, type: 'borrower' | 'lender' | 'broker') => ({
    agentId,
    ownerId: firm.userId,
    firmId: firm.firmId,
    name,
    type,
  });
  const borrower = party(base + 1, 'Harriet Cole', 'borrower');
  const lender = party(base + 2, 'Furness Building Society', 'lender');
  const broker = party(base + 3, 'Harbour Mortgages', 'broker');
  for (const agent of [borrower, lender, broker]) {
    await store.append(
      streams.agent(agent.agentId),
      [{ id: randomUUID(), type: 'AgentCreated', data: { ...agent, description: '', criteria: null }, metadata: metadata('test') }],
      'no_stream',
    );
  }
  const conversationId = base;
  const dealId = randomUUID();
  const terms = FURNESS_TERMS;
  // Each event as its author records it: the matcher starts the conversation, each agent its own moves.
  const events: [DomainEvent, EventMetadata][] = [
    [
      {
        type: 'ConversationStarted',
        data: { conversationId, title: 'Harriet Cole ↔ Furness Building Society', participants: [borrower, lender, broker], matchId: null },
      },
      metadata('matcher'),
    ],
    [
      {
        type: 'OfferMade',
        data: {
          conversationId,
          offerId: `${base}-o1`,
          round: 0,
          fromAgentId: lender.agentId,
          toAgentId: borrower.agentId,
          terms,
          product: FURNESS_FIVE_YEAR_FIX,
          reason: LENDER_REASON,
        },
      },
      byAgent(lender.agentId),
    ],
    [
      {
        type: 'OfferAccepted',
        data: { conversationId, offerId: `${base}-o1`, byAgentId: borrower.agentId, terms, reason: BORROWER_REASON },
      },
      byAgent(borrower.agentId),
    ],
    [
      {
        type: 'DealAgreed',
        data: {
          dealId,
          conversationId,
          borrowerAgentId: borrower.agentId,
          lenderAgentId: lender.agentId,
          brokerAgentId: broker.agentId,
          propertyValue: 200_000,
          loanAmount: terms.loanAmount,
          ltv: 75,
          interestRate: terms.interestRate,
          termYears: terms.termYears,
          arrangementFee: terms.arrangementFee,
          procurationFee: FURNESS_PROCURATION_FEE,
          product: FURNESS_FIVE_YEAR_FIX,
        },
      },
      byAgent(borrower.agentId),
    ],
    [{ type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms agreed' } }, byAgent(borrower.agentId)],
  ];
  await store.append(
    streams.conversation(conversationId),
    events.map(([event, by]) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: by })),
    'no_stream',
  );
  return { conversationId, dealId, borrowerName: borrower.name, lenderName: lender.name, brokerName: broker.name };
}
