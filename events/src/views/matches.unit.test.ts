import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../domain-events';
import { dealsAgreedView } from './deals-agreed';
import { matchesView, partyAgentIds } from './matches';
import { viewSpec, WHEN_AT } from './view-spec';

const found: DomainEvent = {
  type: 'MatchFound',
  data: {
    matchId: 'm1',
    borrowerAgentId: 1,
    lenderAgentId: 2,
    brokerAgentId: null,
    score: 81.5,
    explanation: [{ criterion: 'rate', verdict: 'pass', detail: 'ok' }],
  },
};
const agreed: DomainEvent = {
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
  },
};

describe('matches and deals agreed views', () => {
  it('records a match once, at the time it was found', () => {
    const { data } = found;
    viewSpec(matchesView)
      .given()
      .when(found)
      .then({ ...data, createdAt: WHEN_AT });
    viewSpec(matchesView)
      .given(found)
      .when({ ...found, data: { ...data, score: 99 } })
      .thenUnchanged();
  });

  it('records a deal agreed once, with its terms', () => {
    const { data } = agreed;
    viewSpec(dealsAgreedView)
      .given()
      .when(agreed)
      .then({ ...data, createdAt: WHEN_AT });
    viewSpec(dealsAgreedView).given(agreed).when(agreed).thenUnchanged();
  });

  it('names the agents taking part: borrower, lender and the broker when there is one', () => {
    expect(partyAgentIds({ borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null })).toEqual([1, 2]);
    expect(partyAgentIds({ borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: 3 })).toEqual([1, 2, 3]);
  });
});
