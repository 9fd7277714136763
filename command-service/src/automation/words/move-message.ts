/**
 * The words for a negotiator's or broker's move, in the conversation's current state: the bridge from engine
 * decisions (negotiation/) to message text, mentioning unreadable criteria in an agent's first message only.
 */
import { apartWords } from '../negotiation/move-events';
import type { Move } from '../negotiation/next-move';
import type { BrokerMove } from '../negotiation/broker-move';
import type { LoanTerms } from '@pf/events';
import { hasSpoken, offersBy, type NegotiationState } from '../negotiation/state';
import { otherSide, type Side } from '../negotiation/terms-space';
import { utility } from '../negotiation/utility';
import type { Rng } from '../rng';
import { composeMessage, type MessageIntent } from './phrases';

export function messageForMove(state: NegotiationState, side: Side, move: Move, rng: Rng): string | null {
  const profile = state.setup[side];
  const propertyValue = state.setup.propertyValue;
  const intent: MessageIntent | null =
    move.kind === 'offer'
      ? {
          kind: state.offers.length === 0 ? 'offer' : 'counter',
          side,
          terms: move.terms,
          propertyValue,
          ...movement(state, side, move.terms),
        }
      : move.kind === 'counter'
        ? { kind: 'counter', side, terms: move.terms, propertyValue, ...movement(state, side, move.terms) }
        : move.kind === 'accept'
          ? { kind: 'accept', side, terms: move.terms, propertyValue }
          : move.kind === 'walk-away'
            ? move.reason === 'no-common-terms'
              ? { kind: 'walk-away', side, apart: apartWords(move.apart) }
              : { kind: 'walk-away', side }
            : null;
  if (!intent) return null;
  const firstTime = !hasSpoken(state, profile.agentId);
  // An agent that has not spoken yet opens with an offer, even when it answers one, and then says hello.
  const opening = firstTime && intent.kind === 'counter' ? { ...intent, kind: 'offer' as const } : intent;
  return composeMessage(opening, rng, firstTime ? profile.unreadable : []);
}

/** Whether the other side's last offer came closer (for this side) than their one before, and whether this one concedes. */
function movement(state: NegotiationState, side: Side, terms: LoanTerms): { theyMovedCloser: boolean; iMoved: boolean } {
  const me = state.setup[side];
  const theirs = offersBy(state, otherSide(side));
  const mine = offersBy(state, side);
  const theyMovedCloser = theirs.length >= 2 && utility(me, theirs.at(-1)!) > utility(me, theirs.at(-2)!) + 1e-9;
  const iMoved = mine.length >= 1 && utility(me, terms) < utility(me, mine.at(-1)!) - 1e-9;
  return { theyMovedCloser, iMoved };
}

export function messageForBroker(state: NegotiationState, move: BrokerMove, names: { borrower: string; lender: string }, rng: Rng): string {
  const propertyValue = state.setup.propertyValue;
  return move.kind === 'introduce'
    ? composeMessage({ kind: 'introduce', borrowerName: names.borrower, lenderName: names.lender, propertyValue }, rng)
    : composeMessage({ kind: 'suggest', terms: move.terms, propertyValue }, rng);
}
