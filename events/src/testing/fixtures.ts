import type { EventOf } from '../domain-events';

/** Tests only: the deal id the fixtures below use. */
export const SAMPLE_DEAL_ID = '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';

/**
 * Tests only: a deal opened by an agreed negotiation (conversation 7) between Alice's borrower agent (1) and
 * Bob's Northern Bank (2), £240,000 on £300,000 at 4.2% over 25 years with a £999 fee; `changes` over its data.
 */
export function dealOpened(changes: Partial<EventOf<'DealOpened'>['data']> = {}): EventOf<'DealOpened'> {
  return {
    type: 'DealOpened',
    data: {
      dealId: SAMPLE_DEAL_ID,
      source: 'negotiation',
      agreedInConversationId: 7,
      borrower: { agentId: 1, ownerId: 'alice', name: 'Alice', type: 'borrower' },
      lender: { agentId: 2, ownerId: 'bob', name: 'Northern Bank', type: 'lender' },
      broker: null,
      propertyAddress: '',
      propertyValue: 300_000,
      loanAmount: 240_000,
      ltv: 80,
      interestRate: 4.2,
      termYears: 25,
      arrangementFee: 999,
      targetCompletion: null,
      ...changes,
    },
  };
}
