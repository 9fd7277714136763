import {
  agentsView,
  evolveAgent,
  evolveConversation,
  mayMeet,
  productRangeOf,
  readCriteria,
  source,
  DEFAULT_BANK_RATE_PERCENT,
  type BorrowerNeeds,
  type SourcedProduct,
  type Agent,
  type Conversation,
  type DomainEvent,
} from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { MatchableAgent, OpenConversation } from '../../matching/matchable';
import { criteriaFingerprint, pairKey } from '../../matching/plan-matches';
import { DEFAULT_LENDING_RULES, type LendingRules } from '../negotiation/lending-rules';
import { negotiatedNeeds, negotiationSetup } from '../negotiation/setup';
import { evolveNegotiation, initialNegotiationState, type NegotiationState } from '../negotiation/state';
import { needDecider, type NeedState } from '../../need/need';

/** An agent as the shared agents view folds it, with its id under the name the matcher uses. */
export type AgentInfo = Agent & MatchableAgent;

/** A conversation as the shared conversations view folds it, plus what only the automation keeps. */
export interface ConversationInfo extends Conversation {
  conversationId: number;
  /** The stream version of the last event seen, for the next append's expected version. */
  version: number;
  /** Null when the conversation lacks a borrower or a lender (nothing to negotiate). */
  negotiation: NegotiationState | null;
  /**
   * One of its agents was paused or deleted while it was open: if it then ends as stopped, that pair never
   * finished negotiating, so it is forgotten and may be matched again (once the agent is resumed).
   */
  stoppedByAgent?: true;
}

/**
 * What the automated agents know, evolved from the event stream alone (no I/O), so a restart rebuilds it:
 * the agents and conversations views (the same folds as the read models and the gateway) and, per
 * conversation, the negotiation (its own view, in automation/negotiation/state.ts).
 */
export class AutomationState {
  readonly agents = new Map<number, AgentInfo>();
  readonly conversations = new Map<number, ConversationInfo>();
  /**
   * Each borrower's need as its stream stands (docs/decisions/one-commitment-per-need.md), so the matcher passes
   * over a committed borrower and its other conversations are left. The rule itself is the deciders'; this is
   * only what the automation has seen of it.
   */
  readonly needs = new Map<number, NeedState>();
  /**
   * Every borrower–lender pair that has had a conversation (pairKey → criteriaFingerprint of both agents' criteria
   * when it started), so the matcher does not open the same negotiation again (it would end the same way). A
   * few bytes per pair, not the conversations; snapshotted. Forgotten when a pause or deletion stopped the
   * conversation, and when either agent is deleted.
   */
  readonly negotiatedPairs = new Map<string, string>();
  /** Borrowers whose conversations completed since the reactor last asked: a held-back acceptance may now go ahead. */
  private endedBorrowers = new Set<number>();
  /** Counts agent events, so a borrower's sourced market (below) is known to be current. */
  private agentsVersion = 0;
  /**
   * Per borrower, its market as sourcing ranks it (every lender it may meet), kept while no agent changes: the
   * matcher opens a borrower's few conversations one after another, and each prices its reservation from it.
   * Derived (not snapshotted): a new leader sources again.
   */
  private readonly sourcedMarkets = new Map<number, { key: string; lines: SourcedProduct[] }>();

  /**
   * `rules`: the lenders' income multiple and interest cover; `bankRatePercent`: Bank Rate for trackers (both from the
   * configuration), with which each negotiation's case is sourced and priced (docs/behaviour/negotiation.md).
   */
  constructor(
    private readonly rules: LendingRules = DEFAULT_LENDING_RULES,
    private readonly bankRatePercent: number = DEFAULT_BANK_RATE_PERCENT,
  ) {}

  observe(event: RecordedEvent): void {
    const at = event.recordedAt.toISOString();
    const agentId = agentsView.keyOf(event);
    if (event.type === 'NeedCommitted' || event.type === 'NeedReopened') {
      const borrowerId = event.data.borrowerAgentId;
      const need = needDecider.evolve(this.needs.get(borrowerId) ?? needDecider.initialState, event);
      if (need.committed) this.needs.set(borrowerId, need);
      else this.needs.delete(borrowerId);
    } else if (agentId !== null) {
      this.agentsVersion += 1;
      const before = this.agents.get(agentId) ?? null;
      const after = evolveAgent(before, event, at);
      if (after && after !== before) this.agents.set(agentId, { ...after, agentId });
      if (event.type === 'AgentPaused' || event.type === 'AgentDeleted') this.markStoppedBy(agentId);
      if (event.type === 'AgentDeleted') this.forgetPairsOf(agentId);
    } else if ('conversationId' in event.data) {
      const before = this.conversations.get(event.data.conversationId);
      this.observeConversation(event.data.conversationId, event, at, event.streamVersion);
      this.rememberPair(event, before);
    }
  }

