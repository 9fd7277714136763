import { productRangeOf, readCriteria, type Criteria } from '@pf/events';
import { describe, expect, it } from 'vitest';
import { scoreMatch } from '../../matching/score-match';
import { application, DEFAULT_LENDING_RULES, lenderLoanCap, ltvPremium } from './lending-rules';
import { runNegotiation } from './run-negotiation';
import { negotiatedNeeds } from './setup';

/** A typical first-time purchase: £236,000 asked on a £295,000 purchase (80% LTV). */
const buyer = {
  agentId: 1,
  criteria: { loanAmount: '£236,000', deposit: '£59,000', annualIncome: '£62,000', region: 'Leeds', interestRateMax: '5.5%' },
};
const lender = {
  agentId: 2,
  criteria: { propertyValueMin: '£100k', propertyValueMax: '£1m', interestRateMin: '3.9%', interestRateMax: '6%', maxLtv: '85%' },
};

/** Agents made before products negotiate through the one upgrade of their criteria (docs/behaviour/products.md). */
function negotiate(borrower: { agentId: number; criteria: Criteria }, lenderAgent: { agentId: number; criteria: Criteria }) {
  return runNegotiation(
    { agentId: borrower.agentId, needs: negotiatedNeeds(borrower, lenderAgent.criteria), criteria: borrower.criteria },
    {
      agentId: lenderAgent.agentId,
      range: productRangeOf({ type: 'lender', criteria: lenderAgent.criteria }),
      criteria: lenderAgent.criteria,
    },
  );
}

const capOf = (borrowerCriteria: Criteria, lenderCriteria: Criteria, rules = DEFAULT_LENDING_RULES) => {
  const value = 295_000;
  return lenderLoanCap(readCriteria(lenderCriteria), application(readCriteria(borrowerCriteria), value), value, 0.8, rules);
};

describe('lending rules as hard limits', () => {
  it('reads the need from loan plus deposit, and the negotiation never lends other than the borrower needs', () => {
    expect(application(readCriteria(buyer.criteria), 295_000).need).toEqual({ lo: 236_000, hi: 236_000 });
    expect(negotiatedNeeds(buyer, lender.criteria)).toMatchObject({ propertyValue: 295_000, loanAmount: 236_000 });
    const result = negotiate(buyer, lender);
    expect(result.outcome).toBe('agreed');
    expect(result.terms?.loanAmount).toBe(236_000);
  });

  it('treats a named range as room to move, and rounds a need up to a whole thousand', () => {
    expect(application(readCriteria({ ...buyer.criteria, loanAmount: '£200k to £236k' }), 295_000).need).toEqual({
      lo: 200_000,
      hi: 236_000,
    });
    expect(application(readCriteria({ deposit: '£59,500' }), 295_000).need?.lo).toBe(236_000);
  });

  it('caps the loan by the lender’s max LTV, the income multiple (configurable) and buy-to-let rental cover', () => {
    const strict = { ...lender, criteria: { ...lender.criteria, maxLtv: '75%' } };
    expect(capOf(buyer.criteria, strict.criteria).max).toBeCloseTo(221_250, 6);
    expect(negotiate(buyer, strict).outcome).toBe('no_agreement');
    const lowIncome = { ...buyer, criteria: { ...buyer.criteria, annualIncome: '£50,000' } };
    expect(capOf(lowIncome.criteria, lender.criteria).max).toBe(225_000);
    expect(capOf(lowIncome.criteria, lender.criteria, { ...DEFAULT_LENDING_RULES, incomeMultiple: 5 }).max).toBe(250_000);
    expect(negotiate(lowIncome, lender).outcome).toBe('no_agreement');
    const landlord = {
      agentId: 1,
      criteria: { propertyType: 'BTL', loanAmount: '£200,000', deposit: '£100,000', expectedRent: '£1,100 pcm' },
    };
    // £13,200 a year over 125% of 5.5% interest lends at most £192,000.
    expect(capOf(landlord.criteria, lender.criteria).max).toBeCloseTo(192_000, 6);
    expect(negotiate(landlord, lender).outcome).toBe('no_agreement');
  });

  it('prices by LTV band: a lower premium for a lower LTV', () => {
    expect(ltvPremium(0.8, DEFAULT_LENDING_RULES)).toBeCloseTo(0.3, 9);
    expect(ltvPremium(150_000 / 295_000, DEFAULT_LENDING_RULES)).toBe(0);
  });

  it('refuses property types and regions the lender does not lend on', () => {
    const londonOnly = { ...lender, criteria: { ...lender.criteria, region: 'London' } };
    expect(capOf(buyer.criteria, londonOnly.criteria).regionRefused).toBe(true);
    expect(negotiate(buyer, londonOnly).outcome).toBe('no_agreement');
    const commercialOnly = { ...lender, criteria: { ...lender.criteria, propertyType: 'commercial' } };
    expect(capOf(buyer.criteria, commercialOnly.criteria).typeRefused).toBe(true);
  });
});

describe('explained matches', () => {
  const verdicts = (result: ReturnType<typeof scoreMatch>) =>
    Object.fromEntries(result.explanation.map((part) => [part.criterion, `${part.verdict}: ${part.detail}`]));

  it('says why a lender fails, in words, and keeps the pair under the threshold', () => {
    const result = scoreMatch(
      { loanAmount: '£255,000', deposit: '£45,000', annualIncome: '£40,000', region: 'Leeds' },
      { maxLtv: '80%', region: 'London, Bristol', interestRateMin: '4%' },
    );
    expect(verdicts(result)).toMatchObject({
      'Loan to value': "fail: LTV 85.0% exceeds this lender's 80.0%",
      Region: "fail: Leeds is outside this lender's regions (London, Bristol)",
      'Income multiple': "fail: £255,000 is 6.4 times income of £40,000, above this lender's 4.5",
      Pricing: 'pass: LTV band 80–85%: rates from 4.50%',
    });
    expect(result.score).toBeLessThan(70);
  });

  it('passes what fits and warns about what the borrower did not state', () => {
    const result = scoreMatch(buyer.criteria, lender.criteria);
    expect(verdicts(result)).toMatchObject({
      'Loan to value': "pass: LTV 80.0% (£236,000 on £295,000) is within this lender's 85.0%",
      'Income multiple': 'pass: £236,000 is 3.8 times income of £62,000, within 4.5',
    });
    expect(result.score).toBeGreaterThanOrEqual(70);
    const btl = scoreMatch(
      { propertyType: 'buy-to-let', loanAmount: '£200k', deposit: '£100k' },
      { propertyType: 'residential, buy-to-let' },
    );
    expect(verdicts(btl)).toMatchObject({
      'Property type': 'pass: Buy-to-let: this lender lends on it',
      'Rental cover': 'warn: Expected rent not stated; buy-to-let needs 125% at 5.50%',
    });
  });
});
