import type { CreateAgentInput } from '../agent';
import type { EventOf } from '../domain-events';
import type { OfferedProduct } from '../offers/offer';

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

/** Tests only: Alice's borrower agent (1) as created, with no criteria; `changes` over its data. */
export function agentCreated(changes: Partial<EventOf<'AgentCreated'>['data']> = {}): EventOf<'AgentCreated'> {
  return {
    type: 'AgentCreated',
    data: { agentId: 1, ownerId: 'alice', name: 'Alice Borrower', type: 'borrower', description: '', criteria: null, ...changes },
  };
}

/** Tests only: match m1 between Alice's borrower agent (1) and Bob's lender agent (2), no broker; `changes` over its data. */
export function matchFound(changes: Partial<EventOf<'MatchFound'>['data']> = {}): EventOf<'MatchFound'> {
  return {
    type: 'MatchFound',
    data: { matchId: 'm1', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null, score: 86, explanation: [], ...changes },
  };
}

/**
 * Tests only: deal d1 agreed in conversation 7 by agents 1 (borrower), 2 (lender) and 3 (broker): £250,000 on
 * £350,000 at 4.1% over 25 years with a £999 fee; `changes` over its data.
 */
export function dealAgreed(changes: Partial<EventOf<'DealAgreed'>['data']> = {}): EventOf<'DealAgreed'> {
  return {
    type: 'DealAgreed',
    data: {
      dealId: 'd1',
      conversationId: 7,
      borrowerAgentId: 1,
      lenderAgentId: 2,
      brokerAgentId: 3,
      propertyValue: 350_000,
      loanAmount: 250_000,
      ltv: 71.4,
      interestRate: 4.1,
      termYears: 25,
      arrangementFee: 999,
      ...changes,
    },
  };
}

/**
 * Tests only: a borrower's criteria as a person types them (£400k, 3.5%, years without the word), which
 * LENDER_CRITERIA meets: the matcher pairs the two agents and their negotiators have room to agree.
 */
export const BORROWER_CRITERIA = {
  propertyValueMin: '£400k',
  propertyValueMax: '£500k',
  interestRateMin: '3.5%',
  interestRateMax: '5.5%',
  loanTermMin: '20',
  loanTermMax: '30',
};
/** Tests only: a lender's criteria that BORROWER_CRITERIA fits, typed another way (£200,000, "10 years"). */
export const LENDER_CRITERIA = {
  propertyValueMin: '£200,000',
  propertyValueMax: '£800,000',
  interestRateMin: '4%',
  interestRateMax: '5.2%',
  loanTermMin: '10 years',
  loanTermMax: '35 years',
};
/** Tests only: Create Agent for a borrower, Harriet Cole, that WESSEX_BUILDING_SOCIETY matches. */
export const HARRIET_COLE = { name: 'Harriet Cole', type: 'borrower', criteria: BORROWER_CRITERIA } satisfies CreateAgentInput;
/** Tests only: Create Agent for a lender, Wessex Building Society, that matches HARRIET_COLE. */
export const WESSEX_BUILDING_SOCIETY = {
  name: 'Wessex Building Society',
  type: 'lender',
  criteria: LENDER_CRITERIA,
} satisfies CreateAgentInput;

/**
 * Tests only: Furness Building Society's 5-year fix as a product offered, and its representative example's terms
 * (docs/behaviour/regulated-figures.md): £150,000 over 23 years at 4.59% fixed for 5 years, then 8.39%, the £999 fee
 * added to the loan; its published payments are 60 of £886.73, then 216 of £1,170.05.
 */
export const FURNESS_FIVE_YEAR_FIX: OfferedProduct = {
  productId: 'five-year-fixed',
  name: '5 Year Fixed Rate',
  type: 'fixed',
  initialPeriodMonths: 60,
  reversionRatePercent: 8.39,
  ercPercentByYear: [5, 5, 4, 3, 2],
  feeFree: false,
  feeAddedToLoan: true,
  cashbackPounds: 0,
};
export const FURNESS_TERMS = { loanAmount: 150_000, termYears: 23, interestRate: 4.59, arrangementFee: 999 };

/**
 * Tests only: a deal id (a UUID, as the contract asks) named by a readable label, the same for the same label, so a
 * test can write `dealUuid('d11')` where it means "deal 11".
 */
export function dealUuid(label: string): string {
  let hex = '';
  for (let round = 0; hex.length < 32; round++) {
    let hash = 2166136261 ^ round;
    for (const char of label) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
    hex += (hash >>> 0).toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
