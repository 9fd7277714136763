import type { DomainEvent, EventOf } from '../domain-events';
import type { MatchExplanation } from '../negotiation';
import type { View } from './view';

export interface Match {
  matchId: string;
  borrowerAgentId: number;
  lenderAgentId: number;
  brokerAgentId: number | null;
  score: number;
  explanation: MatchExplanation;
  createdAt: string;
}

/**
 * A match is recorded once (MatchFound) and never changes; a second MatchFound with its id changes nothing. The
 * same for rm_match_parties and the match board (which follows the match through its conversation and deal).
 */
export function evolveMatch<T extends Match>(match: T | null, event: DomainEvent, recordedAt: string): T | Match | null {
  if (match || event.type !== 'MatchFound') return match;
  const { matchId, borrowerAgentId, lenderAgentId, brokerAgentId, score, explanation } = event.data;
  return { matchId, borrowerAgentId, lenderAgentId, brokerAgentId, score, explanation, createdAt: recordedAt };
}

export const matchesView: View<string, Match> = {
  keyOf: (event) => (event.type === 'MatchFound' ? event.data.matchId : null),
  evolve: evolveMatch,
};

/**
 * The agents taking part in a match or a deal (borrower, lender and the broker if any). Their owners, once
 * each, are the people who see it: owners outlive their agents, so a deleted agent's owner still does.
 */
export function partyAgentIds(
  parties: Pick<EventOf<'MatchFound'>['data'], 'borrowerAgentId' | 'lenderAgentId' | 'brokerAgentId'>,
): number[] {
  const { borrowerAgentId, lenderAgentId, brokerAgentId } = parties;
  return brokerAgentId === null ? [borrowerAgentId, lenderAgentId] : [borrowerAgentId, lenderAgentId, brokerAgentId];
}
