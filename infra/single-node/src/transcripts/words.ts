/**
 * How the agents' words are read (docs/behaviour/negotiation.md, "What the agents say"): the one way an offer is
 * quoted, and the phrasing of each move. A reader of the thread, not a copy of the words' templates: it takes the
 * text apart into what a person would understand from it.
 */

/** An offer as a message quotes it: "{product}, a {N}-year {fixed rate | tracker}, on {loan} over {term}: {rate}, {fee}[, {cashback}], {payment} a month, APRC {APRC}". */
export interface QuotedOffer {
  readonly productName: string;
  readonly initialPeriodMonths: number;
  readonly type: 'fixed' | 'tracker';
  readonly loanAmount: number;
  readonly termYears: number;
  readonly interestRate: number;
  readonly arrangementFee: number;
  readonly feeAddedToLoan: boolean;
  readonly cashbackPounds: number;
  readonly monthlyPayment: number;
  readonly aprc: number;
}

const POUNDS = String.raw`£\d{1,3}(?:,\d{3})*`;
const QUOTE = new RegExp(
  String.raw`^(?<name>[^:]+?), an? (?<period>\d+)-(?<unit>year|month) (?<type>fixed rate|tracker), on (?<loan>${POUNDS}) over (?<term>\d+) years?: ` +
    String.raw`(?<rate>\d+\.\d{2})%, (?<fee>no fee|fee (?<feePounds>${POUNDS})(?<added> added to the loan)?)(?:, (?<cashback>${POUNDS}) cashback)?, ` +
    String.raw`(?<payment>${POUNDS}\.\d{2}) a month, APRC (?<aprc>\d+(?:\.\d)?)%`,
);

const readPounds = (text: string): number => Number(text.replace(/[£,]/g, ''));

/** `text` read as a quoted offer, whole (the `{offer}` of a phrasing), or null when it is not one. */
function quotedOffer(text: string): QuotedOffer | null {
  const groups = QUOTE.exec(text)?.groups;
  if (!groups) return null;
  return {
    productName: groups.name!.trim(),
    initialPeriodMonths: Number(groups.period) * (groups.unit === 'year' ? 12 : 1),
    type: groups.type === 'tracker' ? 'tracker' : 'fixed',
    loanAmount: readPounds(groups.loan!),
    termYears: Number(groups.term),
    interestRate: Number(groups.rate),
    arrangementFee: groups.feePounds ? readPounds(groups.feePounds) : 0,
    feeAddedToLoan: groups.added !== undefined,
    cashbackPounds: groups.cashback ? readPounds(groups.cashback) : 0,
    monthlyPayment: readPounds(groups.payment!),
    aprc: Number(groups.aprc),
  };
}

/** Every "£… a month" and "APRC …%" a text states, wherever it stands, quoted offer or not. */
export function statedFigures(text: string): { payments: number[]; aprcs: number[] } {
  const payments = [...text.matchAll(new RegExp(String.raw`(${POUNDS}(?:\.\d{2})?) (?:a|per|each) month`, 'g'))].map((m) =>
    readPounds(m[1]!),
  );
  const aprcs = [
    ...[...text.matchAll(/APRC(?: of| is)? (\d+(?:\.\d+)?)%/g)].map((m) => Number(m[1])),
    ...[...text.matchAll(/(\d+(?:\.\d+)?)% APRC/g)].map((m) => Number(m[1])),
  ];
  return { payments, aprcs };
}

/**
 * What a move's words claim (the table of phrasings): a concession gives the other side more than the speaker's
 * previous offer, "the same" repeats it, "away" gives them less; a refusal says the offer answered is worse for the
 * speaker than its own.
 */
export type Claim =
  | 'opening'
  | 'first-answer'
  | 'concession'
  | 'same'
  | 'away'
  | 'refusal-same'
  | 'refusal-concession'
  | 'refusal'
  | 'acceptance'
  | 'middle-ground';

const OFFER = '(?<offer>.+)';
const PHRASINGS: Record<'lender' | 'borrower' | 'broker', readonly [Claim, RegExp][]> = {
  lender: [
    ['opening', new RegExp(`^Hello\\. For this case our price is ${OFFER}\\.$`)],
    ['concession', new RegExp(`^Thanks\\. We can move to ${OFFER}\\.$`)],
    ['same', new RegExp(`^Our offer stays at ${OFFER}\\.$`)],
    ['away', new RegExp(`^Our offer is now ${OFFER}\\.$`)],
    ['refusal-same', new RegExp(`^We can't do that\\. Our offer stays at ${OFFER}\\.$`)],
    ['refusal-concession', new RegExp(`^We can't do that, but we can move to ${OFFER}\\.$`)],
    ['acceptance', new RegExp(`^We're happy to agree: ${OFFER}\\.$`)],
  ],
  borrower: [
    ['opening', new RegExp(`^Hello\\. I'm looking at .+?\\. Could you do ${OFFER}\\?$`)],
    ['first-answer', new RegExp(`^Thank you\\. Could you do ${OFFER}\\?$`)],
    ['concession', new RegExp(`^I can move to ${OFFER}\\.$`)],
    ['same', new RegExp(`^I'd still need ${OFFER}\\.$`)],
    ['away', new RegExp(`^I now need ${OFFER}\\.$`)],
    ['refusal', new RegExp(`^I'm sorry, that's more than I can manage\\. Could you do ${OFFER}\\?$`)],
    ['acceptance', new RegExp(`^Agreed: ${OFFER}\\.$`)],
  ],
  broker: [['middle-ground', new RegExp(`^You're not far apart\\. Would ${OFFER} work for you both\\?$`)]],
};

/**
 * A message of a side read as the docs phrase moves: the move its words make and the offer they quote; both null when
 * the words are none of the phrasings.
 */
export function readWords(side: 'lender' | 'borrower' | 'broker', text: string): { claim: Claim | null; quote: QuotedOffer | null } {
  for (const [claim, pattern] of PHRASINGS[side]) {
    const offer = pattern.exec(text)?.groups?.offer;
    if (offer !== undefined) return { claim, quote: quotedOffer(offer) };
  }
  return { claim: null, quote: null };
}

export const claimOf = (side: 'lender' | 'borrower' | 'broker', text: string): Claim | null => readWords(side, text).claim;

/** Words that refuse or concede, however phrased: such words must always be one of the phrasings above. */
export const REFUSING = /can't do that|can't quite do that|more than I can manage|not quite there/i;
export const CONCEDING = /move to|looked again|I could go to|come down|improve/i;

export const isRefusal = (claim: Claim | null): boolean =>
  claim === 'refusal' || claim === 'refusal-same' || claim === 'refusal-concession';
export const isConcession = (claim: Claim | null): boolean => claim === 'concession' || claim === 'refusal-concession';
