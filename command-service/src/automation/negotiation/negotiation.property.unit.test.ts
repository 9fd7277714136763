/**
 * Property-based tests over generated pairs of borrower needs × lender range (docs/behaviour/negotiation.md), from
 * the same generator as the tournament, driven by fast-check seeds. Each agreement and each offer is checked against
 * the limits restated here from the needs and the range as recorded (list rate by LTV band, fee, discretion, fee
 * cap), not from the engine's own priced case.
 */
import fc from 'fast-check';
import { earnsRateDiscretion, feeFor, initialRateFor, ltvPercentOf, type EventOf, type LoanTerms, type OfferedProduct } from '@pf/events';
import { describe, expect, it } from 'vitest';
import { yardsticks } from '../bench/yardsticks';
import { createRng } from '../rng';
import { generatePair, type GeneratedPair } from '../testing/generate-pair';
import { worth } from './offer-strategy';
import { runNegotiation } from './run-negotiation';

const RUNS = 400;
const pairSeeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const pairOf = (seed: number): GeneratedPair => generatePair(createRng(seed));

/** What breaks the pair's limits in a set of terms on a product, restated from the needs and the range (Bank Rate 4%). */
function brokenLimits(pair: GeneratedPair, terms: LoanTerms, offered: OfferedProduct | undefined): string[] {
  const needs = pair.borrower.needs!;
  const broken: string[] = [];
  const check = (ok: boolean, rule: string) => (ok ? undefined : broken.push(rule));
  check(terms.loanAmount === needs.loanAmount, 'the loan is the borrower’s');
  check(terms.termYears === needs.termYears, 'the term is the borrower’s');
  const product = pair.lender.range?.products.find((p) => p.id === offered?.productId);
  if (!product || !offered) return [...broken, 'a product of the lender’s range'];
  const ltv = ltvPercentOf(needs);
  const list = initialRateFor(product, ltv, 4, offered.feeFree) ?? Number.NaN;
  const rateRoom = earnsRateDiscretion(product, ltv, needs.loanAmount) ? product.discretion.rateReductionPercent : 0;
  check(terms.interestRate <= list + 1e-9, 'never above the list rate');
  check(terms.interestRate >= list - rateRoom - 1e-9, 'the rate within the discretion');
  const listFee = offered.feeFree ? 0 : feeFor(product, needs.loanAmount);
  check(terms.arrangementFee <= listFee, 'never above the list fee');
  check(terms.arrangementFee >= listFee - product.discretion.feeReductionPounds, 'the fee within the discretion');
  check(offered.cashbackPounds <= product.discretion.cashbackPounds, 'cashback within the discretion');
  check(needs.maxFeePounds === undefined || terms.arrangementFee <= needs.maxFeePounds, 'the fee cap holds');
  check(offered.feeAddedToLoan === (needs.fee === 'added'), 'the fee paid or added as the borrower records');
  return broken;
}

describe('negotiation properties over generated needs × ranges', () => {
  it('every lender offer and agreement keeps the needs, the product, the discretion and the fee cap; a borrower asks beyond the discretion only without a zone', () => {
    fc.assert(
      fc.property(pairSeeds, (seed) => {
        const pair = pairOf(seed);
        const result = runNegotiation(pair.borrower, pair.lender);
        const zone = yardsticks(result.setup) !== null;
        for (const event of result.events) {
          if (event.type === 'DealAgreed') expect(brokenLimits(pair, event.data, event.data.product)).toEqual([]);
          if (event.type !== 'OfferMade') continue;
          const broken = brokenLimits(pair, event.data.terms, event.data.product);
          if (event.data.fromAgentId === pair.lender.agentId || zone) expect(broken, `offer ${event.data.offerId}`).toEqual([]);
          // Asking the lender to match a cheaper line: only the rate goes below the discretion, never the needs or the fee cap.
          else expect(broken.filter((rule) => rule !== 'the rate within the discretion')).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees wherever a zone of agreement exists, and never beyond the borrower’s reservation', () => {
    fc.assert(
      fc.property(pairSeeds, (seed) => {
        const pair = pairOf(seed);
        const result = runNegotiation(pair.borrower, pair.lender);
        const zone = yardsticks(result.setup) !== null;
        expect(result.outcome === 'agreed').toBe(zone);
        if (result.terms && result.setup.priced) {
          const { trueCost } = worth(result.setup.priced, { terms: result.terms, product: result.product });
          expect(trueCost).toBeLessThanOrEqual(result.setup.borrower.reservation + 1e-6);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('every automated move records its rule and figures; the lender never moves back; the deal carries its product', () => {
    fc.assert(
      fc.property(pairSeeds, fc.boolean(), (seed, introduced) => {
        const pair = pairOf(seed);
        const result = runNegotiation(pair.borrower, pair.lender, undefined, { brokerAgentId: introduced ? 9 : null });
        const moves = result.events.filter(
          (e): e is EventOf<'OfferMade'> | EventOf<'OfferAccepted'> => e.type === 'OfferMade' || e.type === 'OfferAccepted',
        );
        for (const move of moves) {
          expect(move.data.reason?.rule.length).toBeGreaterThan(0);
          expect(Object.values(move.data.reason?.figures ?? {}).every(Number.isFinite)).toBe(true);
        }
        const priced = result.setup.priced;
        if (priced) {
          const given = result.events
            .filter((e): e is EventOf<'OfferMade'> => e.type === 'OfferMade' && e.data.fromAgentId === pair.lender.agentId)
            .map((e) => worth(priced, { terms: e.data.terms, product: e.data.product ?? null }).given);
          expect(given).toEqual([...given].sort((a, b) => a - b));
        }
        const deal = result.events.find((e): e is EventOf<'DealAgreed'> => e.type === 'DealAgreed');
        if (deal) {
          expect(deal.data.product?.productId).toBe(result.product?.productId);
          const percent = pair.lender.range?.procurationFeePercent ?? 0;
          if (introduced) expect(deal.data.procurationFee).toBe(Math.round((deal.data.loanAmount * percent) / 100));
          else expect(deal.data.procurationFee).toBeUndefined();
        }
      }),
      { numRuns: RUNS / 2 },
    );
  });
});
