import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../domain-events';
import { dealAgreed, dealOpened, SAMPLE_DEAL_ID } from '../testing/fixtures';
import { dealsView, type Deal } from './deals';
import { dealFirmsOf } from '../visibility';
import { GIVEN_AT, viewSpec, WHEN_AT } from './view-spec';
import { FURNESS_FIVE_YEAR_FIX } from '../testing/fixtures';

const dealId = SAMPLE_DEAL_ID;
const opened = dealOpened({ broker: { agentId: 3, ownerId: 'alice', name: 'Alice Broker', type: 'broker' } });
const deal: Deal = {
  id: dealId,
  source: 'negotiation',
  conversationId: 7,
  propertyAddress: '',
  propertyValue: 300_000,
  loanAmount: 240_000,
  ltv: 80,
  interestRate: 4.2,
  term: 25,
  arrangementFee: 999,
  status: 'active',
  stage: 'application',
  borrowerName: 'Alice',
  lenderName: 'Northern Bank',
  brokerName: 'Alice Broker',
  borrowerAgentId: 1,
  lenderAgentId: 2,
  brokerAgentId: 3,
  owners: ['alice', 'bob'],
  targetCompletion: null,
  product: null,
  procurationFee: null,
  dateCreated: GIVEN_AT,
  completedAt: null,
  updatedAt: GIVEN_AT,
};
const spec = viewSpec(dealsView);

describe('deals view (Deals & Transactions)', () => {
  it('opens active at application, seen by the owners of its agents once each', () => {
    spec
      .given()
      .when(opened)
      .then({ ...deal, dateCreated: WHEN_AT, updatedAt: WHEN_AT });
  });

  it('keeps the agreed product, and the procuration fee only where a broker introduced the deal', () => {
    const product = FURNESS_FIVE_YEAR_FIX;
    spec
      .given()
      .when({ ...opened, data: { ...opened.data, product, procurationFee: 840 } })
      .then({ ...deal, product, procurationFee: 840, dateCreated: WHEN_AT, updatedAt: WHEN_AT });
    const direct = dealOpened({ product, procurationFee: 840 });
    expect(dealsView.evolve(null, direct, WHEN_AT)).toMatchObject({ product, procurationFee: null, brokerName: null });
  });

  it('keeps the first opening when a deal is opened twice', () => {
    const again = { ...opened, data: { ...opened.data, loanAmount: 1, lender: { ...opened.data.lender, ownerId: 'mallory' } } };
    spec.given(opened).when(again).thenUnchanged();
  });

  it('moves status and stage as recorded, each moving updatedAt; reaching completion sets completedAt', () => {
    spec
      .given(opened)
      .when({ type: 'DealStatusChanged', data: { dealId, from: 'active', status: 'pending' } })
      .then({ ...deal, status: 'pending', updatedAt: WHEN_AT });
    spec
      .given(opened)
      .when({ type: 'DealStageChanged', data: { dealId, from: 'application', stage: 'valuation' } })
      .then({ ...deal, stage: 'valuation', updatedAt: WHEN_AT });
    spec
      .given(opened, { type: 'DealStageChanged', data: { dealId, from: 'application', stage: 'underwriting' } })
      .when({ type: 'DealStageChanged', data: { dealId, from: 'underwriting', stage: 'completed' } })
      .then({ ...deal, stage: 'completed', completedAt: WHEN_AT, updatedAt: WHEN_AT });
  });

  it('records an edit of address and target date, even one that repeats a value (it is on the timeline)', () => {
    const edited: DomainEvent = {
      type: 'DealEdited',
      data: { dealId, propertyAddress: '3 Mill Lane, Leeds', targetCompletion: '2026-09-30' },
    };
    spec
      .given(opened)
      .when(edited)
      .then({ ...deal, propertyAddress: '3 Mill Lane, Leeds', targetCompletion: '2026-09-30', updatedAt: WHEN_AT });
    spec
      .given(opened, edited)
      .when(edited)
      .then({ ...deal, propertyAddress: '3 Mill Lane, Leeds', targetCompletion: '2026-09-30', updatedAt: WHEN_AT });
  });

  it('ignores events about a deal it never saw, and terms agreed (the deals agreed view’s)', () => {
    spec
      .given()
      .when({ type: 'DealStatusChanged', data: { dealId, from: 'active', status: 'cancelled' } })
      .then(null);
    expect(dealsView.keyOf(dealAgreed())).toBeNull();
  });

  it('is seen by the owners of its borrower, lender and broker, once each, in that order', () => {
    expect(dealFirmsOf(opened.data)).toEqual(['alice', 'bob']);
    expect(dealFirmsOf({ ...opened.data, broker: null, borrower: { ...opened.data.borrower, ownerId: 'carol' } })).toEqual([
      'carol',
      'bob',
    ]);
  });
});
