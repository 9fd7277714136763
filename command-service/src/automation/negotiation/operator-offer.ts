/**
 * An operator's manual message read as their side's offer ("we can do 4.1% over 25 years"): the figures it
 * states (read-offer.ts), completed from that side's last offer (else the other side's, else the middle of the
 * agreement space). The figures typed are recorded exactly; only those not typed are completed.
 */
import type { EventOf, LoanTerms } from '@pf/events';
import { readOffer, type OfferReading } from './read-offer';
import { agreementSpace } from './setup';
import { offersBy, sideOf, type NegotiationState } from './state';
import { mapIssues, otherSide, snapInward } from './terms-space';

export { describeOffer } from './read-offer';

/** The figures a text states ({} when it states none or cannot be read without guessing). */
export function readOfferFromText(text: string): Partial<LoanTerms> {
  const reading = readOffer(text);
  return reading.kind === 'offer' ? reading.terms : {};
}

export type OperatorOffer = Omit<EventOf<'OfferMade'>['data'], 'offerId'> & { rejectOfferId: string | null };

/** What an operator's message amounts to: an offer with its full terms, chat, or unclear (with the reason). */
export type OperatorReading =
  { kind: 'offer'; offer: OperatorOffer; stated: Partial<LoanTerms> } | Exclude<OfferReading, { kind: 'offer' }>;

export function readOperatorMessage(state: NegotiationState, message: EventOf<'MessageSent'>['data']): OperatorReading | null {
  const side = sideOf(state, message.fromAgentId);
  if (!side || message.isAutomated || state.status !== 'negotiating') return null;
  const reading = readOffer(message.content);
  if (reading.kind !== 'offer') return reading;
  const stated = reading.terms;
  const base = offersBy(state, side).at(-1) ?? offersBy(state, otherSide(side)).at(-1) ?? middle(state);
  const pending = state.offers.at(-1);
  return {
    kind: 'offer',
    stated,
    offer: {
      conversationId: state.conversationId,
      round: state.offers.length,
      fromAgentId: message.fromAgentId,
      toAgentId: state.setup[otherSide(side)].agentId,
      terms: { ...base, ...stated },
      rejectOfferId: pending && pending.status === 'open' && pending.side !== side ? pending.offerId : null,
    },
  };
}

/**
 * The OfferMade (and OfferRejected of the offer it answers) to append for an operator's message, or null when it
 * states no terms, the sender is not a negotiating party, or the negotiation is over.
 */
export function offerFromOperatorMessage(state: NegotiationState, message: EventOf<'MessageSent'>['data']): OperatorOffer | null {
  const reading = readOperatorMessage(state, message);
  return reading?.kind === 'offer' ? reading.offer : null;
}

function middle(state: NegotiationState): LoanTerms {
  const space = agreementSpace(state.setup) ?? state.setup.borrower.limits;
  return mapIssues((issue) => {
    const { lo, hi } = snapInward(issue, space[issue]);
    return snapInward(issue, { lo: (lo + hi) / 2, hi: Number.POSITIVE_INFINITY }).lo;
  });
}
