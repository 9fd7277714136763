import { mayMeet } from '@pf/events';
import type { MatchableAgent, MatchSettings } from './matchable';
import { scoreMatch } from './score-match';

/**
 * Whether the sandbox rule (visibility.ts: mayMeet) is why Match found nothing for `agent`: some active
 * counterpart would score at or above the threshold, and every one that would is on the other side of the rule
 * (a real agent for a demo one, a demo agent for a real one). Borrowers and lenders only: a broker introduces, and
 * its note stays the general one. Pure.
 */
export function keptApartBySandbox(agent: MatchableAgent, agents: readonly MatchableAgent[], settings: MatchSettings): boolean {
  const counterpartType = agent.type === 'borrower' ? 'lender' : agent.type === 'lender' ? 'borrower' : null;
  if (!counterpartType) return false;
  const lending = settings.rules ? { rules: settings.rules } : {};
  const fits = (other: MatchableAgent) => {
    const [borrower, lender] = agent.type === 'borrower' ? [agent, other] : [other, agent];
    return scoreMatch(borrower.criteria, lender.criteria, lending).score >= settings.threshold;
  };
  const fitting = agents.filter(
    (other) => other.agentId !== agent.agentId && other.isActive && other.type === counterpartType && fits(other),
  );
  return fitting.length > 0 && fitting.every((other) => !mayMeet(agent, other));
}
