import { describe, expect, it } from 'vitest';
import { scoreMatch } from '../../matching/score-match';
import { DEFAULT_LENDING_RULES } from './lending-rules';
import { runNegotiation } from './run-negotiation';
import { agreementSpace, negotiationSetup } from './setup';

/** A typical first-time purchase: £236,000 asked on a £295,000 purchase (80% LTV). */
const buyer = {
  agentId: 1,
  criteria: { loanAmount: '£236,000', deposit: '£59,000', annualIncome: '£62,000', region: 'Leeds', interestRateMax: '5.5%' },
};
const lender = {
  agentId: 2,
  criteria: { propertyValueMin: '£100k', propertyValueMax: '£1m', interestRateMin: '3.9%', interestRateMax: '6%', maxLtv: '85%' },
};

describe('lending rules as hard limits', () => {
  it('prices the deal from loan plus deposit and never lends less than the borrower needs', () => {
    const setup = negotiationSetup(buyer, lender);
    expect(setup.propertyValue).toBe(295_000);
    expect(setup.borrower.limits.loanAmount).toEqual({ lo: 236_000, hi: 236_000 });
    for (const seed of [1, 2, 3, 4, 5]) {
      const result = runNegotiation(buyer, lender, undefined, seed);
      expect(result.outcome).toBe('agreed');
      expect(result.terms?.loanAmount).toBe(236_000);
    }
  });

  it('treats a named range as room to move, and rounds a need up to a whole thousand', () => {
    const ranged = negotiationSetup({ ...buyer, criteria: { ...buyer.criteria, loanAmount: '£200k to £236k' } }, lender);
    expect(ranged.borrower.limits.loanAmount).toEqual({ lo: 200_000, hi: 236_000 });
    const odd = negotiationSetup(
      { ...buyer, criteria: { deposit: '£59,500', propertyValueMin: '£295,000', propertyValueMax: '£295,000' } },
      lender,
    );
    expect(odd.borrower.limits.loanAmount.lo).toBe(236_000);
  });

  it('caps the loan by the lender’s max LTV, the income multiple (configurable) and buy-to-let rental cover', () => {
    const strict = { ...lender, criteria: { ...lender.criteria, maxLtv: '75%' } };
    expect(negotiationSetup(buyer, strict).lender.limits.loanAmount.hi).toBeCloseTo(221_250, 6);
    expect(agreementSpace(negotiationSetup(buyer, strict))).toBeNull();
    expect(runNegotiation(buyer, strict).outcome).toBe('no_agreement');
    const lowIncome = { ...buyer, criteria: { ...buyer.criteria, annualIncome: '£50,000' } };
    expect(negotiationSetup(lowIncome, lender).lender.limits.loanAmount.hi).toBe(225_000);
    const generous = { ...lender, rules: { ...DEFAULT_LENDING_RULES, incomeMultiple: 5 } };
    expect(negotiationSetup(lowIncome, generous).lender.limits.loanAmount.hi).toBe(250_000);
    const landlord = {
      agentId: 1,
      criteria: { propertyType: 'BTL', loanAmount: '£200,000', deposit: '£100,000', expectedRent: '£1,100 pcm' },
    };
    // £13,200 a year over 125% of 5.5% interest lends at most £192,000.
    expect(negotiationSetup(landlord, lender).lender.limits.loanAmount.hi).toBeCloseTo(192_000, 6);
    expect(runNegotiation(landlord, lender).outcome).toBe('no_agreement');
  });

  it('prices by LTV band: the same lender asks a lower rate floor for a lower LTV', () => {
    const high = negotiationSetup(buyer, lender).lender.limits.interestRate.lo;
    const low = negotiationSetup({ ...buyer, criteria: { ...buyer.criteria, loanAmount: '£150,000', deposit: '£145,000' } }, lender).lender
      .limits.interestRate.lo;
    expect(high).toBeCloseTo(3.9 + 0.3, 9);
    expect(low).toBeCloseTo(3.9, 9);
  });

  it('refuses property types and regions the lender does not lend on', () => {
    const londonOnly = { ...lender, criteria: { ...lender.criteria, region: 'London' } };
    expect(agreementSpace(negotiationSetup(buyer, londonOnly))).toBeNull();
    const commercialOnly = { ...lender, criteria: { ...lender.criteria, propertyType: 'commercial' } };
    expect(agreementSpace(negotiationSetup(buyer, commercialOnly))).toBeNull();
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
      'Loan to value': "fail: LTV 85% exceeds this lender's 80%",
      Region: "fail: Leeds is outside this lender's regions (London, Bristol)",
      'Income multiple': "fail: £255,000 is 6.4 times income of £40,000, above this lender's 4.5",
      Pricing: 'pass: LTV band 80–85%: rates from 4.50%',
    });
    expect(result.score).toBeLessThan(70);
  });

  it('passes what fits and warns about what the borrower did not state', () => {
    const result = scoreMatch(buyer.criteria, lender.criteria);
    expect(verdicts(result)).toMatchObject({
      'Loan to value': "pass: LTV 80% (£236,000 on £295,000) is within this lender's 85%",
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
