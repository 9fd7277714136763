import { describe, expect, it } from 'vitest';
import { acceptedOffer, evolveOfferBook, emptyOfferBook, offerBookOf, offerOnTheTable, standingOfferOf, latestOfferOf } from './offer-book';
import { moveReasonInWords, offerFigures, offerTermsProblem, servedOfferFigures } from './offer';
import { FURNESS_FIVE_YEAR_FIX } from '../testing/fixtures';

const terms = (interestRate: number) => ({ interestRate, termYears: 25, loanAmount: 200_000, arrangementFee: 999 });
const made = (offerId: string, fromAgentId: number, rate: number) => ({
  type: 'OfferMade',
  data: { offerId, round: 0, fromAgentId, toAgentId: fromAgentId === 1 ? 2 : 1, terms: terms(rate) },
});

describe('the offer book: which offer stands', () => {
  it('a side’s next offer supersedes its last; the table holds the latest open one', () => {
    const book = offerBookOf([made('a', 1, 4.1), made('b', 2, 4.9), made('c', 1, 4.3)]);
    expect(book.offers.map((o) => [o.offerId, o.status])).toEqual([
      ['a', 'superseded'],
      ['b', 'open'],
      ['c', 'open'],
    ]);
    expect(offerOnTheTable(book)?.offerId).toBe('c');
    expect(standingOfferOf(book, 2)?.terms.interestRate).toBe(4.9);
  });

  it('a rejection leaves its side with no standing offer, but History still sees its latest', () => {
    const book = offerBookOf([made('a', 1, 4.1), { type: 'OfferRejected', data: { offerId: 'a' } }]);
    expect(standingOfferOf(book, 1)).toBeNull();
    expect(latestOfferOf(book, 1)?.status).toBe('rejected');
    expect(offerOnTheTable(book)).toBeNull();
  });

  it('an acceptance accepts that offer and supersedes every other still open', () => {
    const book = offerBookOf([made('a', 1, 4.1), made('b', 2, 4.9), { type: 'OfferAccepted', data: { offerId: 'a' } }]);
    expect(acceptedOffer(book)?.offerId).toBe('a');
    expect(standingOfferOf(book, 2)).toBeNull();
    expect(latestOfferOf(book, 2)?.status).toBe('superseded');
  });

  it('other events leave the book as it was', () => {
    expect(evolveOfferBook(emptyOfferBook, { type: 'MessageSent', data: {} })).toBe(emptyOfferBook);
  });
});

describe('an offer’s figures', () => {
  it('reproduce Furness Building Society’s 5-year fix (docs/behaviour/regulated-figures.md): fee added, then the reversion rate', () => {
    // Furness BS representative example: £150,000 over 23 years at 4.59% fixed for 5 years, then 8.39%, the £999 fee
    // added to the loan: 60 payments of £886.73 then 216 of £1,170.05.
    const product = FURNESS_FIVE_YEAR_FIX;
    const figures = offerFigures({ loanAmount: 150_000, termYears: 23, interestRate: 4.59, arrangementFee: 999 }, product);
    expect(figures.payments).toEqual([
      { months: 60, amount: 886.73 },
      { months: 216, amount: 1170.05 },
    ]);
    expect(figures.monthlyPayment).toBe(886.73);
    // The true cost over the initial period: its 60 payments plus the fee.
    expect(figures.trueCostOverInitialPeriod).toBeCloseTo(60 * 886.73 + 999, 2);
  });

  it('without a product, one rate runs for the whole term and there is no initial period to cost', () => {
    const figures = offerFigures(terms(5));
    expect(figures.payments).toHaveLength(1);
    expect(figures.trueCostOverInitialPeriod).toBeNull();
  });

  it('names an implausible term in words', () => {
    expect(offerTermsProblem({ ...terms(5), loanAmount: 0 })).toBe('terms.loanAmount: must be more than £0');
    expect(offerTermsProblem(terms(5))).toBeNull();
  });
});

describe('what History and the read side serve beside terms', () => {
  it('writes a move’s reason in words with its figures: percent, pounds and counts as named', () => {
    expect(
      moveReasonInWords({
        rule: 'Conceded towards the borrower as the deadline nears',
        figures: { initialRatePercent: 4.35, trueCostPounds: 12_345, roundsLeft: 3 },
      }),
    ).toBe('Conceded towards the borrower as the deadline nears (initial rate 4.35%, true cost £12,345, rounds left 3)');
    expect(moveReasonInWords({ rule: 'Accepted: at least as good as its own next offer', figures: {} })).toBe(
      'Accepted: at least as good as its own next offer',
    );
  });

  it('serves no figures for terms no illustration can be made of, rather than failing the read', () => {
    expect(servedOfferFigures({ ...terms(5), loanAmount: 0 })).toBeNull();
    expect(servedOfferFigures(terms(5))).toEqual(offerFigures(terms(5)));
  });
});
