import { describe, expect, it } from 'vitest';
import { dealsAgreedView } from './deals-agreed';
import { matchesView, partyAgentIds } from './matches';
import { viewSpec, WHEN_AT } from './view-spec';
import { dealAgreed, matchFound } from '../testing/fixtures';

const found = matchFound({ score: 81.5, explanation: [{ criterion: 'rate', verdict: 'pass', detail: 'ok' }] });
const agreed = dealAgreed();

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
