/**
 * The built-in wording: plain British English from the engine's decisions, varied by a seeded Rng so a replay
 * says the same thing. Every figure comes from the intent; templates only arrange it.
 */
import type { CriteriaKey, LoanTerms } from '@pf/events';
import { pick, type Rng } from '../rng';
import type { Side } from '../negotiation/terms-space';
import { describeTerms, formatLtv, formatPounds, formatRate, formatYears } from './format';

export type MessageIntent =
  | { kind: 'offer'; side: Side; terms: LoanTerms; propertyValue: number }
  /**
   * `theyMovedCloser`: the other side's last offer is better for this side than their one before; `iMoved`: this
   * counter concedes something on this side's own last offer. Words that say so are used only when true.
   */
  | { kind: 'counter'; side: Side; terms: LoanTerms; propertyValue: number; theyMovedCloser?: boolean; iMoved?: boolean }
  | { kind: 'accept'; side: Side; terms: LoanTerms; propertyValue: number }
  | { kind: 'walk-away'; side: Side; /** What the limits leave no room on, e.g. "loan amount". */ apart?: string }
  /**
   * A borrower that agreed with another lender leaves this conversation politely. The words name neither that
   * lender nor the deal: the lender here is told the outcome, not the winner (docs/decisions/firms-and-visibility.md).
   */
  | { kind: 'withdraw'; side: Side }
  | { kind: 'introduce'; borrowerName: string; lenderName: string; propertyValue: number }
  | { kind: 'suggest'; terms: LoanTerms; propertyValue: number };

type Fill = { terms: string; loan: string; rate: string; years: string; fee: string; value: string; ltv: string };
type Template = (fill: Fill) => string;

const TEMPLATES: Record<string, Template[]> = {
  'offer:borrower': [
    (f) =>
      `Hello. I'm looking to borrow ${f.loan} against a ${f.value} property (${f.ltv}). I'd like ${f.rate} over ${f.years}, with an arrangement fee of ${f.fee}.`,
    (f) =>
      `Good to meet you. For a ${f.value} property I'm hoping for ${f.loan} at ${f.rate} over ${f.years}, and a fee of no more than ${f.fee}.`,
    (f) => `Thanks for taking a look. My proposal is ${f.terms}, on a property worth ${f.value}.`,
  ],
  'offer:lender': [
    (f) =>
      `Hello. On a ${f.value} property we can offer ${f.loan} (${f.ltv}) at ${f.rate} over ${f.years}, with a ${f.fee} arrangement fee.`,
    (f) => `Thanks for getting in touch. Our offer is ${f.terms}, against a property worth ${f.value}.`,
    (f) => `Good to meet you. We could lend ${f.loan} at ${f.rate} over ${f.years}; the arrangement fee would be ${f.fee}.`,
  ],
  'counter:borrower': [
    (f) => `Thanks, but that's more than I can manage. Could you do ${f.terms}?`,
    (f) => `I'm not quite there yet. How about ${f.rate} over ${f.years}, borrowing ${f.loan} with a ${f.fee} fee?`,
    (f) => `That's closer. I could go to ${f.rate} if we keep ${f.loan} over ${f.years} and a fee of ${f.fee}.`,
  ],
  'counter:lender': [
    (f) => `We can't quite do that. Our best at this stage is ${f.terms}.`,
    (f) => `We've looked again. We could offer ${f.rate} over ${f.years} on ${f.loan}, with a ${f.fee} fee.`,
    (f) => `Thanks for that. We can move to ${f.terms}.`,
  ],
  'accept:borrower': [
    (f) => `That works for me. Agreed: ${f.terms} (${f.ltv}).`,
    (f) => `I'm happy to accept ${f.terms}. Thank you.`,
    (f) => `Agreed. ${f.rate} over ${f.years} on ${f.loan}, with a ${f.fee} fee, suits me well.`,
  ],
  'accept:lender': [
    (f) => `We're happy to agree: ${f.terms} on the ${f.value} property.`,
    (f) => `Agreed. We'll proceed on ${f.terms}.`,
    (f) => `That's acceptable to us. ${f.loan} at ${f.rate} over ${f.years}, with a ${f.fee} fee: agreed.`,
  ],
  'walk-away:borrower': [
    () => `I'm sorry, we're too far apart and I've no more room to move. I'll leave it there.`,
    () => `Thank you for your time, but I can't accept those terms. I'll look elsewhere.`,
  ],
  'walk-away:lender': [
    () => `We can't go beyond our last offer, so we'll have to leave it there. Thank you for your time.`,
    () => `Unfortunately we can't meet those terms. We'll close this one for now.`,
  ],
  suggest: [
    (f) => `You're not far apart. Would a middle ground of ${f.terms} work for you both?`,
    (f) => `Could I suggest meeting in the middle: ${f.rate} over ${f.years} on ${f.loan}, with a ${f.fee} fee?`,
  ],
};

