import type { DomainEvent } from '@pf/events';
import { describe, expect, it } from 'vitest';
import { createRng } from '../rng';
import { brokerMove } from './broker-move';
import { conceded } from './concession';
import { moveEvents } from './move-events';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn } from './next-move';
import { offerFromOperatorMessage, readOfferFromText } from './operator-offer';
import { distanceToFrontier, nashPoint, paretoFrontier } from './pareto';
import { runNegotiation } from './run-negotiation';
import { agreementSpace, negotiationSetup } from './setup';
import { evolveNegotiation, initialNegotiationState, type NegotiationState } from './state';
import { utility } from './utility';

const borrower = {
  agentId: 1,
  criteria: {
    propertyValueMin: '£200k',
    propertyValueMax: '£300k',
    interestRateMin: '3%',
    interestRateMax: '5%',
    loanTermMin: '20',
    loanTermMax: '30 years',
  },
};
const lender = {
  agentId: 2,
  criteria: {
    propertyValueMin: '£150,000',
    propertyValueMax: '£1m',
    interestRateMin: '4%',
    interestRateMax: '6.5%',
    loanTermMin: '15 years',
    loanTermMax: '25',
  },
};
const settings = DEFAULT_NEGOTIATION_SETTINGS;

function play(state: NegotiationState, events: DomainEvent[]): NegotiationState {
  return events.reduce(evolveNegotiation, state);
}

