import {
  initialRateFor,
  ltvPercentOf,
  readCriteria,
  source,
  DEFAULT_BANK_RATE_PERCENT,
  type BorrowerNeeds,
  type DomainEvent,
  type EventOf,
  type ProductRange,
} from '@pf/events';
import { describe, expect, it } from 'vitest';
import { DEMO_NEEDS, DEMO_RANGES } from '../../seed-demo/demo-products';
import { brokerMove } from './broker-move';
import { conceded } from './concession';
import { DEFAULT_LENDING_RULES } from './lending-rules';
import { decidedMoveEvents } from './move-intent';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn } from './next-move';
import { worth } from './offer-strategy';
import { listTermsOf } from './list-price';
import { ladder, marginGiven, outsideLimits, trueCostAt } from './pricing';
import { runFrom, runNegotiation } from './run-negotiation';
import { negotiationSetup, type BorrowerInput, type LenderInput } from './setup';
import { evolveNegotiation, initialNegotiationState, type NegotiationState } from './state';

/*
 * The cases are Seed Demo Data's (docs/behaviour/products.md, "The demo ranges"): Amelia's first purchase (£236,000
 * of £295,000 over 30 years, a fee cap of £1,000) against Northgate's range (NatWest's 2 year fix of 2 June 2023),
 * with Pennine Mutual's (Furness BS's 5 year fix) as her alternative.
 */
const northgate = DEMO_RANGES.northgate!;
const pennine = DEMO_RANGES.pennine!;
const amelia = DEMO_NEEDS.amelia!;
const settings = DEFAULT_NEGOTIATION_SETTINGS;
const market = { bankRatePercent: DEFAULT_BANK_RATE_PERCENT, rules: DEFAULT_LENDING_RULES };

const borrowerOf = (needs: BorrowerNeeds | null, alternatives: Array<[number, ProductRange]> = []): BorrowerInput => ({
  agentId: 1,
  needs,
  criteria: null,
  alternatives: alternatives.map(([agentId, range]) => ({ agentId, name: `Lender ${agentId}`, range, criteria: readCriteria(null) })),
});
const lenderOf = (range: ProductRange | null, strategy: LenderInput['strategy'] = 'boulware'): LenderInput => ({
  agentId: 2,
  name: 'Northgate',
  range,
  criteria: null,
  strategy,
});

function play(state: NegotiationState, events: DomainEvent[]): NegotiationState {
  return events.reduce(evolveNegotiation, state);
}

const offersIn = (events: DomainEvent[]) => events.filter((event): event is EventOf<'OfferMade'> => event.type === 'OfferMade');

