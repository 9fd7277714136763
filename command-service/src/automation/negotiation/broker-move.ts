/**
 * What the broker says, when one introduced the parties: it introduces them before the first offer and, once
 * half the rounds have gone without agreement, suggests a middle ground between the last two offers: the point of
 * the lender's price ladder halfway between them in margin, so it lies inside the lender's discretion and the
 * borrower's fee cap, and every number it states comes from the engine.
 */
import type { LoanTerms, OfferedProduct } from '@pf/events';
import type { NegotiationSettings } from './next-move';
import { worth } from './offer-strategy';
import { ladder, marginGiven, outsideLimits, productAt, termsAt } from './pricing';
import type { NegotiationState } from './state';

export type BrokerMove = { kind: 'introduce' } | { kind: 'suggest'; terms: LoanTerms; product: OfferedProduct };

export function brokerMove(state: NegotiationState, settings: NegotiationSettings): BrokerMove | null {
  const brokerId = state.setup.brokerAgentId;
  if (brokerId === null || state.status !== 'negotiating' || state.isManualMode) return null;
  const spoken = state.messagesSent[brokerId] ?? 0;
  const offers = state.book.offers;
  if (spoken === 0) return offers.length === 0 ? { kind: 'introduce' } : null;
  if (spoken > 1 || offers.length < Math.floor(settings.deadlineRounds / 2)) return null;
  const [previous, last] = offers.slice(-2);
  const priced = state.setup.priced;
  if (!previous || !last || previous.fromAgentId === last.fromAgentId || !priced) return null;
  if ([previous, last].some((offer) => outsideLimits(priced, offer.terms, offer.product) !== null)) return null;
  const middle = (worth(priced, previous).given + worth(priced, last).given) / 2;
  // The ladder point nearest the middle, on the side of whoever made the last offer, so the other is asked to move.
  const lastIsLender = last.fromAgentId === state.setup.lender.agentId;
  const points = ladder(priced);
  const below = points.filter((point) => marginGiven(priced, point) <= middle + 1e-6).at(-1) ?? points[0]!;
  const above = points.find((point) => marginGiven(priced, point) >= middle - 1e-6) ?? points.at(-1)!;
  const point = lastIsLender ? below : above;
  return { kind: 'suggest', terms: termsAt(priced, point), product: productAt(priced, point) };
}
