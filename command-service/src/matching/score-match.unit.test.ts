import { describe, expect, it } from 'vitest';
import { scoreMatch } from './score-match';

const borrower = {
  propertyValueMin: '£200,000',
  propertyValueMax: '£300,000',
  interestRateMin: '3.5%',
  interestRateMax: '5%',
  loanTermMin: '20 years',
  loanTermMax: '30 years',
};

describe('scoreMatch', () => {
  it('scores full overlap 100 and says every criterion passes', () => {
    const result = scoreMatch(borrower, { ...borrower, propertyValueMin: '100k', propertyValueMax: '£1m' });
    expect(result.score).toBe(100);
    expect(result.explanation.map((part) => part.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(result.explanation[0]?.detail).toBe('Both accept £200,000 to £300,000');
  });

  it('scores a partial overlap lower than a full one, but still as a pass', () => {
    const partial = scoreMatch(borrower, { ...borrower, interestRateMin: '4.5%', interestRateMax: '6%' });
    expect(partial.score).toBeLessThan(100);
    expect(partial.score).toBeGreaterThanOrEqual(75);
    expect(partial.explanation[1]).toMatchObject({ criterion: 'Interest rate', verdict: 'pass' });
  });

  it('calls a small gap a warning and a wide one a fail, keeping a failing pair under 70', () => {
    const near = scoreMatch(borrower, { ...borrower, interestRateMin: '5.2%', interestRateMax: '6%' });
    expect(near.explanation[1]?.verdict).toBe('warn');
    expect(near.explanation[1]?.detail).toBe('Close: 3.50% to 5.00% against 5.20% to 6.00%');
    expect(near.score).toBeGreaterThanOrEqual(70);
    const fails = scoreMatch(borrower, { ...borrower, loanTermMin: '5', loanTermMax: '10' });
    expect(fails.explanation[2]?.verdict).toBe('fail');
    expect(fails.score).toBeLessThan(70);
  });

  it('treats missing and unreadable criteria as no limit', () => {
    const result = scoreMatch(borrower, { interestRateMax: 'competitive' });
    expect(result.score).toBe(100);
    expect(scoreMatch(null, null).explanation[0]?.detail).toBe('Both accept any value');
  });

  it('is symmetric', () => {
    const lender = { interestRateMin: '4.9%', loanTermMax: '22' };
    expect(scoreMatch(borrower, lender).score).toBe(scoreMatch(lender, borrower).score);
  });
});
