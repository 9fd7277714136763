import {
  offerTermsProblem,
  offerBookOf,
  offerFigures,
  offerOnTheTable,
  standingOfferOf,
  type AgentType,
  type BookedOffer,
  type BorrowerNeeds,
  type LoanTerms,
  type OfferBookEvent,
  type OfferedProduct,
  type OfferFigures,
} from '@pf/events';

/**
 * A conversation as people read it (docs/behaviour/transcripts.md): the thread's messages, word for word, in order with
 * the offers, acceptances and rejections they came with, and the borrower's needs as recorded when it started.
 * Built from what a console reads (the API's messages and the conversation's history), never from an engine's state.
 */
export interface Transcript {
  /** Where it was read: "seed 1001", "tournament pair 17". */
  readonly source: string;
  readonly conversationId: number;
  readonly participants: readonly { agentId: number; type: AgentType; name: string }[];
  /** The borrower's needs when the conversation started; null when it recorded none (older agents, or criteria only). */
  readonly needs: BorrowerNeeds | null;
  readonly entries: readonly Entry[];
}

export type Entry =
  | {
      kind: 'message';
      agentId: number;
      text: string;
      /** Its agent's words, not a person's typing. */
      automated: boolean;
      /** The platform's note on how a person's message was read: not the side speaking. */
      reading: boolean;
    }
  | { kind: 'offer'; offerId: string; agentId: number; terms: LoanTerms; product: OfferedProduct | null; byPerson: boolean }
  | { kind: 'accepted'; offerId: string; agentId: number; terms: LoanTerms }
  | { kind: 'rejected'; offerId: string; agentId: number }
  | { kind: 'completed'; outcome: string };

type MessageEntry = Extract<Entry, { kind: 'message' }>;
type OfferEntry = Extract<Entry, { kind: 'offer' }>;

/**
 * One side's turn as the thread shows it: what it said (if anything) and the move that came with the words, with
 * the offers as they stood just before (folded by the one offer book, events/src/offers).
 */
export interface Turn {
  readonly index: number;
  readonly agentId: number;
  readonly side: AgentType | null;
  readonly message: MessageEntry | null;
  readonly offer: OfferEntry | null;
  /** The offer this turn accepted, as it was made. */
  readonly accepted: BookedOffer | null;
  /** The offers this turn rejected, as they were made. */
  readonly rejected: readonly BookedOffer[];
  /** The offer on the table before the turn: the one it answers. */
  readonly answers: BookedOffer | null;
  /** The speaker's own standing offer before the turn. */
  readonly standing: BookedOffer | null;
  /** The speaker's own latest offer before the turn, whatever became of it. */
  readonly previous: BookedOffer | null;
}

const asBookEvent = (entry: Entry): OfferBookEvent | null => {
  switch (entry.kind) {
    case 'offer':
      return {
        type: 'OfferMade',
        data: {
          offerId: entry.offerId,
          round: 0,
          fromAgentId: entry.agentId,
          toAgentId: 0,
          terms: entry.terms,
          product: entry.product ?? undefined,
          byPerson: entry.byPerson ? true : undefined,
        },
      };
    case 'accepted':
      return { type: 'OfferAccepted', data: { offerId: entry.offerId } };
    case 'rejected':
      return { type: 'OfferRejected', data: { offerId: entry.offerId } };
    default:
      return null;
  }
};

const agentOf = (entry: Entry): number | null => (entry.kind === 'completed' ? null : entry.agentId);

/**
 * The turns of a transcript: an agent's words and the moves that follow them from the same side (the negotiator
 * writes the message, then its move, in one append), or a move made without words. A reading note is the
 * platform's, so it belongs to no turn.
 */
