import { readCriteria, type ProductRange } from '@pf/events';
import { describe, expect, it } from 'vitest';
import { DEMO_NEEDS, DEMO_RANGES } from '../../seed-demo/demo-products';
import { decidedMoveEvents } from './move-intent';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn } from './next-move';
import { worth } from './offer-strategy';
import { outsideOptions } from './outside-options';
import { negotiationSetup, type BorrowerInput } from './setup';
import { evolveNegotiation, initialNegotiationState, offerToAnswer, type NegotiationState } from './state';

/** Northgate's range (NatWest's 2 year fix of 2 June 2023, docs/behaviour/products.md) with every rate moved by `shift` points. */
const shifted = (shift: number): ProductRange => {
  const northgate = DEMO_RANGES.northgate!;
  return {
    ...northgate,
    products: northgate.products.map((p) => ({ ...p, rates: p.rates.map((band) => ({ ...band, ratePercent: band.ratePercent + shift })) })),
  };
};
const lenders: Array<[number, ProductRange]> = [
  [2, shifted(0.1)],
  [3, shifted(-0.1)],
  [4, shifted(0)],
];
const priya = DEMO_NEEDS.priya!;
const borrower: BorrowerInput = {
  agentId: 1,
  needs: priya,
  criteria: null,
  strategy: 'linear',
  alternatives: lenders.map(([agentId, range]) => ({ agentId, name: `Lender ${agentId}`, range, criteria: readCriteria(null) })),
};

/** One borrower against several lenders, each conversation taking its turn in order, as the process manager would. */
function negotiateWithAll(): NegotiationState[] {
  let states = lenders.map(([agentId, range], index) =>
    initialNegotiationState(index + 1, negotiationSetup(borrower, { agentId, range, criteria: null, strategy: 'linear' })),
  );
  const settings = DEFAULT_NEGOTIATION_SETTINGS;
  for (let step = 0; step < 100; step += 1) {
    let moved = false;
    states.forEach((state, index) => {
      const side = whoseTurn(state, settings);
      if (!side) return;
      const move = nextMove(state, side, settings, outsideOptions(state, side, states));
      if (move.kind === 'wait') return;
      moved = true;
      const events = decidedMoveEvents(state, side, move, { offerId: `o-${index}-${step}`, dealId: `d-${index}` });
      states = states.map((s, i) => (i === index ? events.reduce(evolveNegotiation, state) : s));
    });
    if (!moved) break;
  }
  return states;
}

describe('a borrower negotiating with several lenders at once', () => {
  it('agrees with one lender only, at a true cost no worse than any offer open elsewhere, and falls silent elsewhere', () => {
    const states = negotiateWithAll();
    const agreed = states.filter((state) => state.status === 'agreed');
    expect(agreed).toHaveLength(1);
    const others = states.filter((state) => state.status === 'negotiating');
    for (const other of others) {
      const side = whoseTurn(other, DEFAULT_NEGOTIATION_SETTINGS)!;
      expect(nextMove(other, side, DEFAULT_NEGOTIATION_SETTINGS, outsideOptions(other, side, states))).toEqual({
        kind: 'wait',
        reason: 'finished',
      });
    }
    const winner = agreed[0]!;
    const cost = worth(winner.setup.priced!, { terms: winner.agreed!.terms, product: winner.agreed!.product }).trueCost;
    for (const other of others) {
      const open = offerToAnswer(other, 'borrower');
      if (open) expect(cost).toBeLessThanOrEqual(worth(other.setup.priced!, open).trueCost + 1e-6);
    }
  });

  it('does not accept an offer when a cheaper one is open elsewhere', () => {
    // Alone (no alternative line), list price is within its reservation.
    const setup = negotiationSetup({ ...borrower, alternatives: [] }, { agentId: 4, range: shifted(0), criteria: null });
    const priced = setup.priced!;
    const list = {
      interestRate: priced.listRate,
      termYears: priya.termYears,
      loanAmount: priya.loanAmount,
      arrangementFee: priced.listFee,
    };
    const withOffer = evolveNegotiation(initialNegotiationState(1, setup), {
      type: 'OfferMade',
      data: {
        conversationId: 1,
        offerId: 'a',
        round: 0,
        fromAgentId: 4,
        toAgentId: 1,
        terms: list,
        product: { ...priced.product, cashbackPounds: 0 },
      },
    });
    const lastRound = { ...DEFAULT_NEGOTIATION_SETTINGS, deadlineRounds: 1 };
    expect(nextMove(withOffer, 'borrower', lastRound).kind).toBe('accept');
    const cheaper = nextMove(withOffer, 'borrower', lastRound, { bestElsewhere: setup.listTrueCost! - 50, agreedElsewhere: false });
    expect(cheaper.kind).toBe('walk-away');
  });
});