describe('the negotiation engine', () => {
  it('concedes slowly as Boulware and quickly as Conceder', () => {
    expect(conceded('boulware', 0.5)).toBeLessThan(conceded('linear', 0.5));
    expect(conceded('linear', 0.5)).toBeLessThan(conceded('conceder', 0.5));
    for (const strategy of ['boulware', 'linear', 'conceder'] as const) expect(conceded(strategy, 1)).toBe(1);
  });

  it('reaches a deal inside both ranges for a compatible pair', () => {
    const result = runNegotiation(borrower, lender, settings, 3);
    expect(result.outcome).toBe('agreed');
    expect(result.terms?.interestRate).toBeGreaterThanOrEqual(4);
    expect(result.terms?.interestRate).toBeLessThanOrEqual(5);
    expect(result.terms?.termYears).toBeGreaterThanOrEqual(20);
    expect(result.terms?.termYears).toBeLessThanOrEqual(25);
    expect(result.events.map((event) => event.type).slice(-3)).toEqual(['OfferAccepted', 'DealAgreed', 'ConversationCompleted']);
    const deal = result.events.find((event) => event.type === 'DealAgreed');
    expect(deal?.data).toMatchObject({ propertyValue: 250_000, borrowerAgentId: 1, lenderAgentId: 2 });
  });

  it('says at once, and why, when the stated rates leave nothing in common', () => {
    const result = runNegotiation(borrower, { ...lender, criteria: { ...lender.criteria, interestRateMin: '5.5%' } }, settings, 3);
    expect(result.outcome).toBe('no_agreement');
    expect(result.rounds).toBe(0);
    expect(result.events.at(-1)).toMatchObject({
      type: 'ConversationCompleted',
      data: { outcome: 'no_agreement', reason: 'No terms both can agree on: interest rate' },
    });
  });

  it('walks away at the deadline when only their private reservations keep them apart', () => {
    const result = runNegotiation({ ...borrower, reservation: 0.95 }, { ...lender, reservation: 0.95 }, settings, 3);
    expect(result.outcome).toBe('no_agreement');
    expect(result.rounds).toBe(settings.deadlineRounds);
    expect(result.events.at(-1)).toMatchObject({ type: 'ConversationCompleted', data: { reason: 'No agreement by the deadline' } });
  });

  it('takes turns, waits in manual mode and after the end', () => {
    const state = initialNegotiationState(7, negotiationSetup(borrower, lender));
    expect(whoseTurn(state, settings)).toBe('borrower');
    expect(nextMove(state, 'lender', settings, createRng(1))).toEqual({ kind: 'wait', reason: 'not-your-turn' });
    const manual = play(state, [{ type: 'ManualModeChanged', data: { conversationId: 7, isManualMode: true } }]);
    expect(nextMove(manual, 'borrower', settings, createRng(1))).toEqual({ kind: 'wait', reason: 'manual-mode' });
    const open = nextMove(state, 'borrower', settings, createRng(1));
    expect(open.kind).toBe('offer');
    const after = play(state, moveEvents(state, 'borrower', open, { offerId: 'o1', dealId: 'd1' }));
    expect(whoseTurn(after, settings)).toBe('lender');
    const ended = play(after, [{ type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'stopped', reason: 'paused' } }]);
    expect(nextMove(ended, 'lender', settings, createRng(1))).toEqual({ kind: 'wait', reason: 'finished' });
  });

  it('accepts an offer at least as good as its own next offer (AC-next)', () => {
    const setup = negotiationSetup(borrower, lender);
    const space = agreementSpace(setup);
    if (!space) throw new Error('expected an agreement space');
    const generous = {
      interestRate: space.interestRate.hi,
      termYears: space.termYears.lo,
      loanAmount: space.loanAmount.lo,
      arrangementFee: space.arrangementFee.hi,
    };
    const state = play(initialNegotiationState(7, setup), [
      { type: 'OfferMade', data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 1, toAgentId: 2, terms: generous } },
    ]);
    expect(nextMove(state, 'lender', settings, createRng(1))).toEqual({ kind: 'accept', offerId: 'o1', terms: generous });
  });

  it('records the lender’s procuration fee on a deal a broker introduced, and none on a direct one', () => {
    const terms = { interestRate: 4.5, termYears: 25, loanAmount: 200_000, arrangementFee: 999 };
    const accept = { kind: 'accept', offerId: 'o1', terms } as const;
    const deal = (brokerAgentId: number | null) => {
      const setup = negotiationSetup(borrower, { ...lender, procurationFeePercent: 0.35 }, brokerAgentId);
      const agreed = moveEvents(initialNegotiationState(7, setup), 'lender', accept, { offerId: 'o2', dealId: 'd1' });
      return agreed.find((event) => event.type === 'DealAgreed')?.data;
    };
    // 0.35% of £200,000 (procuration fees are commonly 0.3 to 0.5% of the loan: docs/behaviour/products.md).
    expect(deal(3)).toMatchObject({ brokerAgentId: 3, procurationFee: 700 });
    expect(deal(null)).not.toHaveProperty('procurationFee');
  });

  it('after a hand-back, continues from its person’s standing offer: never offers or accepts its side less', () => {
    const setup = negotiationSetup(borrower, lender);
    const space = agreementSpace(setup);
    if (!space) throw new Error('expected an agreement space');
    // The borrower's operator offered the terms best for the borrower, then handed the side back.
    const held = {
      interestRate: space.interestRate.lo,
      termYears: space.termYears.hi,
      loanAmount: space.loanAmount.hi,
      arrangementFee: space.arrangementFee.lo,
    };
    const lenderCounter = { ...held, interestRate: space.interestRate.hi, arrangementFee: space.arrangementFee.hi };
    const byPerson = true as const;
    let state = play(initialNegotiationState(7, setup), [
      { type: 'OfferMade', data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 1, toAgentId: 2, terms: held, byPerson } },
      { type: 'OfferMade', data: { conversationId: 7, offerId: 'o2', round: 1, fromAgentId: 2, toAgentId: 1, terms: lenderCounter } },
    ]);
    const move = nextMove(state, 'borrower', settings, createRng(1));
    expect(move).toEqual({ kind: 'counter', rejectOfferId: 'o2', round: 2, terms: held });
    // Without a person's offer standing, the same Conceder at the same round gives ground.
    const { byPerson: _, ...agentsOwn } = state.offers[0]!;
    state = { ...state, offers: [agentsOwn, state.offers[1]!] };
    const own = nextMove(state, 'borrower', settings, createRng(1));
    expect(own.kind === 'counter' && utility(setup.borrower, own.terms)).toBeLessThan(utility(setup.borrower, held));
  });

  it('reads an operator’s message as that side’s offer, completed from its last one', () => {
    expect(readOfferFromText('we can do 4.1% over 25 years')).toEqual({ interestRate: 4.1, termYears: 25 });
    expect(readOfferFromText('Lend £180k with a fee of £995?')).toEqual({ loanAmount: 180_000, arrangementFee: 995 });
    expect(readOfferFromText('Hello, how are you?')).toEqual({});
    const terms = { interestRate: 5.5, termYears: 18, loanAmount: 150_000, arrangementFee: 2000 };
    const state = play(initialNegotiationState(7, negotiationSetup(borrower, lender)), [
      { type: 'OfferMade', data: { conversationId: 7, offerId: 'o1', round: 0, fromAgentId: 2, toAgentId: 1, terms } },
    ]);
    const message = {
      conversationId: 7,
      messageId: 3,
      fromAgentId: 2,
      toAgentId: 1,
      content: 'We can do 4.9% over 20 years',
      isAutomated: false,
    };
    expect(offerFromOperatorMessage(state, message)).toEqual({
      conversationId: 7,
      round: 1,
      fromAgentId: 2,
      toAgentId: 1,
      rejectOfferId: null,
      terms: { ...terms, interestRate: 4.9, termYears: 20 },
    });
    expect(offerFromOperatorMessage(state, { ...message, isAutomated: true })).toBeNull();
  });

  it('has the broker introduce first and suggest a middle ground inside both limits once', () => {
    const setup = negotiationSetup(borrower, lender, 9);
    let state = initialNegotiationState(7, setup);
    expect(brokerMove(state, settings)).toEqual({ kind: 'introduce' });
    state = play(state, [
      {
        type: 'MessageSent',
        data: { conversationId: 7, messageId: 1, fromAgentId: 9, toAgentId: null, content: 'Hello', isAutomated: true },
      },
    ]);
    const rng = createRng(2);
    for (let round = 0; round < 5; round += 1) {
      const side = whoseTurn(state, settings) ?? 'borrower';
      state = play(state, moveEvents(state, side, nextMove(state, side, settings, rng), { offerId: `o${round}`, dealId: 'd' }));
    }
    const suggestion = brokerMove(state, settings);
    expect(suggestion?.kind).toBe('suggest');
    if (suggestion?.kind === 'suggest') {
      expect(suggestion.terms.interestRate).toBeGreaterThanOrEqual(4);
      expect(suggestion.terms.interestRate).toBeLessThanOrEqual(5);
    }
  });
});