  /**
   * Recorded at every ConversationStarted, also when the matcher observed it already before it was read back: the
   * criteria then are those of the stream's order, so a replay from zero records the same fingerprint.
   */
  private rememberPair(event: DomainEvent, before: ConversationInfo | undefined): void {
    const participants = event.type === 'ConversationStarted' ? event.data.participants : before?.participants;
    const borrower = participants?.find((p) => p.type === 'borrower');
    const lender = participants?.find((p) => p.type === 'lender');
    if (!borrower || !lender) return;
    const key = pairKey(borrower.agentId, lender.agentId);
    if (event.type === 'ConversationStarted') {
      const criteriaOf = (agentId: number) => this.agents.get(agentId)?.criteria ?? null;
      this.negotiatedPairs.set(key, criteriaFingerprint(criteriaOf(borrower.agentId), criteriaOf(lender.agentId)));
    } else if (event.type === 'ConversationCompleted' && event.data.outcome === 'stopped' && before?.stoppedByAgent) {
      this.negotiatedPairs.delete(key);
    }
  }

  private markStoppedBy(agentId: number): void {
    for (const conversation of this.conversations.values()) {
      if (conversation.status === 'active' && conversation.participants.some((p) => p.agentId === agentId))
        conversation.stoppedByAgent = true;
    }
  }

  private forgetPairsOf(agentId: number): void {
    for (const key of this.negotiatedPairs.keys()) {
      if (key.split(':').map(Number).includes(agentId)) this.negotiatedPairs.delete(key);
    }
  }

  /** The borrowers whose conversations completed since the last call (bounded by the agents known). */
  takeEndedBorrowers(): number[] {
    const ended = [...this.endedBorrowers];
    this.endedBorrowers.clear();
    return ended;
  }

  /** The agents that may be matched: active, and no borrower whose need is committed to an agreement. */
  activeAgents(): MatchableAgent[] {
    return [...this.agents.values()].filter((agent) => agent.isActive && !agent.isDeleted && !this.needs.get(agent.agentId)?.committed);
  }

  openConversations(): OpenConversation[] {
    return [...this.conversations.values()]
      .filter((c) => c.status === 'active')
      .map((c) => ({ conversationId: c.conversationId, agentIds: c.participants.map((p) => p.agentId) }));
  }

  /** Every event of a conversation's stream counts for its version and its negotiation, deals included. */
  private observeConversation(conversationId: number, event: DomainEvent, at: string, streamVersion: number): void {
    const before = this.conversations.get(conversationId);
    const view = evolveConversation(before ?? null, event, at);
    if (!view) return;
    const negotiation = before?.negotiation ? evolveNegotiation(before.negotiation, event) : null;
    const borrowerId = negotiation?.setup.borrower.agentId;
    // A completed conversation leaves memory: nothing more is negotiated or matched against it.
    if (view.status === 'completed') {
      this.conversations.delete(conversationId);
      if (borrowerId !== undefined) this.endedBorrowers.add(borrowerId);
      return;
    }
    if (!before) {
      this.conversations.set(conversationId, { ...view, conversationId, version: 0, negotiation: this.negotiationOf(view) });
      return;
    }
    this.conversations.set(conversationId, {
      ...view,
      conversationId,
      version: Math.max(before.version, streamVersion),
      negotiation,
      ...(before.stoppedByAgent ? { stoppedByAgent: true as const } : {}),
    });
  }

  /** The borrower's market: every active lender it may meet with a range, sourced for these needs (its reservation is the best other). */
  private sourcedMarket(borrower: AgentInfo, needs: BorrowerNeeds): SourcedProduct[] {
    const key = `${this.agentsVersion}:${JSON.stringify(needs)}`;
    const known = this.sourcedMarkets.get(borrower.agentId);
    if (known?.key === key) return known.lines;
    const lenders = [...this.agents.values()].flatMap((agent) => {
      if (agent.type !== 'lender' || !agent.isActive || agent.isDeleted || !mayMeet(borrower, agent)) return [];
      const range = productRangeOf(agent);
      return range ? [{ agentId: agent.agentId, name: agent.name, range, criteria: readCriteria(agent.criteria) }] : [];
    });
    const lines = source(needs, readCriteria(borrower.criteria), lenders, this.bankRatePercent, this.rules);
    this.sourcedMarkets.set(borrower.agentId, { key, lines });
    return lines;
  }

  private negotiationOf(conversation: Conversation): NegotiationState | null {
    const { participants } = conversation;
    const borrower = participants.find((p) => p.type === 'borrower');
    const lender = participants.find((p) => p.type === 'lender');
    const broker = participants.find((p) => p.type === 'broker');
    if (!borrower || !lender) return null;
    const borrowerAgent = this.agents.get(borrower.agentId);
    const lenderAgent = this.agents.get(lender.agentId);
    const needs = borrowerAgent ? negotiatedNeeds(borrowerAgent, lenderAgent?.criteria ?? null) : null;
    const setup = negotiationSetup(
      {
        agentId: borrower.agentId,
        needs,
        criteria: borrowerAgent?.criteria ?? null,
        sourced: borrowerAgent && needs ? this.sourcedMarket(borrowerAgent, needs) : [],
        ...(borrowerAgent?.strategy ? { strategy: borrowerAgent.strategy } : {}),
      },
      {
        agentId: lender.agentId,
        name: lender.name,
        range: lenderAgent ? productRangeOf(lenderAgent) : null,
        criteria: lenderAgent?.criteria ?? null,
        ...(lenderAgent?.strategy ? { strategy: lenderAgent.strategy } : {}),
      },
      broker?.agentId ?? null,
      { bankRatePercent: this.bankRatePercent, rules: this.rules },
    );
    return initialNegotiationState(conversation.id, setup);
  }
}
