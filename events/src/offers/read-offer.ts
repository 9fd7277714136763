/**
 * How a person's free text is read as an offer (docs/decisions/one-commitment-per-need.md, "Operators' offers").
 * Every British way of writing money reads as what it says ("£315,000", "£315k", "£0.315m", "315,000",
 * "£1.2 million"); the clauses are cut at words and at punctuation, never inside a number's thousands commas;
 * and text that cannot be read without guessing (two loans, a malformed amount) is not an offer, with the reason.
 */
import { plural, pounds } from '../format/money';
import { ratePercent } from '../format/rates';
import type { LoanTerms } from '../negotiation';

const years = (value: number) => plural(value, 'year');

export type OfferReading = { kind: 'offer'; terms: Partial<LoanTerms> } | { kind: 'chat' } | { kind: 'unclear'; reason: string };

const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, million: 1e6, bn: 1e9, billion: 1e9 };
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+`;
const MULTIPLIER = String.raw`k|thousand|mn|million|m|bn|billion`;
/** One figure: a rate, a term, or an amount (with £, with a multiplier, with thousands commas, or bare). */
const FIGURE = new RegExp(
  [
    String.raw`(?<rate>\d+(?:\.\d+)?|\.\d+)\s*(?:%|per\s?cent\b)`,
    String.raw`(?<term>\d+)\s*-?\s*(?:years?|yrs?)\b`,
    String.raw`(?<pound>£)\s?(?<pn>${NUMBER})(?:\s*(?<pm>${MULTIPLIER})\b)?`,
    String.raw`(?<mn>${NUMBER})\s*(?<mm>${MULTIPLIER})\b`,
    String.raw`(?<bare>${NUMBER})`,
  ].join('|'),
  'gi',
);
/** Clauses end at punctuation (a comma only when it is not a thousands separator) and at joining words. */
const CLAUSE = /[;!?]|\.(?!\d)|,(?!\d{3}(?!\d))|\b(?:with|and|plus|but|on|for|at)\b/i;
/** Thousands commas that are not groups of three ("£31,50", "£3,1000"): a guess either way. */
const MALFORMED = /\d,(?:\d{1,2}(?!\d)|\d{4,})/;
const FEE = /\bfees?\b/i;
const PROPERTY = /\b(?:property|properties|value|valued|worth|price|priced|purchase|house|home|flat|deposit|income|salary|rent)\b/i;

interface Amount {
  value: number;
  /** Written so that it can only be money: with £, a multiplier or thousands commas. */
  marked: boolean;
}

function amountOf(groups: Record<string, string | undefined>): Amount | null {
  const digits = groups.pn ?? groups.mn ?? groups.bare;
  if (digits === undefined) return null;
  const multiplier = groups.pm ?? groups.mm;
  const value = Number(digits.replace(/,/g, '')) * (multiplier ? MULTIPLIERS[multiplier.toLowerCase()]! : 1);
  if (!Number.isFinite(value)) return null;
  return { value: Math.round(value), marked: groups.pound !== undefined || multiplier !== undefined || digits.includes(',') };
}

export function readOffer(text: string): OfferReading {
  const malformed = /\S*\d,\d[\d,]*/.exec(text)?.[0];
  if (MALFORMED.test(text)) return { kind: 'unclear', reason: `"${malformed ?? text}" has its thousands commas out of place` };
  const rates = new Set<number>();
  const terms = new Set<number>();
  const loans = new Set<number>();
  const fees = new Set<number>();
  for (const clause of text.split(CLAUSE)) {
    if (!clause) continue;
    const isFee = FEE.test(clause);
    const isProperty = PROPERTY.test(clause);
    for (const match of clause.matchAll(FIGURE)) {
      const groups = match.groups ?? {};
      if (groups.rate !== undefined) rates.add(Number(groups.rate));
      else if (groups.term !== undefined) terms.add(Number(groups.term));
      else {
        const amount = amountOf(groups);
        if (!amount) continue;
        if (isFee) fees.add(amount.value);
        // A bare small number ("maybe 25", "in 2026") is no amount; a figure about the property is not a term.
        else if (!isProperty && (amount.marked || amount.value >= 10_000)) loans.add(amount.value);
      }
    }
  }
  const two = (what: string, values: Set<number>, format: (n: number) => string) =>
    values.size > 1 ? `it names ${[...values].map(format).join(' and ')} as the ${what}` : null;
  const clash = two('loan', loans, pounds) ?? two('fee', fees, pounds) ?? two('rate', rates, ratePercent) ?? two('term', terms, years);
  if (clash) return { kind: 'unclear', reason: clash };
  const read: Partial<LoanTerms> = {};
  const only = (values: Set<number>) => values.values().next().value;
  if (rates.size) read.interestRate = only(rates)!;
  if (terms.size) read.termYears = only(terms)!;
  if (loans.size) read.loanAmount = only(loans)!;
  if (fees.size) read.arrangementFee = only(fees)!;
  return Object.keys(read).length === 0 ? { kind: 'chat' } : { kind: 'offer', terms: read };
}

/** "£315,000 at 4.35% over 25 years, £999 fee": the figures an offer records, in the thread's words. */
export function describeOffer(terms: LoanTerms): string {
  return `${pounds(terms.loanAmount)} at ${ratePercent(terms.interestRate)} over ${years(terms.termYears)}, ${pounds(terms.arrangementFee)} fee`;
}
