import {
  offerFigures,
  plural,
  pounds,
  poundsAndPence,
  ratePercent,
  readCriteria,
  type DomainEvent,
  type LoanTerms,
  type OfferedProduct,
} from '@pf/events';
import { describe, expect, it } from 'vitest';
import { DEMO_NEEDS, DEMO_RANGES } from '../../seed-demo/demo-products';
import { worth } from '../negotiation/offer-strategy';
import { runNegotiation } from '../negotiation/run-negotiation';
import { nextMove } from '../negotiation/next-move';
import { decidedMoveEvents } from '../negotiation/move-intent';
import { negotiationSetup } from '../negotiation/setup';
import { evolveNegotiation, initialNegotiationState, latestOf, offerToAnswer, type NegotiationState } from '../negotiation/state';
import { createRng } from '../rng';
import { generatePair } from '../testing/generate-pair';
import { describeQuote } from './format';
import { messageForBroker, messageForMove } from './move-message';

const northgate = DEMO_RANGES.northgate!;
const amelia = DEMO_NEEDS.amelia!;
const setup = negotiationSetup(
  { agentId: 1, needs: amelia, criteria: null },
  { agentId: 2, name: 'Northgate', range: northgate, criteria: null },
  3,
);
const priced = setup.priced!;
const list: LoanTerms = {
  interestRate: priced.listRate,
  termYears: amelia.termYears,
  loanAmount: amelia.loanAmount,
  arrangementFee: priced.listFee,
};
const listProduct: OfferedProduct = { ...priced.product, cashbackPounds: 0 };

const CONCESSION = /We can move to|I can move to/;
const SAME = /stays at|I'd still need/;
const AWAY = /I now need|Our offer is now/;
const REFUSAL = /We can't do that|more than I can manage/;

function play(state: NegotiationState, events: DomainEvent[]): NegotiationState {
  return events.reduce(evolveNegotiation, state);
}

describe('wording', () => {
  it('formats pounds, rates and years the British way', () => {
    expect(pounds(1_250_000)).toBe('£1,250,000');
    expect(ratePercent(4.1)).toBe('4.10%');
    expect(plural(1, 'year')).toBe('1 year');
  });

  it('quotes an offer with its product, initial period, rate, fee, monthly payment and APRC from offerFigures', () => {
    const figures = offerFigures(list, listProduct);
    const quote = describeQuote(list, listProduct);
    expect(quote).toBe(
      `${listProduct.name}, a 2-year fixed rate, on £236,000 over 30 years: ${ratePercent(list.interestRate)}, ` +
        `${list.arrangementFee === 0 ? 'no fee' : `fee ${pounds(list.arrangementFee)}`}, ${poundsAndPence(figures.monthlyPayment)} a month, APRC ${figures.aprc.toFixed(1)}%`,
    );
    const added = describeQuote(
      { ...list, arrangementFee: 995 },
      { ...listProduct, feeAddedToLoan: true, cashbackPounds: 350, type: 'tracker' },
    );
    expect(added).toContain('a 2-year tracker');
    expect(added).toContain('fee £995 added to the loan, £350 cashback,');
  });

  it('gives the broker an introduction naming both parties and the property', () => {
    const text = messageForBroker(
      initialNegotiationState(5, setup),
      { kind: 'introduce' },
      { borrower: 'Amelia', lender: 'Northgate' },
      createRng(1),
    );
    expect(text).toMatch(/Amelia/);
    expect(text).toMatch(/Northgate/);
    expect(text).toContain('£295,000');
  });

  it('says the same words for the same seed', () => {
    const state = initialNegotiationState(5, setup);
    const move = nextMove(state, 'borrower', { deadlineRounds: 10, opener: 'borrower' });
    expect(messageForMove(state, 'borrower', move, createRng(3))).toBe(messageForMove(state, 'borrower', move, createRng(3)));
  });
});

