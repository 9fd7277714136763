import { pounds } from '@pf/events';
import { betterFor, sameLoanAndTerm, type Turn } from './transcript';
import { agentWords, describe, otherSide, refuses, sameOffer, sideOf, wordsOf, type Finding, type Rule } from './rule';
import { claimOf, CONCEDING, isConcession, REFUSING, type Claim } from './words';
import type { BookedOffer } from '@pf/events';

/** What each claim needs of the move: an opening comes before any offer of the speaker's, an acceptance accepts. */
function claimProblem(turn: Turn, claim: Claim): string | null {
  const { previous, offer } = turn;
  const them = otherSide(turn.side);
  if (claim === 'acceptance') return turn.accepted ? null : 'worded as an acceptance, but it accepts nothing';
  if (!offer) return `worded as an offer (${claim}), but it makes none`;
  if ((claim === 'opening' || claim === 'first-answer') && previous)
    return `worded as a first offer, but the speaker had offered ${describe(previous.terms)}`;
  if (isConcession(claim) && !(previous && betterFor(them, offer, previous))) {
    return previous
      ? `called a concession, but ${describe(offer.terms)} is not better for the ${them} than its previous offer, ${describe(previous.terms)}`
      : 'called a concession, but the speaker had made no offer before';
  }
  if ((claim === 'same' || claim === 'refusal-same') && !(previous && sameOffer(offer, previous))) {
    return `said to stay the same, but its previous offer was ${previous ? describe(previous.terms) : 'none'}`;
  }
  if (claim === 'away' && !(previous && betterFor(them, previous, offer))) {
    return `said to need more, but ${describe(offer.terms)} does not give the ${them} less than ${previous ? describe(previous.terms) : 'nothing'}`;
  }
  return null;
}

export const movesAsSaid: Rule = {
  name: 'words agree with moves',
  unit: "agent's offer or acceptance",
  check: (_transcript, turns) => {
    const findings: Finding[] = [];
    let checked = 0;
    for (const turn of turns) {
      if (!agentWords(turn) || !(turn.offer || turn.accepted) || (turn.side !== 'borrower' && turn.side !== 'lender')) continue;
      checked += 1;
      const text = wordsOf(turn);
      const claim = claimOf(turn.side, text);
      const problem =
        claim === null
          ? `the words of ${turn.accepted ? 'an acceptance' : 'an offer'} are none of the phrasings of docs/behaviour/negotiation.md, "What the agents say"`
          : claimProblem(turn, claim);
      if (problem) findings.push({ text, detail: problem });
    }
    return { checked, findings };
  },
};

export const refusals: Rule = {
  name: 'refusals answer worse offers',
  unit: 'refusal',
  check: (transcript, turns) => {
    const findings: Finding[] = [];
    const said = turns.filter(refuses);
    for (const turn of said) {
      const text = wordsOf(turn);
      const answered = turn.answers && turn.answers.fromAgentId !== turn.agentId ? turn.answers : null;
      if (!answered) {
        findings.push({ text, detail: 'refuses, but no offer of the other side is on the table' });
        continue;
      }
      // Refusing words answer only an offer of the borrower's loan and term (its needs; without them, the loan and term
      // of the offer made with the words); one of another loan or term (a person may type one) is answered with the
      // agent's own offer, without them (docs/behaviour/negotiation.md).
      const needs = transcript.needs;
      const own = needs ? { loanAmount: needs.loanAmount, termYears: needs.termYears } : (turn.offer ?? turn.previous)?.terms;
      if (own && (own.loanAmount !== answered.terms.loanAmount || own.termYears !== answered.terms.termYears)) {
        findings.push({
          text,
          detail: `refuses ${describe(answered.terms)}, an offer of another loan or term than the borrower's ${pounds(own.loanAmount)} over ${own.termYears} years`,
        });
        continue;
      }
      // Worse for the speaker than its own latest offer, and than the offer it makes instead (a latest offer of another
      // loan or term, a person's before a hand-back, is no price to weigh against).
      for (const [mine, label] of [
        [turn.previous, 'its own latest offer'],
        [turn.offer, 'the offer it makes instead'],
      ] as const) {
        if (mine && sameLoanAndTerm(mine.terms, answered.terms) && !betterFor(turn.side, mine, answered)) {
          findings.push({
            text,
            detail: `refuses ${describe(answered.terms)}, which is no worse for the ${turn.side} than ${label}, ${describe(mine.terms)}`,
          });
        }
      }
    }
    return { checked: said.length, findings };
  },
};

export const refusedNotAccepted: Rule = {
  name: 'refused terms never accepted',
  unit: 'acceptance',
  check: (_transcript, turns) => {
    const findings: Finding[] = [];
    const refused = new Map<number, { offer: BookedOffer; text: string }[]>();
    let checked = 0;
    for (const turn of turns) {
      const answered = turn.answers && turn.answers.fromAgentId !== turn.agentId ? turn.answers : null;
      if (refuses(turn) && answered)
        refused.set(turn.agentId, [...(refused.get(turn.agentId) ?? []), { offer: answered, text: wordsOf(turn) }]);
      if (!turn.accepted) continue;
      checked += 1;
      const earlier = (refused.get(turn.agentId) ?? []).find(({ offer }) => sameOffer(offer, turn.accepted!));
      if (earlier)
        findings.push({
          text: wordsOf(turn),
          detail: `accepts ${describe(turn.accepted.terms)}, which the same side refused: "${earlier.text}"`,
        });
    }
    return { checked, findings };
  },
};

/** Words that concede or refuse in no documented phrasing slip past the move checks; named here so they cannot. */
export const undocumentedClaims: Rule = {
  name: 'conceding and refusing words are documented',
  unit: "agent's message",
  check: (_transcript, turns) => {
    const said = turns.filter(agentWords);
    return {
      checked: said.length,
      findings: said
        .filter(
          (turn) =>
            (CONCEDING.test(wordsOf(turn)) || REFUSING.test(wordsOf(turn))) && claimOf(sideOf(turn), wordsOf(turn)) === null && !turn.offer,
        )
        .map((turn) => ({
          text: wordsOf(turn),
          detail: 'concedes or refuses without an offer, in words none of the documented phrasings',
        })),
    };
  },
};
