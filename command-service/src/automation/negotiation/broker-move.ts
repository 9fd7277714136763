/**
 * What the broker says, when one introduced the parties: it introduces them before the first offer and, once
 * half the rounds have gone without agreement, suggests a middle ground between the last two offers (a point
 * inside both parties' limits, computed here so that every number it states comes from the engine).
 */
import type { LoanTerms } from '@pf/events';
import type { NegotiationSettings } from './next-move';
import { agreementSpace } from './setup';
import type { NegotiationState } from './state';
import { clamp, mapIssues, snapFavouring, type Side } from './terms-space';

export type BrokerMove = { kind: 'introduce' } | { kind: 'suggest'; terms: LoanTerms };

export function brokerMove(state: NegotiationState, settings: NegotiationSettings): BrokerMove | null {
  const brokerId = state.setup.brokerAgentId;
  if (brokerId === null || state.status !== 'negotiating' || state.isManualMode) return null;
  const spoken = state.messagesSent[brokerId] ?? 0;
  if (spoken === 0) return state.offers.length === 0 ? { kind: 'introduce' } : null;
  if (spoken > 1 || state.offers.length < Math.floor(settings.deadlineRounds / 2)) return null;
  const [previous, last] = state.offers.slice(-2);
  const space = agreementSpace(state.setup);
  if (!previous || !last || previous.side === last.side || !space) return null;
  // Rounded towards whoever made the last offer, so the suggestion asks the other side to move a little more.
  const favoured: Side = last.side;
  return {
    kind: 'suggest',
    terms: mapIssues((issue) =>
      snapFavouring(issue, clamp((previous.terms[issue] + last.terms[issue]) / 2, space[issue]), favoured, space[issue]),
    ),
  };
}
