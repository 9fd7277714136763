/**
 * The matcher's decision when an agent is created, edited or resumed: which borrower–lender pairs to match now.
 * Never a paused or deleted agent, never a pair that already talks in an open conversation, never a pair that
 * has already negotiated with the same criteria on both sides (the negotiation is deterministic: it would only
 * end the same way again), never beyond an agent's cap of open conversations; best scores first, ties by agent
 * id, so the plan is deterministic.
 *
 * How a broker joins: a broker's criteria describe the market it serves. A matched pair is introduced by the
 * active broker, under its cap, whose criteria fit both parties at or above the threshold (the best fit, then
 * the lowest id); with none, the pair talks directly. When the changed agent is itself a broker, the plan is
 * the pairs it can introduce: every unmatched pair scoring at or above the threshold that it fits.
 */
import { createHash } from 'node:crypto';
import {
  DEFAULT_BANK_RATE_PERCENT,
  mayMeet,
  pounds,
  productRangeOf,
  readCriteria,
  type AgentType,
  type Criteria,
  type MatchExplanation,
  type Participant,
} from '@pf/events';
import { DEFAULT_LENDING_RULES } from '../automation/negotiation/lending-rules';
import { dealPropertyValue } from '../automation/negotiation/property-value';
import { bestLine, negotiatedNeeds } from '../automation/negotiation/setup';
import { scoreMatch } from './score-match';
import type { MatchableAgent, MatchSettings, OpenConversation } from './matchable';
import { shortlistedLenders } from './sourcing';

const DEFAULT_MATCH_SETTINGS: MatchSettings = { threshold: 70, maxOpenConversations: 3 };

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

/**
 * Pairs that have already had a conversation: pairKey(borrower, lender) → criteriaFingerprint of both agents'
 * criteria when it started. A pair whose fingerprint still matches is not matched again.
 */
export type NegotiatedPairs = ReadonlyMap<string, string>;

export const pairKey = (borrowerId: number, lenderId: number): string => `${borrowerId}:${lenderId}`;

/**
 * Both agents' criteria in a short, order-independent form: the values trimmed, empty ones left out, keys
 * sorted (the stored criteria are free text, and JSONB does not keep key order), hashed to 16 hex digits.
 */
export function criteriaFingerprint(borrower: Criteria | null, lender: Criteria | null): string {
  const canonical = (criteria: Criteria | null) =>
    Object.entries(criteria ?? {})
      .map(([key, value]) => [key, String(value ?? '').trim()] as const)
      .filter(([, value]) => value !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([canonical(borrower), canonical(lender)]))
    .digest('hex')
    .slice(0, 16);
}

export interface MatchPlan {
  plan: PlannedMatch[];
  /** Pairs at or above the threshold, not in an open conversation, that had already negotiated with these criteria. */
  alreadyNegotiated: number;
  /** Pairs at or above the threshold in no open conversation and never negotiated with these criteria. */
  fresh: number;
}

