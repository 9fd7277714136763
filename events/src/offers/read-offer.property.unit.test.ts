import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOffer } from './read-offer';

/** Every British way of writing an amount of pounds, for an amount that way can say exactly. */
const writings = (pounds: number): string[] => {
  const grouped = pounds.toLocaleString('en-GB');
  const ways = [`£${grouped}`, `£${pounds}`, `£ ${grouped}`];
  if (pounds >= 1000) ways.push(grouped);
  if (pounds >= 10_000) ways.push(String(pounds));
  const thousands = pounds / 1000;
  if (Number.isInteger(pounds / 100)) ways.push(`£${thousands}k`, `£${thousands}K`, `${thousands}k`, `£${thousands} thousand`);
  const millions = pounds / 1e6;
  if (Number.isInteger(pounds / 1000) && pounds >= 100_000)
    ways.push(`£${millions}m`, `£${millions} million`, `£${millions}M`, `${millions}m`);
  return ways;
};

const amount = fc.oneof(
  fc.integer({ min: 1, max: 5_000_000 }),
  fc.integer({ min: 1, max: 5000 }).map((n) => n * 1000),
  fc.integer({ min: 1, max: 50 }).map((n) => n * 100_000),
);
const rate = fc.integer({ min: 1, max: 1500 }).map((n) => n / 100);
const years = fc.integer({ min: 1, max: 40 });
const fee = fc.integer({ min: 0, max: 20_000 });
const rateWords = (r: number) => fc.constantFrom(`${r}%`, `${r} per cent`, `${r} percent`);
const yearWords = (y: number) => fc.constantFrom(`${y} years`, `${y}-year`, `${y} yrs`);

const SENTENCES: Array<(l: string, r: string, y: string, f: string) => string> = [
  (l, r, y, f) => `${r} over ${y} on ${l} with a ${f} fee`,
  (l, r, y, f) => `We can do ${l} at ${r} over ${y}, fee ${f}.`,
  (l, r, y, f) => `How about ${l} over ${y} at ${r} and an arrangement fee of ${f}?`,
  (l, r, y, f) => `${f} arrangement fee on ${l}; ${r}; ${y}`,
  (l, r, y, f) => `Loan ${l}, rate ${r}, term ${y}, plus a fee of ${f}`,
];

describe('reading an operator’s offer', () => {
  it('reads every British way of writing the loan, rate, term and fee as exactly those figures', () => {
    const offer = fc.record({ loan: amount, rate, years, fee, sentence: fc.integer({ min: 0, max: SENTENCES.length - 1 }) }).chain((o) =>
      fc.record({
        o: fc.constant(o),
        loanText: fc.constantFrom(...writings(o.loan)),
        feeText: fc.constantFrom(...writings(o.fee === 0 ? 1 : o.fee).filter((w) => w.startsWith('£'))),
        rateText: rateWords(o.rate),
        yearText: yearWords(o.years),
      }),
    );
    fc.assert(
      fc.property(offer, ({ o, loanText, feeText, rateText, yearText }) => {
        const text = SENTENCES[o.sentence]!(loanText, rateText, yearText, feeText);
        expect(readOffer(text), text).toEqual({
          kind: 'offer',
          terms: { loanAmount: o.loan, interestRate: o.rate, termYears: o.years, arrangementFee: o.fee === 0 ? 1 : o.fee },
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('reads an amount alone, in any British writing, as the loan', () => {
    fc.assert(
      fc.property(
        amount.chain((n) => fc.tuple(fc.constant(n), fc.constantFrom(...writings(n)))),
        ([n, written]) => {
          expect(readOffer(`I can lend ${written}`)).toEqual({ kind: 'offer', terms: { loanAmount: n } });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never cuts an amount at its thousands comma, and reads the figures of the example exactly', () => {
    expect(readOffer('4.35% over 25 years on £315,000 with a £999 fee')).toEqual({
      kind: 'offer',
      terms: { interestRate: 4.35, termYears: 25, loanAmount: 315_000, arrangementFee: 999 },
    });
    expect(readOffer('£315k')).toEqual({ kind: 'offer', terms: { loanAmount: 315_000 } });
    expect(readOffer('£0.315m')).toEqual({ kind: 'offer', terms: { loanAmount: 315_000 } });
    expect(readOffer('315,000')).toEqual({ kind: 'offer', terms: { loanAmount: 315_000 } });
    expect(readOffer('£1.2 million')).toEqual({ kind: 'offer', terms: { loanAmount: 1_200_000 } });
  });

  it('takes text that cannot be read without guessing as no offer, saying why; chat as chat', () => {
    expect(readOffer('£31,50 at 4%')).toMatchObject({ kind: 'unclear', reason: expect.stringMatching(/thousands commas/) as unknown });
    expect(readOffer('£300k or £310k?')).toEqual({ kind: 'unclear', reason: 'it names £300,000 and £310,000 as the loan' });
    expect(readOffer('4% or 4.5%')).toMatchObject({ kind: 'unclear' });
    expect(readOffer('Hello, shall we talk on Monday about 2 things?')).toEqual({ kind: 'chat' });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 0, max: 99 }), (whole, part) => {
        const reading = readOffer(`£${whole},${String(part).padStart(part < 10 ? 1 : 2, '0')} please`);
        expect(reading.kind).toBe('unclear');
      }),
    );
  });
});
