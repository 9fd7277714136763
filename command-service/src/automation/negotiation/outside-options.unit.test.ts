import { describe, expect, it } from 'vitest';
import { createRng } from '../rng';
import { moveEvents } from './move-events';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn } from './next-move';
import { outsideOptions } from './outside-options';
import { negotiationSetup } from './setup';
import { evolveNegotiation, initialNegotiationState, type NegotiationState } from './state';
import { utility } from './utility';

const borrower = {
  agentId: 1,
  strategy: 'linear' as const,
  criteria: { loanAmount: '£240,000', deposit: '£60,000', interestRateMax: '6%', loanTermMin: '20', loanTermMax: '30' },
};
const lender = (agentId: number, rateMin: string) => ({
  agentId,
  strategy: 'linear' as const,
  criteria: { interestRateMin: rateMin, interestRateMax: '6.5%', loanTermMin: '10', loanTermMax: '30', maxLtv: '85%' },
});

/** One borrower against several lenders, each conversation taking its turn in order, as the process manager would. */
function negotiateWithAll(lenders: ReturnType<typeof lender>[]): NegotiationState[] {
  let states = lenders.map((l, index) => initialNegotiationState(index + 1, negotiationSetup(borrower, l)));
  const settings = DEFAULT_NEGOTIATION_SETTINGS;
  for (let step = 0; step < 100; step += 1) {
    let moved = false;
    states.forEach((state, index) => {
      const side = whoseTurn(state, settings);
      if (!side) return;
      const move = nextMove(state, side, settings, createRng(step * 10 + index), outsideOptions(state, side, states));
      if (move.kind === 'wait') return;
      moved = true;
      const events = moveEvents(state, side, move, { offerId: `o-${index}-${step}`, dealId: `d-${index}` });
      states = states.map((s, i) => (i === index ? events.reduce(evolveNegotiation, state) : s));
    });
    if (!moved) break;
  }
  return states;
}

describe('a borrower negotiating with several lenders at once', () => {
  it('agrees with one lender only, the one whose offer is best for it, and falls silent elsewhere', () => {
    const states = negotiateWithAll([lender(2, '4.6%'), lender(3, '3.9%'), lender(4, '4.3%')]);
    const agreed = states.filter((state) => state.status === 'agreed');
    expect(agreed).toHaveLength(1);
    expect(agreed[0]?.setup.lender.agentId).toBe(3);
    const others = states.filter((state) => state.status === 'negotiating');
    expect(others).toHaveLength(2);
    for (const other of others) {
      const side = whoseTurn(other, DEFAULT_NEGOTIATION_SETTINGS)!;
      expect(nextMove(other, side, DEFAULT_NEGOTIATION_SETTINGS, createRng(1), outsideOptions(other, side, states))).toEqual({
        kind: 'wait',
        reason: 'finished',
      });
    }
    // What it agreed is at least as good for it as the last offer each other lender made.
    const winner = agreed[0] as NegotiationState;
    const worth = utility(winner.setup.borrower, winner.agreed!.terms);
    for (const other of others) {
      const last = other.offers.filter((offer) => offer.side === 'lender').at(-1);
      if (last) expect(worth).toBeGreaterThanOrEqual(utility(winner.setup.borrower, last.terms) - 1e-9);
    }
  });

  it('does not accept an offer when a better one is open elsewhere', () => {
    const here = initialNegotiationState(1, negotiationSetup(borrower, lender(2, '4.6%')));
    const withOffer = evolveNegotiation(here, {
      type: 'OfferMade',
      data: {
        conversationId: 1,
        offerId: 'a',
        round: 0,
        fromAgentId: 2,
        toAgentId: 1,
        terms: { interestRate: 5.9, termYears: 20, loanAmount: 240_000, arrangementFee: 3000 },
      },
    });
    const generous = { interestRate: 4, termYears: 30, loanAmount: 240_000, arrangementFee: 0 };
    const alone = nextMove(withOffer, 'borrower', { ...DEFAULT_NEGOTIATION_SETTINGS, deadlineRounds: 1 }, createRng(1));
    expect(alone.kind).toBe('accept');
    const better = nextMove(withOffer, 'borrower', { ...DEFAULT_NEGOTIATION_SETTINGS, deadlineRounds: 1 }, createRng(1), {
      bestElsewhere: utility(withOffer.setup.borrower, generous),
      agreedElsewhere: false,
    });
    expect(better.kind).toBe('walk-away');
  });
});