export function planMatches(
  changed: MatchableAgent,
  agents: readonly MatchableAgent[],
  openConversations: readonly OpenConversation[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
  negotiated: NegotiatedPairs = new Map(),
): PlannedMatch[] {
  return planMatchesExplained(changed, agents, openConversations, settings, negotiated).plan;
}

/** planMatches, with how many fitting pairs were left out for having negotiated already (for Match's note). */
export function planMatchesExplained(
  changed: MatchableAgent,
  agents: readonly MatchableAgent[],
  openConversations: readonly OpenConversation[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
  negotiated: NegotiatedPairs = new Map(),
): MatchPlan {
  if (!changed.isActive) return { plan: [], alreadyNegotiated: 0, fresh: 0 };
  const active = [changed, ...agents.filter((agent) => agent.agentId !== changed.agentId)].filter((a) => a.isActive);
  const ofType = (type: AgentType) => active.filter((agent) => agent.type === type).sort((a, b) => a.agentId - b.agentId);
  const load = new Map<number, number>();
  for (const conversation of openConversations) {
    for (const agentId of conversation.agentIds) load.set(agentId, (load.get(agentId) ?? 0) + 1);
  }
  const hasRoom = (agent: MatchableAgent) => (load.get(agent.agentId) ?? 0) < settings.maxOpenConversations;
  const talking = (a: number, b: number) => openConversations.some((c) => c.agentIds.includes(a) && c.agentIds.includes(b));

  const lending = settings.rules ? { rules: settings.rules } : {};
  const borrowers = changed.type === 'borrower' ? [changed] : ofType('borrower');
  const lenders = changed.type === 'lender' ? [changed] : ofType('lender');
  const brokers = changed.type === 'broker' ? [changed] : ofType('broker');
  const negotiatedAlready = (borrower: MatchableAgent, lender: MatchableAgent) =>
    negotiated.get(pairKey(borrower.agentId, lender.agentId)) === criteriaFingerprint(borrower.criteria, lender.criteria);
  // A borrower with recorded needs negotiates with its sourcing's shortlist only: the cheapest few lenders.
  const shortlists = new Map(borrowers.map((b) => [b.agentId, shortlistedLenders(b, active, settings)]));
  const fitting = borrowers
    .flatMap((borrower) =>
      lenders
        .filter((lender) => mayMeet(borrower, lender) && (shortlists.get(borrower.agentId)?.has(lender.agentId) ?? true))
        .map((lender) => ({ borrower, lender, ...scoreMatch(borrower.criteria, lender.criteria, lending) })),
    )
    .filter((pair) => pair.score >= settings.threshold && !talking(pair.borrower.agentId, pair.lender.agentId))
    // Only negotiations with a case to price: a pair without a line of the lender's that can be offered for the
    // borrower's needs would end at its first move (a warning may stay, shown; a certain failure is not opened).
    .filter((pair) => canSucceed(pair.borrower, pair.lender, settings));
  const candidates = fitting
    .filter((pair) => !negotiatedAlready(pair.borrower, pair.lender))
    .sort((a, b) => b.score - a.score || a.borrower.agentId - b.borrower.agentId || a.lender.agentId - b.lender.agentId);

  const plan: PlannedMatch[] = [];
  for (const pair of candidates) {
    if (!hasRoom(pair.borrower) || !hasRoom(pair.lender)) continue;
    const broker = bestBroker(
      brokers.filter((b) => hasRoom(b) && mayMeet(b, pair.borrower) && mayMeet(b, pair.lender)),
      pair.borrower,
      pair.lender,
      settings.threshold,
    );
    if (changed.type === 'broker' && !broker) continue;
    for (const agent of [pair.borrower, pair.lender, broker]) {
      if (agent) load.set(agent.agentId, (load.get(agent.agentId) ?? 0) + 1);
    }
    const propertyValue = dealPropertyValue(readCriteria(pair.borrower.criteria), readCriteria(pair.lender.criteria));
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
  return { plan, alreadyNegotiated: fitting.length - candidates.length, fresh: candidates.length };
}

function canSucceed(borrower: MatchableAgent, lender: MatchableAgent, settings: MatchSettings): boolean {
  const market = { bankRatePercent: settings.bankRatePercent ?? DEFAULT_BANK_RATE_PERCENT, rules: settings.rules ?? DEFAULT_LENDING_RULES };
  const line = bestLine(
    { agentId: borrower.agentId, needs: negotiatedNeeds(borrower, lender.criteria), criteria: borrower.criteria },
    { agentId: lender.agentId, name: lender.name, range: productRangeOf(lender), criteria: lender.criteria },
    market,
  );
  return line.priced !== null;
}

function conversationTitle(borrowerName: string, lenderName: string, propertyValue: number): string {
  return `${borrowerName} ↔ ${lenderName} · ${pounds(propertyValue)}`;
}

/** Open conversations to complete as "stopped" when an agent is paused or deleted. */
export function conversationsToStop(agentId: number, openConversations: readonly OpenConversation[]): number[] {
  return openConversations.filter((c) => c.agentIds.includes(agentId)).map((c) => c.conversationId);
}

function bestBroker(brokers: MatchableAgent[], borrower: MatchableAgent, lender: MatchableAgent, threshold: number): MatchableAgent | null {
  let best: { broker: MatchableAgent; fit: number } | null = null;
  for (const broker of brokers) {
    const options = { lending: false };
    const fit = Math.min(
      scoreMatch(borrower.criteria, broker.criteria, options).score,
      scoreMatch(broker.criteria, lender.criteria, options).score,
    );
    if (fit >= threshold && (!best || fit > best.fit)) best = { broker, fit };
  }
  return best?.broker ?? null;
}

function participant(agent: MatchableAgent): Participant {
  return {
    agentId: agent.agentId,
    ownerId: agent.ownerId,
    ...(agent.firmId ? { firmId: agent.firmId } : {}),
    name: agent.name,
    type: agent.type,
  };
}
