/**
 * The matcher's decision when an agent is created, edited or resumed: which borrower–lender pairs to match now.
 * Never a paused or deleted agent, never a pair that already talks in an open conversation, never beyond an
 * agent's cap of open conversations; best scores first, ties by agent id, so the plan is deterministic.
 *
 * How a broker joins: a broker's criteria describe the market it serves. A matched pair is introduced by the
 * active broker, under its cap, whose criteria fit both parties at or above the threshold (the best fit, then
 * the lowest id); with none, the pair talks directly. When the changed agent is itself a broker, the plan is
 * the pairs it can introduce: every unmatched pair scoring at or above the threshold that it fits.
 */
import type { AgentType, Criteria, MatchExplanation, Participant } from '@pf/events';
import { readCriteria } from '../criteria/read-criteria';
import { dealPropertyValue } from '../negotiation/setup';
import { formatPounds } from '../words/format';
import { scoreMatch } from './score-match';

export interface MatchableAgent {
  agentId: number;
  ownerId: string;
  name: string;
  type: AgentType;
  criteria: Criteria | null;
  /** False when paused; deleted agents are left out of the list altogether (or passed with isActive false). */
  isActive: boolean;
}

export interface OpenConversation {
  conversationId: number;
  agentIds: number[];
}

export interface MatchSettings {
  threshold: number;
  maxOpenConversations: number;
}

export const DEFAULT_MATCH_SETTINGS: MatchSettings = { threshold: 70, maxOpenConversations: 3 };

export interface PlannedMatch {
  borrower: Participant;
  lender: Participant;
  broker: Participant | null;
  score: number;
  explanation: MatchExplanation;
  /** e.g. "Alice Borrower ↔ Northern Bank · £250,000": the parties and the property value being financed. */
  title: string;
  propertyValue: number;
}

export function planMatches(
  changed: MatchableAgent,
  agents: readonly MatchableAgent[],
  openConversations: readonly OpenConversation[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
): PlannedMatch[] {
  if (!changed.isActive) return [];
  const active = [changed, ...agents.filter((agent) => agent.agentId !== changed.agentId)].filter((a) => a.isActive);
  const ofType = (type: AgentType) => active.filter((agent) => agent.type === type).sort((a, b) => a.agentId - b.agentId);
  const load = new Map<number, number>();
  for (const conversation of openConversations) {
    for (const agentId of conversation.agentIds) load.set(agentId, (load.get(agentId) ?? 0) + 1);
  }
  const hasRoom = (agent: MatchableAgent) => (load.get(agent.agentId) ?? 0) < settings.maxOpenConversations;
  const talking = (a: number, b: number) =>
    openConversations.some((c) => c.agentIds.includes(a) && c.agentIds.includes(b));

  const borrowers = changed.type === 'borrower' ? [changed] : ofType('borrower');
  const lenders = changed.type === 'lender' ? [changed] : ofType('lender');
  const brokers = changed.type === 'broker' ? [changed] : ofType('broker');
  const candidates = borrowers
    .flatMap((borrower) => lenders.map((lender) => ({ borrower, lender, ...scoreMatch(borrower.criteria, lender.criteria) })))
    .filter((pair) => pair.score >= settings.threshold && !talking(pair.borrower.agentId, pair.lender.agentId))
    .sort((a, b) => b.score - a.score || a.borrower.agentId - b.borrower.agentId || a.lender.agentId - b.lender.agentId);

  const plan: PlannedMatch[] = [];
  for (const pair of candidates) {
    if (!hasRoom(pair.borrower) || !hasRoom(pair.lender)) continue;
    const broker = bestBroker(brokers.filter(hasRoom), pair.borrower, pair.lender, settings.threshold);
    if (changed.type === 'broker' && !broker) continue;
    for (const agent of [pair.borrower, pair.lender, broker]) {
      if (agent) load.set(agent.agentId, (load.get(agent.agentId) ?? 0) + 1);
    }
    const propertyValue = dealPropertyValue(
      readCriteria(pair.borrower.criteria).propertyValue,
      readCriteria(pair.lender.criteria).propertyValue,
    );
    plan.push({
      borrower: participant(pair.borrower),
      lender: participant(pair.lender),
      broker: broker ? participant(broker) : null,
      score: pair.score,
      explanation: pair.explanation,
      title: conversationTitle(pair.borrower.name, pair.lender.name, propertyValue),
      propertyValue,
    });
  }
  return plan;
}

export function conversationTitle(borrowerName: string, lenderName: string, propertyValue: number): string {
  return `${borrowerName} ↔ ${lenderName} · ${formatPounds(propertyValue)}`;
}

/** Open conversations to complete as "stopped" when an agent is paused or deleted. */
export function conversationsToStop(agentId: number, openConversations: readonly OpenConversation[]): number[] {
  return openConversations.filter((c) => c.agentIds.includes(agentId)).map((c) => c.conversationId);
}

function bestBroker(
  brokers: MatchableAgent[],
  borrower: MatchableAgent,
  lender: MatchableAgent,
  threshold: number,
): MatchableAgent | null {
  let best: { broker: MatchableAgent; fit: number } | null = null;
  for (const broker of brokers) {
    const fit = Math.min(scoreMatch(borrower.criteria, broker.criteria).score, scoreMatch(broker.criteria, lender.criteria).score);
    if (fit >= threshold && (!best || fit > best.fit)) best = { broker, fit };
  }
  return best?.broker ?? null;
}

function participant(agent: MatchableAgent): Participant {
  return { agentId: agent.agentId, ownerId: agent.ownerId, name: agent.name, type: agent.type };
}