describe('bespoke pricing of one product', () => {
  it('concedes slowly as Boulware and quickly as Conceder', () => {
    expect(conceded('boulware', 0.5)).toBeLessThan(conceded('linear', 0.5));
    expect(conceded('linear', 0.5)).toBeLessThan(conceded('conceder', 0.5));
    for (const strategy of ['boulware', 'linear', 'conceder'] as const) expect(conceded(strategy, 1)).toBe(1);
  });

  it('negotiates the lender’s best line for the borrower from sourcing, at the borrower’s loan and term', () => {
    const setup = negotiationSetup(borrowerOf(amelia, [[3, pennine]]), lenderOf(northgate), null, market);
    const best = source(
      amelia,
      readCriteria(null),
      [{ agentId: 2, name: 'Northgate', range: northgate, criteria: readCriteria(null) }],
      4,
      DEFAULT_LENDING_RULES,
    ).find((line) => line.quote !== null);
    expect(setup.priced?.product).toMatchObject({ productId: best?.productId, feeFree: best?.feeFree });
    expect(setup.priced?.needs).toMatchObject({ loanAmount: 236_000, termYears: 30, maxFeePounds: 1_000 });
    // Pennine's only product is a 5-year fix: no alternative price for a 2-year one, so her reservation is list price.
    expect(setup.priced?.product.initialPeriodMonths).toBe(24);
    expect(setup.borrower.alternative).toBeNull();
    expect(setup.borrower.reservation).toBe(setup.listTrueCost);
    // With Capital & Counties' 2-year lines beside it, her reservation is the cheapest of them at list price, when below.
    const capital = DEMO_RANGES.capital!;
    const withCapital = negotiationSetup(
      borrowerOf(amelia, [
        [3, pennine],
        [4, capital],
      ]),
      lenderOf(northgate),
      null,
      market,
    );
    const other = source(
      amelia,
      readCriteria(null),
      [{ agentId: 4, name: 'Lender 4', range: capital, criteria: readCriteria(null) }],
      4,
      DEFAULT_LENDING_RULES,
    ).find((line) => line.quote !== null && line.initialPeriodMonths === 24);
    expect(withCapital.borrower.alternative?.trueCost).toBe(other?.quote?.trueCostOverInitialPeriod);
    expect(withCapital.borrower.reservation).toBe(Math.min(withCapital.listTrueCost!, other!.quote!.trueCostOverInitialPeriod));
  });

  it('opens at list price, concedes only within the discretion, and never trades the loan or the term', () => {
    const result = runNegotiation(borrowerOf(amelia), lenderOf(northgate), settings, { market });
    const priced = result.setup.priced!;
    const offers = offersIn(result.events);
    // The borrower asks first; the lender's first offer is its list price.
    expect(offers[0]?.data.fromAgentId).toBe(1);
    const opening = offers[1]!;
    expect(opening.data.fromAgentId).toBe(2);
    expect(opening.data.terms.interestRate).toBe(
      initialRateFor(
        northgate.products.find((p) => p.id === priced.product.productId)!,
        ltvPercentOf(amelia),
        4,
        priced.product.feeFree,
      ),
    );
    expect(opening.data.terms.arrangementFee).toBe(priced.listFee);
    expect(opening.data.reason?.rule).toBe('lender opens at list price');
    for (const offer of offers) {
      expect(offer.data.terms).toMatchObject({ loanAmount: 236_000, termYears: 30 });
      expect(offer.data.product?.productId).toBe(priced.product.productId);
      expect(outsideLimits(priced, offer.data.terms, offer.data.product ?? null)).toBeNull();
      expect(offer.data.reason?.figures.trueCost).toBeGreaterThan(0);
    }
    // The lender never moves back: the margin it gives only grows.
    const given = offers
      .filter((o) => o.data.fromAgentId === 2)
      .map((o) => worth(priced, { terms: o.data.terms, product: o.data.product ?? null }).given);
    expect(given).toEqual([...given].sort((a, b) => a - b));
    expect(result.outcome).toBe('agreed');
  });

  it('concedes in broker-sized steps: the fee in £100s or waived, cashback in £250s, the rate in 0.05% steps', () => {
    const priced = negotiationSetup(borrowerOf(amelia), lenderOf(northgate), null, market).priced!;
    const points = ladder(priced);
    expect(points[0]).toEqual({ rateReduction: 0, feeReduction: 0, cashback: 0 });
    for (const point of points) {
      const fee = priced.listFee - point.feeReduction;
      expect(fee === priced.listFee || fee % 100 === 0 || point.feeReduction === priced.max.feeReduction).toBe(true);
      expect(point.cashback % 250 === 0 || point.cashback === priced.max.cashback).toBe(true);
      expect(Math.round(point.rateReduction * 100) % 5 === 0 || point.rateReduction === priced.max.rateReduction).toBe(true);
    }
    expect(points.at(-1)).toEqual(priced.max);
    const costs = points.map((point) => trueCostAt(priced, point));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(points.map((point) => marginGiven(priced, point))).toEqual(
      points.map((point) => marginGiven(priced, point)).sort((a, b) => a - b),
    );
  });

  it('holds a stated fee cap: the opening reduces the fee to it, and without the discretion to, there is no deal', () => {
    // Pennine's £999 fee may be reduced by £500 (the platform's demo discretion): a £500 cap is met at £500.
    const capped = { ...amelia, maxFeePounds: 500, preferredInitialPeriodMonths: 60 };
    const result = runNegotiation(borrowerOf(capped), lenderOf(pennine), settings, { market });
    const offers = offersIn(result.events);
    expect(offers[1]?.data.terms.arrangementFee).toBe(500);
    expect(offers[1]?.data.reason?.rule).toBe("lender opens at list price, the fee reduced to the borrower's cap");
    for (const offer of offers) expect(offer.data.terms.arrangementFee).toBeLessThanOrEqual(500);
    const tooLow = runNegotiation(borrowerOf({ ...capped, maxFeePounds: 400 }), lenderOf(pennine), settings, { market });
    expect(tooLow.rounds).toBe(0);
    expect(tooLow.events.at(-1)).toMatchObject({ type: 'ConversationCompleted', data: { outcome: 'no_agreement' } });
    const ended = tooLow.events.at(-1);
    expect(ended?.type === 'ConversationCompleted' && ended.data.reason).toMatch(
      /^No product to price: the fee of £999 is above the borrower's cap of £400/,
    );
  });

  it('says at once, and why, when there is nothing to price', () => {
    const noNeeds = runNegotiation(borrowerOf(null), lenderOf(northgate), settings, { market });
    expect(noNeeds.rounds).toBe(0);
    expect(noNeeds.events.at(-1)?.data).toMatchObject({ reason: "No product to price: the borrower's needs are not recorded" });
    const noRange = runNegotiation(borrowerOf(amelia), lenderOf(null), settings, { market });
    expect(noRange.events.at(-1)?.data).toMatchObject({ reason: 'No product to price: the lender has no product range' });
  });

  it('asks the lender to match its next-best line when even the floor costs more, and walks away at the deadline', () => {
    // The alternative: the same range with every rate a point lower, so its list price is below this lender's floor.
    const cheaper: ProductRange = {
      ...northgate,
      products: northgate.products.map((p) => ({ ...p, rates: p.rates.map((band) => ({ ...band, ratePercent: band.ratePercent - 1 })) })),
    };
    const result = runNegotiation(borrowerOf(amelia, [[3, cheaper]]), lenderOf(northgate), settings, { market });
    expect(result.outcome).toBe('no_agreement');
    expect(result.rounds).toBe(settings.deadlineRounds);
    expect(result.events.at(-1)?.data).toMatchObject({ reason: 'No agreement by the deadline' });
    const priced = result.setup.priced!;
    for (const offer of offersIn(result.events)) {
      if (offer.data.fromAgentId === 1) {
        // Beyond the discretion (the lender never takes it), and no dearer than its alternative.
        expect(offer.data.reason?.rule).toBe('borrower asks the lender to match its next-best product');
        expect(outsideLimits(priced, offer.data.terms, offer.data.product ?? null)).toBe("the rate is below the lender's discretion");
        expect(worth(priced, { terms: offer.data.terms, product: offer.data.product ?? null }).trueCost).toBeLessThanOrEqual(
          result.setup.borrower.reservation,
        );
      } else expect(outsideLimits(priced, offer.data.terms, offer.data.product ?? null)).toBeNull();
    }
  });

  it('takes turns (the borrower asks first, or the lender prices first), waits in manual mode and after the end', () => {
    const state = initialNegotiationState(7, negotiationSetup(borrowerOf(amelia), lenderOf(northgate), null, market));
    expect(whoseTurn(state, settings)).toBe('borrower');
    const lenderFirst = { ...settings, opener: 'lender' as const };
    expect(whoseTurn(state, lenderFirst)).toBe('lender');
    expect(nextMove(state, 'borrower', lenderFirst)).toEqual({ kind: 'wait', reason: 'not-your-turn' });
    const manual = play(state, [{ type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } }]);
    expect(nextMove(manual, 'lender', lenderFirst)).toEqual({ kind: 'wait', reason: 'manual-mode' });
    const open = nextMove(state, 'lender', lenderFirst);
    expect(open).toMatchObject({ kind: 'offer', reason: { rule: 'lender opens at list price' } });
    const after = play(state, decidedMoveEvents(state, 'lender', open, { offerId: 'o1', dealId: 'd1' }));
    expect(whoseTurn(after, lenderFirst)).toBe('borrower');
    const ended = play(after, [{ type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'stopped', reason: 'paused' } }]);
    expect(nextMove(ended, 'borrower', lenderFirst)).toEqual({ kind: 'wait', reason: 'finished' });
  });

  it('accepts an offer at least as good as its own next offer (AC-next), with the rule and figures it used', () => {
    const setup = negotiationSetup(borrowerOf(amelia), lenderOf(northgate), null, market);
    const priced = setup.priced!;
    const listTerms = { interestRate: priced.listRate, termYears: 30, loanAmount: 236_000, arrangementFee: priced.listFee };
    // The borrower's person asks for list price: the lender's agent takes it.
    const state = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 1, toAgentId: 2, terms: listTerms, byPerson: true },
      },
    ]);
    const move = nextMove(state, 'lender', settings);
    expect(move).toMatchObject({
      kind: 'accept',
      offerId: 'o1',
      terms: listTerms,
      reason: { rule: 'lender accepts: within its discretion and no more than it would give next' },
    });
    const agreed = decidedMoveEvents(state, 'lender', move, { offerId: 'o2', dealId: 'd1' });
    expect(agreed.find((event) => event.type === 'DealAgreed')?.data).toMatchObject({ product: { ...priced.product, cashbackPounds: 0 } });
  });

  it('never accepts beyond the discretion or the fee cap, even when offered', () => {
    const setup = negotiationSetup(borrowerOf(amelia), lenderOf(northgate), null, market);
    const priced = setup.priced!;
    const beyond = { interestRate: priced.listRate - 1, termYears: 30, loanAmount: 236_000, arrangementFee: 0 };
    const lenderAsked = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 1, toAgentId: 2, terms: beyond, byPerson: true },
      },
    ]);
    expect(nextMove(lenderAsked, 'lender', settings).kind).toBe('counter');
    const overCap = { interestRate: priced.listRate - 0.5, termYears: 30, loanAmount: 236_000, arrangementFee: 1_500 };
    const borrowerAsked = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 2, toAgentId: 1, terms: overCap, byPerson: true },
      },
    ]);
    expect(nextMove(borrowerAsked, 'borrower', settings).kind).toBe('counter');
    // A loan or a term other than the borrower's is never accepted either.
    const shorter = { ...beyond, interestRate: priced.listRate, arrangementFee: priced.listFee, termYears: 16 };
    const traded = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 2, toAgentId: 1, terms: shorter, byPerson: true },
      },
    ]);
    expect(nextMove(traded, 'borrower', settings).kind).toBe('counter');
  });

  it('records the lender’s procuration fee on a deal a broker introduced, and none on a direct one', () => {
    const deal = (brokerAgentId: number | null) => {
      const result = runNegotiation(borrowerOf(amelia), lenderOf(northgate), settings, { market, brokerAgentId });
      return result.events.find((event) => event.type === 'DealAgreed')?.data;
    };
    // Northgate pays 0.35% of the loan (docs/behaviour/products.md): £826 on £236,000.
    expect(deal(9)).toMatchObject({ brokerAgentId: 9, procurationFee: 826, loanAmount: 236_000, termYears: 30 });
    expect(deal(9)).toHaveProperty('product.productId');
    expect(deal(null)).not.toHaveProperty('procurationFee');
  });

  it('after a hand-back, continues from its person’s standing offer: never offers or accepts its side less', () => {
    const setup = negotiationSetup(borrowerOf(amelia, [[3, pennine]]), lenderOf(northgate), null, market);
    const priced = setup.priced!;
    const floor = ladder(priced).at(-1)!;
    const floorTerms = {
      interestRate: priced.listRate - floor.rateReduction,
      termYears: 30,
      loanAmount: 236_000,
      arrangementFee: priced.listFee - floor.feeReduction,
    };
    const product = { ...priced.product, cashbackPounds: floor.cashback };
    const listTerms = { ...floorTerms, interestRate: priced.listRate, arrangementFee: priced.listFee };
    const listProduct = { ...priced.product, cashbackPounds: 0 };
    const made = (
      offerId: string,
      round: number,
      fromAgentId: number,
      terms: typeof floorTerms,
      p: typeof product,
      byPerson?: true,
    ): DomainEvent => ({
      type: 'OfferMade',
      data: {
        conversationId: 7,
        offerId,
        round,
        fromAgentId,
        toAgentId: 3 - fromAgentId,
        terms,
        product: p,
        ...(byPerson ? { byPerson } : {}),
      },
    });
    // The lender opened at list; the borrower's operator asked for the floor, then handed the side back.
    const state = play(initialNegotiationState(7, setup), [
      made('o1', 0, 2, listTerms, listProduct),
      made('o2', 1, 1, floorTerms, product, true),
      made('o3', 2, 2, listTerms, listProduct),
    ]);
    const move = nextMove(state, 'borrower', settings);
    expect(move).toMatchObject({ kind: 'counter', terms: floorTerms, reason: { rule: "borrower repeats its person's standing offer" } });
    // Without a person's offer standing, the same Conceder at the same round asks for less.
    const own = play(initialNegotiationState(7, setup), [
      made('o1', 0, 2, listTerms, listProduct),
      made('o2', 1, 1, floorTerms, product),
      made('o3', 2, 2, listTerms, listProduct),
    ]);
    const conceded = nextMove(own, 'borrower', settings);
    expect(conceded.kind === 'counter' && worth(priced, { terms: conceded.terms, product: conceded.product }).trueCost).toBeGreaterThan(
      worth(priced, { terms: floorTerms, product }).trueCost,
    );
  });

  it('never agrees while an offer open elsewhere costs less: it asks this lender to match it', () => {
    const setup = negotiationSetup(borrowerOf(amelia), lenderOf(northgate), null, market);
    const priced = setup.priced!;
    const elsewhere = (setup.floorTrueCost ?? 0) - 100;
    let state = initialNegotiationState(7, setup);
    for (let turn = 0; turn < 12 && state.status === 'negotiating'; turn += 1) {
      const side = whoseTurn(state, settings)!;
      const move = nextMove(state, side, settings, { bestElsewhere: elsewhere, agreedElsewhere: false });
      expect(move.kind).not.toBe('accept');
      if (side === 'borrower' && (move.kind === 'offer' || move.kind === 'counter')) {
        expect(move.reason.rule).toBe('borrower asks the lender to match its offer elsewhere');
        expect(worth(priced, move).trueCost).toBeLessThanOrEqual(elsewhere);
      }
      state = play(state, decidedMoveEvents(state, side, move, { offerId: `o${turn}`, dealId: 'd' }));
    }
    expect(state.status).toBe('ended');
  });

  it('walks away at the deadline when the lender’s person holds list price above the borrower’s reservation', () => {
    // The alternative: the same range 0.05 points cheaper, so the reservation lies between floor and list.
    const cheaper: ProductRange = {
      ...northgate,
      products: northgate.products.map((p) => ({
        ...p,
        rates: p.rates.map((band) => ({ ...band, ratePercent: band.ratePercent - 0.05 })),
      })),
    };
    const setup = negotiationSetup(borrowerOf(amelia, [[3, cheaper]]), lenderOf(northgate), null, market);
    expect(setup.borrower.reservation).toBeLessThan(setup.listTrueCost!);
    expect(setup.borrower.reservation).toBeGreaterThan(setup.floorTrueCost!);
    const priced = setup.priced!;
    const list = { interestRate: priced.listRate, termYears: 30, loanAmount: 236_000, arrangementFee: priced.listFee };
    let state = play(initialNegotiationState(7, setup), [
      {
        type: 'OfferMade',
        data: {
          conversationId: 7,
          offerId: 'p0',
          round: 0,
          fromAgentId: 2,
          toAgentId: 1,
          terms: list,
          product: { ...priced.product, cashbackPounds: 0 },
          byPerson: true,
        },
      },
    ]);
    for (let turn = 1; turn < 12 && state.status === 'negotiating'; turn += 1) {
      const side = whoseTurn(state, settings)!;
      state = play(state, decidedMoveEvents(state, side, nextMove(state, side, settings), { offerId: `o${turn}`, dealId: 'd' }));
    }
    expect(state.status).toBe('ended');
    expect(state.book.offers).toHaveLength(settings.deadlineRounds);
    for (const offer of state.book.offers) if (offer.fromAgentId === 2) expect(offer.terms).toEqual(list);
  });

  it('prices the case at list price on the command side as the lender’s agent opens (what completes a person’s typed figures)', () => {
    const setup = negotiationSetup(borrowerOf(amelia), lenderOf(northgate), null, market);
    const open = nextMove(initialNegotiationState(7, setup), 'lender', { ...settings, opener: 'lender' });
    const ameliaAgent = { agentId: 1, name: 'Amelia', type: 'borrower' as const, criteria: null, needs: amelia };
    const northgateAgent = { agentId: 2, name: 'Northgate', type: 'lender' as const, criteria: null, products: northgate };
    expect(open.kind).toBe('offer');
    if (open.kind === 'offer') expect(listTermsOf(ameliaAgent, northgateAgent, market)).toEqual(open.terms);
    expect(listTermsOf(ameliaAgent, { ...northgateAgent, products: null }, market)).toBeNull();
    expect(listTermsOf(null, northgateAgent, market)).toBeNull();
  });

  it('has the broker introduce first and suggest a middle ground on the lender’s ladder once', () => {
    const setup = negotiationSetup(borrowerOf(amelia, [[3, pennine]]), lenderOf(northgate), 9, market);
    let state = initialNegotiationState(7, setup);
    expect(brokerMove(state, settings)).toEqual({ kind: 'introduce' });
    state = play(state, [
      {
        type: 'MessageSent',
        data: { conversationId: 7, messageId: 1, fromAgentId: 9, toAgentId: null, content: 'Hello', isAutomated: true },
      },
    ]);
    for (let round = 0; round < 5 && state.status === 'negotiating'; round += 1) {
      const side = whoseTurn(state, settings)!;
      state = play(state, decidedMoveEvents(state, side, nextMove(state, side, settings), { offerId: `o${round}`, dealId: 'd' }));
    }
    const suggestion = brokerMove(state, settings);
    if (state.status !== 'negotiating') return expect(suggestion).toBeNull();
    expect(suggestion?.kind).toBe('suggest');
    if (suggestion?.kind === 'suggest') expect(outsideLimits(setup.priced!, suggestion.terms, suggestion.product)).toBeNull();
  });

  it('replays to the same negotiation from the same setup', () => {
    const setup = negotiationSetup(borrowerOf(amelia, [[3, pennine]]), lenderOf(northgate, 'linear'), null, market);
    expect(runFrom(initialNegotiationState(1, setup)).events).toEqual(runFrom(initialNegotiationState(1, setup)).events);
  });
});
