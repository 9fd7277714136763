import type { LendingRules } from '../negotiation/lending-rules';
import type { NeedState } from '../../need/need';
import { AutomationState, type ConversationInfo } from './automation-state';

type AgentInfo = AutomationState['agents'] extends Map<number, infer A> ? A : never;

/**
 * How a new leader of the automation resumes: from its state saved with a position (snapshots.ts), not
 * by replaying the whole stream. A snapshot rather than a re-derivation from the read models because those
 * belong to the query-service (no service reads another's tables, and in a distributed deployment they
 * stand at their own checkpoint, not the automation's), while a snapshot is consistent with its position by
 * construction. It stays small: completed conversations leave the state, so it holds the agents and the
 * conversations still open, each with its negotiation (plain data: the priced case, the offer book, counts), and per borrower
 * its need while committed (format 4; docs/decisions/one-commitment-per-need.md), and per borrower–lender pair
 * that has had a conversation a 16-digit fingerprint of their criteria then (format 3: the matcher does not match
 * a pair again with unchanged criteria).
 *
 * Bump the format whenever AutomationState's shape changes: an older snapshot is then ignored and the next
 * leader replays from the start once.
 */
export const AUTOMATION_SNAPSHOT_FORMAT = 7;

interface AutomationSnapshot {
  readonly agents: AgentInfo[];
  readonly conversations: ConversationInfo[];
  readonly needs: [number, NeedState][];
  readonly negotiatedPairs: [string, string][];
}

export function snapshotOf(state: AutomationState): AutomationSnapshot {
  return {
    agents: [...state.agents.values()],
    conversations: [...state.conversations.values()],
    needs: [...state.needs],
    negotiatedPairs: [...state.negotiatedPairs],
  };
}

/** The state a snapshot describes; an empty state when there is none. `rules` and `bankRatePercent`: from the configuration. */
export function restoreAutomationState(saved: unknown, rules?: LendingRules, bankRatePercent?: number): AutomationState {
  const state = new AutomationState(rules, bankRatePercent);
  if (!saved) return state;
  const { agents, conversations, needs, negotiatedPairs } = saved as AutomationSnapshot;
  for (const [borrowerId, need] of needs) state.needs.set(borrowerId, need);
  for (const [pair, fingerprint] of negotiatedPairs) state.negotiatedPairs.set(pair, fingerprint);
  for (const agent of agents) state.agents.set(agent.agentId, agent);
  for (const conversation of conversations) state.conversations.set(conversation.conversationId, conversation);
  return state;
}
