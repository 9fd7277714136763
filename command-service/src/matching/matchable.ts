import type { AgentType, BorrowerNeeds, Criteria, ProductRange } from '@pf/events';
import type { LendingRules } from '../automation/negotiation/lending-rules';

/**
 * What the matching rules read (plan-matches.ts, sourcing.ts, sandbox.ts), here so that each reads it without
 * importing another rule: an agent as the matcher sees it, a conversation still open, and the matcher's settings.
 */

export interface MatchableAgent {
  agentId: number;
  ownerId: string;
  /** Its firm (firmOf: absent, its owner's firm of one). */
  firmId?: string;
  /** Seed Demo Data's: it meets only demo agents of its own firm (visibility.ts: mayMeet). */
  isDemo?: true;
  name: string;
  type: AgentType;
  criteria: Criteria | null;
  /** A lender's range and a borrower's needs as recorded (docs/behaviour/products.md); absent or null: none. */
  products?: ProductRange | null;
  needs?: BorrowerNeeds | null;
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
  /** The lenders' rules the match is explained against; DEFAULT_LENDING_RULES when absent. */
  rules?: LendingRules;
  /** Bank Rate for trackers in sourcing, percent; DEFAULT_BANK_RATE_PERCENT when absent. */
  bankRatePercent?: number;
}
