import { describe, expect, it } from 'vitest';
import { illustrate, type EventOf } from '@pf/events';
import { esisContent, illustrationInputOf } from './esis-content';

type Opened = EventOf<'DealOpened'>['data'];

const party = (agentId: number, name: string, type: 'borrower' | 'lender' | 'broker') => ({
  agentId,
  ownerId: `owner-${agentId}`,
  name,
  type,
});
const deal: Opened = {
  dealId: '6f1c1d1e-0000-4000-8000-000000000001',
  source: 'negotiation',
  agreedInConversationId: 7,
  borrower: party(1, 'Harriet Cole', 'borrower'),
  lender: party(2, 'Furness Building Society', 'lender'),
  broker: null,
  propertyAddress: '',
  propertyValue: 200_000,
  loanAmount: 150_000,
  ltv: 75,
  interestRate: 4.59,
  termYears: 23,
  arrangementFee: 999,
  targetCompletion: null,
};
const at = new Date('2026-11-28T10:00:00Z');

describe('the ESIS of an agreed deal', () => {
  it('illustrates one rate for the term, the fee paid at the start, while the terms name no product', () => {
    expect(illustrationInputOf(deal)).toEqual({ loan: 150_000, termMonths: 276, rates: [{ ratePercent: 4.59 }], fees: [999] });
    const content = esisContent(deal, at);
    expect(content.sections.map((s) => s.title)).toEqual([
      'Introduction',
      '1. Lender',
      '2. Main features of the loan',
      '3. Interest rate and other costs',
      '4. Frequency and number of payments',
      '5. Amount of each instalment',
      '6. Early repayment',
    ]);
    expect(content.sections[0]?.lines[0]).toBe(
      'This document was produced for Harriet Cole on 28 November 2026, when the terms were agreed.',
    );
    expect(content.sections.find((s) => s.title.endsWith('Early repayment'))?.lines).toContain('No early repayment charge was agreed.');
  });

  it('reads a product the terms name: its initial period, reversion rate, fee added, ERCs; a broker is section 2', () => {
    // Furness's 5-year fix at 4.59% (docs/behaviour/regulated-figures.md): 60 × £886.73 then 216 × £1,170.05.
    const withProduct: Opened = {
      ...deal,
      broker: party(3, 'Harbour Mortgages', 'broker'),
      product: {
        productId: 'five-year-fixed',
        feeFree: false,
        cashbackPounds: 0,
        name: '5 Year Fixed Rate',
        type: 'fixed',
        initialPeriodMonths: 60,
        reversionRatePercent: 8.39,
        ercPercentByYear: [5, 5, 4, 3, 2],
        feeAddedToLoan: true,
      },
    };
    const input = illustrationInputOf(withProduct);
    expect(input).toEqual({
      loan: 150_000,
      termMonths: 276,
      rates: [{ ratePercent: 4.59, months: 60 }, { ratePercent: 8.39 }],
      feesAddedToLoan: [999],
      initialRateFixed: true,
    });
    const content = esisContent(withProduct, at);
    expect(content.figures).toEqual(illustrate(input));
    expect(content.sections[2]).toEqual({ title: '2. Credit intermediary', lines: ['Harbour Mortgages'] });
    const lines = content.sections.flatMap((s) => s.lines);
    expect(lines).toContain('Product: 5 Year Fixed Rate, fixed rate');
    expect(lines).toContain('60 monthly payments of £886.73');
    expect(lines).toContain('216 monthly payments of £1,170.05');
    expect(lines).toContain('Arrangement fee: £999, added to the loan');
    expect(lines).toContain('Early repayment charge in year 1: 5% of the amount repaid');
    expect(lines).toContain('Early repayment charge in year 5: 2% of the amount repaid');
  });
});