describe('Pareto frontier and Nash point', () => {
  it('are never dominated by sampled agreements', () => {
    const setup = negotiationSetup(
      { ...borrower, weights: { interestRate: 0.6, termYears: 0.1, loanAmount: 0.2, arrangementFee: 0.1 } },
      lender,
    );
    const frontier = paretoFrontier(setup);
    const space = agreementSpace(setup);
    const nash = nashPoint(setup);
    if (!frontier || !space || !nash) throw new Error('expected a zone of agreement');
    const rng = createRng(4);
    const pick = (lo: number, hi: number) => lo + rng() * (hi - lo);
    for (let i = 0; i < 2000; i += 1) {
      const terms = {
        interestRate: pick(space.interestRate.lo, space.interestRate.hi),
        termYears: pick(space.termYears.lo, space.termYears.hi),
        loanAmount: pick(space.loanAmount.lo, space.loanAmount.hi),
        arrangementFee: pick(space.arrangementFee.lo, space.arrangementFee.hi),
      };
      const point = { borrower: utility(setup.borrower, terms), lender: utility(setup.lender, terms) };
      // A point strictly above the frontier would be a better trade than the frontier claims possible.
      const dominates = frontier.some((vertex, index) => {
        const next = frontier[index + 1];
        if (!next || point.borrower > vertex.borrower + 1e-9 || point.borrower < next.borrower - 1e-9) return false;
        const share = vertex.borrower === next.borrower ? 0 : (vertex.borrower - point.borrower) / (vertex.borrower - next.borrower);
        return point.lender > vertex.lender + share * (next.lender - vertex.lender) + 1e-9;
      });
      expect(dominates).toBe(false);
      expect(point.borrower * point.lender).toBeLessThanOrEqual(nash.borrower * nash.lender + 1e-9);
    }
    expect(distanceToFrontier(frontier, nash)).toBeLessThan(1e-9);
  });
});
