/**
 * The built-in wording: plain British English from the engine's decisions, one phrasing per kind of move
 * (docs/behaviour/negotiation.md, "What the agents say"), varied only where the meaning is the same, by a seeded
 * Rng so a replay says the same thing. Every figure comes from the quote (format.ts); templates only arrange it.
 */
import { pick, type Rng } from '../rng';
import type { Side } from '../negotiation/setup';

/** How an offer moves from the speaker's own previous one, for the other side: more, the same, or less. */
export type Movement = 'first' | 'conceded' | 'held' | 'firmer';

export type MessageIntent =
  /** The speaker's first offer (it greets). `answering`: a borrower answering the lender's opening. */
  | { kind: 'open'; side: Side; quote: string; productName: string; answering: boolean }
  /** `refusal`: the offer answered is worse for the speaker than its own last and one it will never accept. */
  | { kind: 'counter'; side: Side; quote: string; movement: Exclude<Movement, 'first'>; refusal: boolean }
  | { kind: 'accept'; side: Side; quote: string }
  | { kind: 'walk-away'; side: Side; reason: 'deadline' }
  | { kind: 'walk-away'; side: Side; reason: 'no-product'; detail: string }
  /**
   * A borrower that agreed with another lender leaves this conversation politely. The words name neither that
   * lender nor the deal: the lender here is told the outcome, not the winner (docs/decisions/firms-and-visibility.md).
   */
  | { kind: 'withdraw'; side: Side }
  | { kind: 'introduce'; borrowerName: string; lenderName: string; propertyValue: string | null }
  | { kind: 'suggest'; quote: string };

const INTRODUCTIONS: Array<(borrower: string, lender: string, value: string) => string> = [
  (b, l, v) => `Hello both. ${b}, meet ${l}: they lend on properties like your ${v} one. I'll leave you to discuss terms.`,
  (b, l, v) => `I'd like to introduce ${b} to ${l}. ${b} is financing a ${v} property, which fits ${l}'s lending well.`,
];

const WITHDRAWALS: string[] = [
  "Thank you for your time and your offers. I've now agreed terms with another lender, so I'll withdraw from this conversation.",
  "I wanted to let you know that I've accepted another lender's offer. Thank you for negotiating with me; I'm withdrawing here.",
];

const LENDER_CLOSINGS: string[] = [
  "I understand you have agreed terms with another lender, so we'll close this negotiation here. Thank you, and good luck with the purchase.",
  "As you've agreed terms elsewhere, there is nothing more for us to offer here. Thank you for your time.",
];

export function composeMessage(intent: MessageIntent, rng: Rng): string {
  switch (intent.kind) {
    case 'introduce':
      if (intent.propertyValue === null)
        return `Hello both. ${intent.borrowerName}, meet ${intent.lenderName}. I'll leave you to discuss terms.`;
      return pick(rng, INTRODUCTIONS)(intent.borrowerName, intent.lenderName, intent.propertyValue);
    case 'withdraw':
      // The lender's agent closes a negotiation whose borrower agreed with another lender.
      return pick(rng, intent.side === 'lender' ? LENDER_CLOSINGS : WITHDRAWALS);
    case 'suggest':
      return `You're not far apart. Would ${intent.quote} work for you both?`;
    case 'open':
      if (intent.side === 'lender') return `Hello. For this case our price is ${intent.quote}.`;
      return intent.answering
        ? `Thank you. Could you do ${intent.quote}?`
        : `Hello. I'm looking at ${intent.productName}. Could you do ${intent.quote}?`;
    case 'counter':
      return intent.side === 'lender' ? lenderCounter(intent) : borrowerCounter(intent);
    case 'accept':
      return intent.side === 'lender' ? `We're happy to agree: ${intent.quote}.` : `Agreed: ${intent.quote}.`;
    case 'walk-away':
      return walkAway(intent);
    default: {
      const unknown: never = intent;
      return unknown;
    }
  }
}

function lenderCounter({ quote, movement, refusal }: Extract<MessageIntent, { kind: 'counter' }>): string {
  // A move away (only after its person's offer beyond the discretion) is said plainly, never with a refusal.
  if (movement === 'firmer') return `Our offer is now ${quote}.`;
  if (movement === 'conceded') return refusal ? `We can't do that, but we can move to ${quote}.` : `Thanks. We can move to ${quote}.`;
  return refusal ? `We can't do that. Our offer stays at ${quote}.` : `Our offer stays at ${quote}.`;
}

function borrowerCounter({ quote, movement, refusal }: Extract<MessageIntent, { kind: 'counter' }>): string {
  if (refusal) return `I'm sorry, that's more than I can manage. Could you do ${quote}?`;
  if (movement === 'conceded') return `I can move to ${quote}.`;
  if (movement === 'held') return `I'd still need ${quote}.`;
  return `I now need ${quote}.`;
}

function walkAway(intent: Extract<MessageIntent, { kind: 'walk-away' }>): string {
  switch (intent.reason) {
    case 'deadline':
      return intent.side === 'lender'
        ? "We can't go beyond our last offer, so we'll leave it there. Thank you for your time."
        : "I'm sorry, we're too far apart. I'll leave it there.";
    case 'no-product':
      return intent.side === 'lender'
        ? `Thank you for the enquiry. We have no product for this case: ${intent.detail}.`
        : `Thank you for looking at this. There is no product of yours for my case: ${intent.detail}. I'll leave it there.`;
  }
}
