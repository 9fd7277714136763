/**
 * A whole negotiation in memory, built from the same functions a process manager uses (nextMove, moveIntent, the
 * conversation's decideAgentMove, evolveNegotiation): for tests, the bench and replaying "what would the agents do".
 */
import type { DomainEvent, LoanTerms, OfferedProduct } from '@pf/events';
import { decidedMoveEvents } from './move-intent';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn, type Move, type NegotiationSettings } from './next-move';
import { negotiationSetup, type BorrowerInput, type LenderInput, type Market, DEFAULT_MARKET, type NegotiationSetup } from './setup';
import { evolveNegotiation, initialNegotiationState, type NegotiationState } from './state';

export interface NegotiationResult {
  outcome: 'agreed' | 'no_agreement';
  /** Offers made. */
  rounds: number;
  terms: LoanTerms | null;
  product: OfferedProduct | null;
  setup: NegotiationSetup;
  events: DomainEvent[];
  /** The state before each move, with the side that moved and its move (for checking words against moves). */
  steps: Array<{ state: NegotiationState; side: 'borrower' | 'lender'; move: Move; events: DomainEvent[] }>;
}

export function runNegotiation(
  borrower: BorrowerInput,
  lender: LenderInput,
  settings: NegotiationSettings = DEFAULT_NEGOTIATION_SETTINGS,
  options: { brokerAgentId?: number | null; market?: Market } = {},
): NegotiationResult {
  const setup = negotiationSetup(borrower, lender, options.brokerAgentId ?? null, options.market ?? DEFAULT_MARKET);
  return runFrom(initialNegotiationState(1, setup), settings);
}

/** Plays a negotiation on from `start` (its setup made elsewhere, e.g. by the bench). */
export function runFrom(start: NegotiationState, settings: NegotiationSettings = DEFAULT_NEGOTIATION_SETTINGS): NegotiationResult {
  let state = start;
  const events: DomainEvent[] = [];
  const steps: NegotiationResult['steps'] = [];
  // Each turn adds an offer or ends the negotiation, so this bound is never the reason it stops.
  for (let turn = 0; turn <= settings.deadlineRounds + 1; turn += 1) {
    const side = whoseTurn(state, settings);
    if (!side) break;
    const move = nextMove(state, side, settings);
    const produced = decidedMoveEvents(state, side, move, { offerId: `offer-${turn}`, dealId: 'deal-1' });
    steps.push({ state, side, move, events: produced });
    for (const event of produced) state = evolveNegotiation(state, event);
    events.push(...produced);
  }
  return {
    outcome: state.status === 'agreed' ? 'agreed' : 'no_agreement',
    rounds: state.book.offers.length,
    terms: state.agreed?.terms ?? null,
    product: state.agreed?.product ?? null,
    setup: state.setup,
    events,
    steps,
  };
}
