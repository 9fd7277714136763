/**
 * The words for a negotiator's or broker's move, in the conversation's current state: the bridge from engine
 * decisions (negotiation/) to message text. Whether an offer is a concession, the same terms or a move away, and
 * whether the offer it answers is refused, are judged here from the engine's own values, so the words agree with
 * the move (docs/behaviour/negotiation.md, "What the agents say").
 */
import { pounds, type BookedOffer, type LoanTerms, type OfferedProduct } from '@pf/events';
import type { BrokerMove } from '../negotiation/broker-move';
import type { Move } from '../negotiation/next-move';
import { worth } from '../negotiation/offer-strategy';
import { outsideLimits, pointOf, productAt, type PricedCase } from '../negotiation/pricing';
import type { Side } from '../negotiation/setup';
import { latestOf, offerToAnswer, type NegotiationState } from '../negotiation/state';
import type { Rng } from '../rng';
import { describeQuote } from './format';
import { composeMessage, type MessageIntent, type Movement } from './phrases';

export function messageForMove(state: NegotiationState, side: Side, move: Move, rng: Rng): string | null {
  const intent = intentFor(state, side, move);
  return intent ? composeMessage(intent, rng) : null;
}

function intentFor(state: NegotiationState, side: Side, move: Move): MessageIntent | null {
  const priced = state.setup.priced;
  switch (move.kind) {
    case 'wait':
      return null;
    case 'walk-away':
      return move.reason === 'no-product'
        ? { kind: 'walk-away', side, reason: 'no-product', detail: move.detail }
        : { kind: 'walk-away', side, reason: move.reason };
    case 'accept':
      return { kind: 'accept', side, quote: quoteOf(priced, move.terms, move.product) };
    case 'offer':
    case 'counter': {
      const quote = describeQuote(move.terms, move.product);
      const previous = latestOf(state, side);
      if (!previous || !priced) {
        return { kind: 'open', side, quote, productName: move.product.name, answering: offerToAnswer(state, side) !== null };
      }
      const movement = movementOf(priced, side, previous, move);
      const pending = offerToAnswer(state, side);
      return {
        kind: 'counter',
        side,
        quote,
        movement,
        refusal: pending !== null && refuses(state, priced, side, pending, [previous, move]),
      };
    }
    default: {
      const unknown: never = move;
      return unknown;
    }
  }
}

/** The new offer against the speaker's own previous one, as the other side values them. */
function movementOf(
  priced: PricedCase,
  side: Side,
  previous: BookedOffer,
  next: { terms: LoanTerms; product: OfferedProduct },
): Exclude<Movement, 'first'> {
  const before = worth(priced, previous);
  const after = worth(priced, next);
  const gain = side === 'lender' ? after.given - before.given : after.trueCost - before.trueCost;
  return gain > 1e-6 ? 'conceded' : gain < -1e-6 ? 'firmer' : 'held';
}

/**
 * A refusal answers an offer worse for the speaker than its own latest and than the offer it makes instead, and one it
 * will never accept. An offer of another loan or term (a person may type one) is not weighed against the case's: it
 * is answered without refusing words.
 */
function refuses(
  state: NegotiationState,
  priced: PricedCase,
  side: Side,
  pending: BookedOffer,
  own: ReadonlyArray<Pick<BookedOffer, 'terms' | 'product'>>,
): boolean {
  const { loanAmount, termYears } = priced.needs;
  if (pending.terms.loanAmount !== loanAmount || pending.terms.termYears !== termYears) return false;
  const theirs = worth(priced, pending);
  const worse = own.every((offer) => {
    const mine = worth(priced, offer);
    return side === 'lender' ? theirs.given > mine.given + 1e-6 : theirs.trueCost > mine.trueCost + 1e-6;
  });
  const never =
    outsideLimits(priced, pending.terms, pending.product) !== null ||
    (side === 'borrower' && theirs.trueCost > state.setup.borrower.reservation + 1e-6);
  return worse && never;
}

/** An accepted offer quoted with its product; a person's offer (recorded without one) is terms of the case's product. */
function quoteOf(priced: PricedCase | null, terms: LoanTerms, product: OfferedProduct | null): string {
  const quoted = product ?? (priced ? productAt(priced, pointOf(priced, terms, null)) : null);
  return quoted ? describeQuote(terms, quoted) : `${pounds(terms.loanAmount)} at ${terms.interestRate}% over ${terms.termYears} years`;
}

export function messageForBroker(state: NegotiationState, move: BrokerMove, names: { borrower: string; lender: string }, rng: Rng): string {
  if (move.kind === 'suggest') return composeMessage({ kind: 'suggest', quote: describeQuote(move.terms, move.product) }, rng);
  const value = state.setup.priced ? pounds(state.setup.priced.needs.propertyValue) : null;
  return composeMessage({ kind: 'introduce', borrowerName: names.borrower, lenderName: names.lender, propertyValue: value }, rng);
}
