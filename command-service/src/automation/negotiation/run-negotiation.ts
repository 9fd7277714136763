/**
 * A whole negotiation in memory, built from the same functions a process manager uses (nextMove, moveEvents,
 * evolveNegotiation): for tests, the bench and replaying "what would the agents do".
 */
import type { DomainEvent, LoanTerms } from '@pf/events';
import { createRng } from '../rng';
import { moveEvents } from './move-events';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn, type NegotiationSettings } from './next-move';
import { negotiationSetup, type NegotiationSetup, type PartyInput } from './setup';
import { evolveNegotiation, initialNegotiationState } from './state';

export interface NegotiationResult {
  outcome: 'agreed' | 'no_agreement';
  /** Offers made. */
  rounds: number;
  terms: LoanTerms | null;
  setup: NegotiationSetup;
  events: DomainEvent[];
}

export function runNegotiation(
  borrower: PartyInput,
  lender: PartyInput,
  settings: NegotiationSettings = DEFAULT_NEGOTIATION_SETTINGS,
  seed = 1,
): NegotiationResult {
  const rng = createRng(seed);
  let state = initialNegotiationState(1, negotiationSetup(borrower, lender));
  const events: DomainEvent[] = [];
  // Each turn adds an offer or ends the negotiation, so this bound is never the reason it stops.
  for (let turn = 0; turn <= settings.deadlineRounds + 1; turn += 1) {
    const side = whoseTurn(state, settings);
    if (!side) break;
    const move = nextMove(state, side, settings, rng);
    const produced = moveEvents(state, side, move, { offerId: `offer-${turn}`, dealId: 'deal-1' });
    for (const event of produced) state = evolveNegotiation(state, event);
    events.push(...produced);
  }
  return {
    outcome: state.status === 'agreed' ? 'agreed' : 'no_agreement',
    rounds: state.offers.length,
    terms: state.agreed?.terms ?? null,
    setup: state.setup,
    events,
  };
}
