/**
 * An operator's manual message read as their side's offer ("we can do 4.1% over 25 years"): the figures it
 * states, completed from that side's last offer (else the other side's, else the middle of the agreement space).
 */
import { readMoney, type EventOf, type LoanTerms } from '@pf/events';
import { agreementSpace } from './setup';
import { offersBy, sideOf, type NegotiationState } from './state';
import { mapIssues, otherSide, snapInward } from './terms-space';

const RATE = /(\d+(?:\.\d+)?)\s*(?:%|per\s?cent)/i;
const TERM = /(\d+)\s*-?\s*(?:years?|yrs?)\b/i;
const CLAUSE = /[,;!?]|\.(?!\d)|\bwith\b|\band\b|\bplus\b/i;
const MONEY = /£\s?\d[\d,]*(?:\.\d+)?\s*(?:k|m|million)?\b|\b\d+(?:\.\d+)?\s*(?:k|m)\b/gi;

export function readOfferFromText(text: string): Partial<LoanTerms> {
  const terms: Partial<LoanTerms> = {};
  const rate = RATE.exec(text);
  if (rate?.[1]) terms.interestRate = Number(rate[1]);
  const term = TERM.exec(text);
  if (term?.[1]) terms.termYears = Number(term[1]);
  // An amount in the same clause as "fee" is the arrangement fee; any other amount is the loan.
  for (const clause of text.split(CLAUSE)) {
    for (const match of clause.matchAll(MONEY)) {
      const amount = readMoney(match[0].trim());
      if (amount === null) continue;
      if (/fee/i.test(clause)) terms.arrangementFee ??= amount;
      else terms.loanAmount ??= amount;
    }
  }
  return terms;
}

export type OperatorOffer = Omit<EventOf<'OfferMade'>['data'], 'offerId'> & { rejectOfferId: string | null };

/**
 * The OfferMade (and OfferRejected of the offer it answers) to append for an operator's message, or null when it
 * states no terms, the sender is not a negotiating party, or the negotiation is over.
 */
export function offerFromOperatorMessage(
  state: NegotiationState,
  message: EventOf<'MessageSent'>['data'],
): OperatorOffer | null {
  const side = sideOf(state, message.fromAgentId);
  if (!side || message.isAutomated || state.status !== 'negotiating') return null;
  const stated = readOfferFromText(message.content);
  if (Object.keys(stated).length === 0) return null;
  const base = offersBy(state, side).at(-1) ?? offersBy(state, otherSide(side)).at(-1) ?? middle(state);
  const pending = state.offers.at(-1);
  return {
    conversationId: state.conversationId,
    round: state.offers.length,
    fromAgentId: message.fromAgentId,
    toAgentId: state.setup[otherSide(side)].agentId,
    terms: { ...base, ...stated },
    rejectOfferId: pending && pending.status === 'open' && pending.side !== side ? pending.offerId : null,
  };
}

function middle(state: NegotiationState): LoanTerms {
  const space = agreementSpace(state.setup) ?? state.setup.borrower.limits;
  return mapIssues((issue) => {
    const { lo, hi } = snapInward(issue, space[issue]);
    return snapInward(issue, { lo: (lo + hi) / 2, hi: Number.POSITIVE_INFINITY }).lo;
  });
}