const INTRODUCTIONS: Array<(borrower: string, lender: string, value: string) => string> = [
  (b, l, v) => `Hello both. ${b}, meet ${l}: they lend on properties like your ${v} one. I'll leave you to discuss terms.`,
  (b, l, v) => `I'd like to introduce ${b} to ${l}. ${b} is financing a ${v} property, which fits ${l}'s lending well.`,
];

const APART: Record<Side, Array<(apart: string) => string>> = {
  borrower: [
    (a) => `Thank you for looking at this. Our criteria leave nothing in common on the ${a}, so I won't take up more of your time.`,
    (a) => `I'm sorry: what you can offer and what I need don't meet on the ${a}. I'll leave it there, with thanks.`,
  ],
  lender: [
    (a) => `Thank you for the enquiry. Unfortunately our lending criteria don't meet yours on the ${a}, so we can't make an offer.`,
    (a) => `We've looked carefully, but we can't lend within your requirements on the ${a}. Thank you for thinking of us.`,
  ],
};

/** Counter templates that claim a movement: said only when it happened. */
const CLAIMS_THEY_MOVED = new Set<Template>([TEMPLATES['counter:borrower']![2]!]);
const CLAIMS_I_MOVED = new Set<Template>([
  TEMPLATES['counter:lender']![1]!,
  TEMPLATES['counter:lender']![2]!,
  TEMPLATES['counter:borrower']![2]!,
]);

const WITHDRAWALS: string[] = [
  "Thank you for your time and your offers. I've now agreed terms with another lender, so I'll withdraw from this conversation.",
  "I wanted to let you know that I've accepted another lender's offer. Thank you for negotiating with me; I'm withdrawing here.",
];

const LENDER_CLOSINGS: string[] = [
  "I understand you have agreed terms with another lender, so we'll close this negotiation here. Thank you, and good luck with the purchase.",
  "As you've agreed terms elsewhere, there is nothing more for us to offer here. Thank you for your time.",
];

const CRITERION_LABEL: Record<CriteriaKey, string> = {
  propertyValueMin: 'minimum property value',
  propertyValueMax: 'maximum property value',
  interestRateMin: 'minimum interest rate',
  interestRateMax: 'maximum interest rate',
  loanTermMin: 'minimum loan term',
  loanTermMax: 'maximum loan term',
  loanAmount: 'loan amount',
  deposit: 'deposit',
  annualIncome: 'annual income',
  propertyType: 'property type',
  expectedRent: 'expected rent',
  region: 'region',
  maxLtv: 'maximum loan-to-value',
};

/** `unreadable`: criteria to mention, only in the agent's first message. */
export function composeMessage(intent: MessageIntent, rng: Rng, unreadable: readonly CriteriaKey[] = []): string {
  const text = compose(intent, rng);
  return unreadable.length > 0 ? `${text} ${unreadableNote(unreadable)}` : text;
}

function compose(intent: MessageIntent, rng: Rng): string {
  switch (intent.kind) {
    case 'introduce':
      return pick(rng, INTRODUCTIONS)(intent.borrowerName, intent.lenderName, formatPounds(intent.propertyValue));
    case 'walk-away':
      if (intent.apart) return pick(rng, APART[intent.side])(intent.apart);
      return pick(rng, TEMPLATES[`walk-away:${intent.side}`] ?? [])(fill(null, 0));
    case 'withdraw':
      // The lender's agent closes a negotiation whose borrower agreed with another lender.
      return pick(rng, intent.side === 'lender' ? LENDER_CLOSINGS : WITHDRAWALS);
    case 'suggest':
      return pick(rng, TEMPLATES.suggest ?? [])(fill(intent.terms, intent.propertyValue));
    case 'counter': {
      // Words true to the move: "closer" only when they moved closer, "we can move to" only when we moved.
      const all = TEMPLATES[`counter:${intent.side}`] ?? [];
      const true_ = all.filter(
        (template) =>
          (!CLAIMS_THEY_MOVED.has(template) || intent.theyMovedCloser === true) &&
          (!CLAIMS_I_MOVED.has(template) || intent.iMoved === true),
      );
      return pick(rng, true_.length > 0 ? true_ : all)(fill(intent.terms, intent.propertyValue));
    }
    default:
      return pick(rng, TEMPLATES[`${intent.kind}:${intent.side}`] ?? [])(fill(intent.terms, intent.propertyValue));
  }
}

function unreadableNote(keys: readonly CriteriaKey[]): string {
  const labels = keys.map((key) => CRITERION_LABEL[key]);
  const list = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels[0];
  return `(I couldn't read my ${list}, so I'm treating ${labels.length > 1 ? 'them' : 'it'} as no limit.)`;
}

function fill(terms: LoanTerms | null, propertyValue: number): Fill {
  if (!terms) return { terms: '', loan: '', rate: '', years: '', fee: '', value: '', ltv: '' };
  return {
    terms: describeTerms(terms),
    loan: formatPounds(terms.loanAmount),
    rate: formatRate(terms.interestRate),
    years: formatYears(terms.termYears),
    fee: formatPounds(terms.arrangementFee),
    value: formatPounds(propertyValue),
    ltv: formatLtv(terms.loanAmount, propertyValue),
  };
}
