import type { LoanTerms } from '@pf/events';
import { pounds } from '@pf/events';
import type { Turn } from './transcript';
import { wordsOf, type Rule } from './rule';

/** Each offer made and each acceptance, with the words of its turn. */
function termsMoves(turns: readonly Turn[]): { terms: LoanTerms; turn: Turn; what: string }[] {
  return turns.flatMap((turn) => [
    ...(turn.offer ? [{ terms: turn.offer.terms, turn, what: turn.offer.byPerson ? "a person's offer" : "an agent's offer" }] : []),
    ...(turn.accepted ? [{ terms: turn.accepted.terms, turn, what: 'an acceptance' }] : []),
  ]);
}

export const feeCap: Rule = {
  name: 'fee cap kept',
  unit: 'offer or acceptance under a cap',
  check: (transcript, turns) => {
    const cap = transcript.needs?.maxFeePounds;
    if (cap === undefined) return { checked: 0, findings: [] };
    const moves = termsMoves(turns);
    return {
      checked: moves.length,
      findings: moves
        .filter(({ terms }) => terms.arrangementFee > cap)
        .map(({ terms, turn, what }) => ({
          text: wordsOf(turn),
          detail: `${what} has a fee of ${pounds(terms.arrangementFee)}, above the borrower's cap of ${pounds(cap)}`,
        })),
    };
  },
};

export const loanAndTerm: Rule = {
  name: 'loan and term never traded',
  unit: 'offer or acceptance',
  check: (transcript, turns) => {
    const moves = termsMoves(turns);
    const needs = transcript.needs;
    const first = moves[0]?.terms;
    // Without recorded needs, the loan and term of the first offer stand for the whole conversation.
    const wanted = needs ? { loanAmount: needs.loanAmount, termYears: needs.termYears } : first;
    const whose = needs ? "the borrower's needs" : 'the first offer';
    return {
      checked: moves.length,
      findings: moves
        .filter(({ terms }) => wanted && (terms.loanAmount !== wanted.loanAmount || terms.termYears !== wanted.termYears))
        .map(({ terms, turn, what }) => ({
          text: wordsOf(turn),
          detail: `${what} is for ${pounds(terms.loanAmount)} over ${terms.termYears} years; ${whose}: ${pounds(wanted!.loanAmount)} over ${wanted!.termYears} years`,
        })),
    };
  },
};