describe('words agree with moves', () => {
  it('over generated negotiations: every offer and agreement quotes its figures; concession, same-terms and move-away words only when true', () => {
    const rng = createRng(17);
    for (let pairIndex = 0; pairIndex < 150; pairIndex += 1) {
      const pair = generatePair(rng);
      const result = runNegotiation(pair.borrower, pair.lender);
      const case_ = result.setup.priced;
      result.steps.forEach(({ state, side, move }, index) => {
        const text = messageForMove(state, side, move, createRng(pairIndex)) ?? '';
        if (move.kind === 'accept') {
          expect(text).toContain(describeQuote(move.terms, move.product!));
          expect(text).toMatch(/^(We're happy to agree|Agreed): /);
        }
        if ((move.kind !== 'offer' && move.kind !== 'counter') || !case_) return;
        expect(text).toContain(describeQuote(move.terms, move.product));
        const previous = latestOf(state, side);
        if (!previous) return;
        const before = worth(case_, previous);
        const after = worth(case_, move);
        const gain = side === 'lender' ? after.given - before.given : after.trueCost - before.trueCost;
        if (CONCESSION.test(text)) expect(gain).toBeGreaterThan(0);
        if (SAME.test(text)) expect(Math.abs(gain)).toBeLessThan(1e-6);
        if (AWAY.test(text)) expect(gain).toBeLessThan(0);
        if (!REFUSAL.test(text)) return;
        // A refusal answers an offer worse for the speaker than its own latest, whose terms it never accepts later.
        const refused = offerToAnswer(state, side)!;
        const theirs = worth(case_, refused);
        expect(side === 'lender' ? theirs.given > before.given : theirs.trueCost > before.trueCost).toBe(true);
        for (const later of result.steps.slice(index + 1)) {
          if (later.side === side && later.move.kind === 'accept') expect(later.move.terms).not.toEqual(refused.terms);
        }
      });
    }
  });

  it('refuses only an offer worse for it than its own latest that it will never accept, and never accepts it afterwards', () => {
    // The lender's agent priced list; the borrower's person asks for far beyond its discretion (a point off, no fee).
    let state = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'o0', round: 0, fromAgentId: 2, toAgentId: 1, terms: list, product: listProduct },
      },
      { type: 'MessageSent', data: { conversationId: 7, messageId: 1, fromAgentId: 2, toAgentId: 1, content: 'Hello', isAutomated: true } },
      {
        type: 'OfferMade',
        data: {
          conversationId: 7,
          offerId: 'o1',
          round: 1,
          fromAgentId: 1,
          toAgentId: 2,
          terms: { ...list, interestRate: list.interestRate - 1, arrangementFee: 0 },
          byPerson: true,
        },
      },
    ]);
    const settings = { deadlineRounds: 10, opener: 'lender' as const };
    const refused = offerToAnswer(state, 'lender')!;
    const move = nextMove(state, 'lender', settings);
    const text = messageForMove(state, 'lender', move, createRng(1)) ?? '';
    expect(text).toMatch(/^We can't do that(\.|, but)/);
    state = play(state, decidedMoveEvents(state, 'lender', move, { offerId: 'o2', dealId: 'd' }));
    // The person repeats the ask: the agent refuses again and never accepts it.
    for (let round = 3; round < 10; round += 2) {
      state = play(state, [
        {
          type: 'OfferMade',
          data: { conversationId: 7, offerId: `p${round}`, round, fromAgentId: 1, toAgentId: 2, terms: refused.terms, byPerson: true },
        },
      ]);
      const next = nextMove(state, 'lender', settings);
      expect(next.kind).not.toBe('accept');
      state = play(state, decidedMoveEvents(state, 'lender', next, { offerId: `a${round}`, dealId: 'd' }));
    }
    // A counter to an offer the lender would still take is no refusal.
    const fair = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'o0', round: 0, fromAgentId: 2, toAgentId: 1, terms: list, product: listProduct },
      },
      {
        type: 'OfferMade',
        data: {
          conversationId: 7,
          offerId: 'o1',
          round: 1,
          fromAgentId: 1,
          toAgentId: 2,
          terms: { ...list, arrangementFee: 0 },
          byPerson: true,
        },
      },
    ]);
    const counter = nextMove(fair, 'lender', settings);
    if (counter.kind === 'counter') expect(messageForMove(fair, 'lender', counter, createRng(1))).not.toMatch(REFUSAL);
  });

  it('the borrower refuses a fee above its cap, then never accepts those terms', () => {
    const overCap = { ...list, arrangementFee: 1_500 };
    const borrowerAlone = negotiationSetup(
      {
        agentId: 1,
        needs: amelia,
        criteria: null,
        alternatives: [{ agentId: 4, name: 'Other', range: northgate, criteria: readCriteria(null) }],
      },
      { agentId: 2, name: 'Northgate', range: northgate, criteria: null },
    );
    let state = play(initialNegotiationState(7, borrowerAlone), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'b0', round: 0, fromAgentId: 1, toAgentId: 2, terms: list, product: listProduct },
      },
      { type: 'MessageSent', data: { conversationId: 7, messageId: 1, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: true } },
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'l1', round: 1, fromAgentId: 2, toAgentId: 1, terms: overCap, byPerson: true },
      },
    ]);
    const settings = { deadlineRounds: 10, opener: 'borrower' as const };
    const move = nextMove(state, 'borrower', settings);
    expect(messageForMove(state, 'borrower', move, createRng(1))).toMatch(/^I'm sorry, that's more than I can manage\. Could you do /);
    state = play(state, decidedMoveEvents(state, 'borrower', move, { offerId: 'b2', dealId: 'd' }));
    state = play(state, [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'l3', round: 3, fromAgentId: 2, toAgentId: 1, terms: overCap, byPerson: true },
      },
    ]);
    expect(nextMove(state, 'borrower', settings).kind).not.toBe('accept');
  });
});
