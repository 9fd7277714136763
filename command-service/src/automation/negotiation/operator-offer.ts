/**
 * An operator's manual message read as their side's offer ("we can do 4.1% with a £500 fee"): the figures it
 * states (read-offer.ts), completed from that side's last offer (else the other side's, else the case at list
 * price). The figures typed are recorded exactly; only those not typed are completed.
 */
import { offerOnTheTable, type EventOf, type LoanTerms } from '@pf/events';
import { readOffer, type OfferReading } from './read-offer';
import { ladder, termsAt } from './pricing';
import { otherSide } from './setup';
import { latestOf, sideOf, type NegotiationState } from './state';

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
  const base = latestOf(state, side)?.terms ?? latestOf(state, otherSide(side))?.terms ?? listTerms(state);
  if (!base && Object.keys(stated).length < 4)
    return { kind: 'unclear', reason: 'it does not state the loan, the rate, the term and the fee' };
  const pending = offerOnTheTable(state.book);
  return {
    kind: 'offer',
    stated,
    offer: {
      conversationId: state.conversationId,
      round: state.book.offers.length,
      fromAgentId: message.fromAgentId,
      toAgentId: state.setup[otherSide(side)].agentId,
      terms: { ...base, ...stated } as LoanTerms,
      rejectOfferId: pending && pending.fromAgentId !== message.fromAgentId ? pending.offerId : null,
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

function listTerms(state: NegotiationState): LoanTerms | null {
  const priced = state.setup.priced;
  const opening = priced ? ladder(priced)[0] : undefined;
  return priced && opening ? termsAt(priced, opening) : null;
}
