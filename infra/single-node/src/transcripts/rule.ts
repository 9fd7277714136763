import { percentage, pounds, type BookedOffer, type LoanTerms } from '@pf/events';
import { sameProduct, sameTerms, type Transcript, type Turn } from './transcript';
import { claimOf, isRefusal, REFUSING } from './words';

/**
 * A rule every conversation keeps as people read it (docs/behaviour/transcripts.md): a named check over a transcript,
 * answering what it looked at (so a run that checked nothing shows it) and what broke the rule, with the words.
 */
export interface Finding {
  readonly text: string;
  readonly detail: string;
}

interface RuleResult {
  readonly checked: number;
  /** Moves the rule does not hold people to (a person's own typed terms), counted so the report says so. */
  readonly setAside?: number;
  readonly findings: Finding[];
}

export interface Rule {
  readonly name: string;
  /** What one check is ("offer", "message"), for the counts. */
  readonly unit: string;
  readonly check: (transcript: Transcript, turns: readonly Turn[]) => RuleResult;
}

export const describe = (terms: LoanTerms) =>
  `${pounds(terms.loanAmount)} over ${terms.termYears} years at ${percentage(terms.interestRate)}, fee ${pounds(terms.arrangementFee)}`;
export const otherSide = (side: Turn['side']) => (side === 'borrower' ? 'lender' : side === 'lender' ? 'borrower' : null);
export const wordsOf = (turn: Turn) => turn.message?.text ?? '(no words)';
/** An agent's own words: the rules of wording are the agents', not what a person types. */
export const agentWords = (turn: Turn) => turn.message !== null && turn.message.automated;
export const sideOf = (turn: Turn): 'borrower' | 'lender' | 'broker' =>
  turn.side === 'borrower' || turn.side === 'lender' ? turn.side : 'broker';

/** The same terms of the same product, in every term of it: its cashback included (an offer's cashback is its product's: offers.md). */
export const sameOffer = (a: Pick<BookedOffer, 'terms' | 'product'>, b: Pick<BookedOffer, 'terms' | 'product'>) =>
  sameTerms(a.terms, b.terms) && sameProduct(a.product, b.product);

/** Whether an agent's words refuse, in a phrasing of the docs or any other (an undocumented refusal is still one). */
export const refuses = (turn: Turn) =>
  agentWords(turn) && (isRefusal(claimOf(sideOf(turn), wordsOf(turn))) || REFUSING.test(wordsOf(turn)));
