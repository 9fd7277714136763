import type { LoanTerms } from '@pf/events';
import { pounds } from '@pf/events';
import type { Turn } from './transcript';
import { agentWords, wordsOf, type Rule } from './rule';

interface TermsMove {
  terms: LoanTerms;
  turn: Turn;
  what: string;
}

/**
 * Each offer made and each acceptance, with the words of its turn: the agents' are held to the borrower's needs;
 * a person holding a side may type any terms (the simulation types them at random), so theirs are set aside and
 * counted. An agent's acceptance of a person's terms is the agent's, and is held to them.
 */
function termsMoves(turns: readonly Turn[]): { agents: TermsMove[]; people: number } {
  const agents: TermsMove[] = [];
  let people = 0;
  for (const turn of turns) {
    if (turn.offer && turn.offer.byPerson) people += 1;
    else if (turn.offer) agents.push({ terms: turn.offer.terms, turn, what: "an agent's offer" });
    if (turn.accepted && agentWords(turn)) agents.push({ terms: turn.accepted.terms, turn, what: "an agent's acceptance" });
    else if (turn.accepted) people += 1;
  }
  return { agents, people };
}

export const feeCap: Rule = {
  name: 'fee cap kept',
  unit: "agent's offer or acceptance under a cap",
  check: (transcript, turns) => {
    const cap = transcript.needs?.maxFeePounds;
    if (cap === undefined) return { checked: 0, findings: [] };
    const { agents: moves, people } = termsMoves(turns);
    return {
      checked: moves.length,
      setAside: people,
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
  unit: "agent's offer or acceptance",
  check: (transcript, turns) => {
    const { agents: moves, people } = termsMoves(turns);
    const needs = transcript.needs;
    const first = moves[0]?.terms;
    // Without recorded needs, the loan and term of the agents' first offer stand for the whole conversation.
    const wanted = needs ? { loanAmount: needs.loanAmount, termYears: needs.termYears } : first;
    const whose = needs ? "the borrower's needs" : "the agents' first offer";
    return {
      checked: moves.length,
      setAside: people,
      findings: moves
        .filter(({ terms }) => wanted && (terms.loanAmount !== wanted.loanAmount || terms.termYears !== wanted.termYears))
        .map(({ terms, turn, what }) => ({
          text: wordsOf(turn),
          detail: `${what} is for ${pounds(terms.loanAmount)} over ${terms.termYears} years; ${whose}: ${pounds(wanted!.loanAmount)} over ${wanted!.termYears} years`,
        })),
    };
  },
};