export function turnsOf(transcript: Transcript): Turn[] {
  const turns: Turn[] = [];
  const before: OfferBookEvent[] = [];
  const entries = transcript.entries.filter((entry) => !(entry.kind === 'message' && entry.reading));
  let at = 0;
  while (at < entries.length) {
    const first = entries[at]!;
    const agentId = agentOf(first);
    if (agentId === null) {
      at += 1;
      continue;
    }
    const group: Entry[] = [first];
    at += 1;
    while (at < entries.length && entries[at]!.kind !== 'message' && agentOf(entries[at]!) === agentId) group.push(entries[at++]!);
    const book = offerBookOf(before);
    const previous = [...book.offers].reverse().find((offer) => offer.fromAgentId === agentId) ?? null;
    const byId = (offerId: string) => book.offers.find((offer) => offer.offerId === offerId) ?? null;
    const acceptedId = group.find((entry) => entry.kind === 'accepted')?.offerId;
    turns.push({
      index: turns.length,
      agentId,
      side: transcript.participants.find((p) => p.agentId === agentId)?.type ?? null,
      message: first.kind === 'message' ? first : null,
      offer: group.find((entry): entry is OfferEntry => entry.kind === 'offer') ?? null,
      accepted: acceptedId ? byId(acceptedId) : null,
      rejected: group.flatMap((entry) => (entry.kind === 'rejected' ? [byId(entry.offerId)].filter((o) => o !== null) : [])),
      answers: offerOnTheTable(book),
      standing: standingOfferOf(book, agentId),
      previous,
    });
    for (const entry of group) {
      const event = asBookEvent(entry);
      if (event) before.push(event);
    }
  }
  return turns;
}

const computed = new Map<string, OfferFigures>();

/**
 * offerFigures, remembered: a conversation's offers are compared many times over, and each APRC is a root found by
 * bisection (regulated-figures.md).
 */
export function figuresOf(terms: LoanTerms, product: OfferedProduct | null): OfferFigures {
  const key = JSON.stringify([terms.loanAmount, terms.termYears, terms.interestRate, terms.arrangementFee, product]);
  let figures = computed.get(key);
  if (!figures) {
    if (computed.size > 100_000) computed.clear();
    figures = offerFigures(terms, product);
    computed.set(key, figures);
  }
  return figures;
}

/**
 * What an offer costs the borrower, in pounds, for comparing two offers of one conversation: the true cost over the
 * initial period when both are terms of products with the same initial period (what the borrower bargains in:
 * docs/behaviour/products.md), else the total amount payable (every payment and fee over the term). Only offers of
 * the same loan and term are weighed so (sameLoanAndTerm): another loan or term is not a price but another case.
 */
function costToBorrower(offer: Pick<BookedOffer, 'terms' | 'product'>, other: Pick<BookedOffer, 'product'>): number {
  // An offer recorded without a product (a person's) is costed as terms of the product it is weighed against.
  const product = offer.product ?? other.product;
  const otherProduct = other.product ?? offer.product;
  const figures = figuresOf(offer.terms, product);
  const samePeriod = product && otherProduct && product.initialPeriodMonths === otherProduct.initialPeriodMonths;
  return samePeriod && figures.trueCostOverInitialPeriod !== null ? figures.trueCostOverInitialPeriod : figures.totalAmountPayable;
}

/** Under a penny's difference is no difference. */
const PENNY = 0.005;

/**
 * Whether `a` is better than `b` for the side named (a borrower pays less, a lender is paid more); false for a
 * broker, who has no terms of its own, and when either could not be an offer.
 */
export function betterFor(
  side: AgentType | null,
  a: Pick<BookedOffer, 'terms' | 'product'>,
  b: Pick<BookedOffer, 'terms' | 'product'>,
): boolean {
  // Terms no offer could have (a misread £0 loan) have no cost: neither is better.
  if (offerTermsProblem(a.terms) || offerTermsProblem(b.terms)) return false;
  const difference = costToBorrower(a, b) - costToBorrower(b, a);
  if (side === 'borrower') return difference < -PENNY;
  if (side === 'lender') return difference > PENNY;
  return false;
}

/** The same product, as offered: its line and every term of it (the cashback and whether the fee is added included). */
export const sameProduct = (a: OfferedProduct | null, b: OfferedProduct | null): boolean =>
  a === b || (a !== null && b !== null && JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort()));

export const sameLoanAndTerm = (a: LoanTerms, b: LoanTerms): boolean => a.loanAmount === b.loanAmount && a.termYears === b.termYears;

export const sameTerms = (a: LoanTerms, b: LoanTerms): boolean =>
  a.interestRate === b.interestRate &&
  a.termYears === b.termYears &&
  a.loanAmount === b.loanAmount &&
  a.arrangementFee === b.arrangementFee;
