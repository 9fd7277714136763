import { isAgentSilenced, streams, type DomainEvent, type EventMetadata } from '@pf/events';
import { ConcurrencyConflict, DomainError, notifyTyping, type Logger, type RecordedEvent, type ServiceContext } from '@pf/infra';
import { brokerMove } from '../automation/negotiation/broker-move';
import { moveEvents } from '../automation/negotiation/move-events';
import { nextMove, whoseTurn, type NegotiationSettings } from '../automation/negotiation/next-move';
import { offerFromOperatorMessage } from '../automation/negotiation/operator-offer';
import { outsideOptions } from '../automation/negotiation/outside-options';
import { createRng, seedFrom } from '../automation/rng';
import { messageForBroker, messageForMove } from '../automation/words/move-message';
import type { Phraser } from '../automation/words/llm-phrasing';
import { conversationDecider, type ConversationEvent } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { nextId } from '../ids';
import type { AutomationState, ConversationInfo } from './automation-state';
import { claimDeal } from './deal-claim';
import { deterministicId } from './deterministic-id';

export interface NegotiatorOptions {
  readonly settings: NegotiationSettings;
  readonly replyDelayMs: number;
  readonly phrase: Phraser;
  readonly log: Logger;
  readonly retry?: Partial<RetryPolicy>;
}

export interface RetryPolicy {
  /** First wait after a failed move; it doubles with each failure in a row (with jitter) up to maxMs. */
  readonly baseMs: number;
  readonly maxMs: number;
  /** Failures in a row after which the conversation is recorded as stalled (it is still retried). */
  readonly stallAfter: number;
}

const DEFAULT_RETRY: RetryPolicy = { baseMs: 500, maxMs: 60_000, stallAfter: 5 };

interface Turn {
  readonly agentId: number;
  readonly key: string;
  /** The stream version the move was decided on: it is appended there or not at all. */
  readonly version: number;
  /** The events of the turn, given a message id for its words. */
  compose(messageId: number): Promise<ConversationEvent[] | null>;
}

/**
 * Conducts negotiations: whenever a conversation changes, the agent whose turn it is "types" for a
 * while (AGENT_REPLY_DELAY_MS with jitter), then reads the conversation as it stands and makes its move.
 * Nothing is said in manual mode; switching back lets the agents resume from where things stand.
 *
 * A move is appended at the stream version it was decided on: if an operator's offer or a manual takeover
 * landed meanwhile, the append conflicts and the move is decided again once that change is seen. Any other
 * failure is retried with capped, jittered backoff, forever; after `stallAfter` failures in a row the
 * conversation is recorded as stalled (ConversationStalled, with the reason), so it never stops silently.
 */
export class Negotiator {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly failures = new Map<number, number>();
  /** Conversations whose move is being made now, and those asked about meanwhile (looked at again after). */
  private readonly acting = new Set<number>();
  private readonly askedWhileActing = new Set<number>();
  /** Conversations recorded as stalled in the current run of failures (one event per run, not per retry). */
  private readonly stalled = new Set<number>();
  private readonly retry: RetryPolicy;
  private closed = false;

  constructor(
    private readonly context: ServiceContext,
    private readonly state: AutomationState,
    private readonly options: NegotiatorOptions,
  ) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /**
   * A person's message that states terms is that side's offer. It is the translation of a recorded fact,
   * not a decision on what the automation believes, so it goes after whatever stands (ids derived from the
   * message: a redelivery stores nothing twice).
   */
  async readOperatorMessage(event: RecordedEvent): Promise<void> {
    const message = event.data as Extract<DomainEvent, { type: 'MessageSent' }>['data'];
    const conversation = this.state.conversations.get(message.conversationId);
    if (!conversation?.negotiation || message.isAutomated) return;
    const offer = offerFromOperatorMessage(conversation.negotiation, message);
    if (!offer) return;
    const { rejectOfferId, ...made } = offer;
    const events: ConversationEvent[] = [
      ...(rejectOfferId ? [{ type: 'OfferRejected' as const, data: { conversationId: made.conversationId, offerId: rejectOfferId, byAgentId: made.fromAgentId } }] : []),
      { type: 'OfferMade', data: { ...made, offerId: deterministicId(`${event.id}:operator-offer`) } },
    ];
    const metadata: EventMetadata = { ...event.metadata, causationId: event.id };
    // Recorded as the operator's (not automated) move, so it goes in even in manual mode; the operator may be
    // typing on, so a conflict is decided again on what stands then.
    await handleCommand(
      this.context.store,
      streams.conversation(made.conversationId),
      { ...conversationDecider, decide: () => events },
      null,
      metadata,
      (i) => deterministicId(`${event.id}:operator-offer:${i}`),
    );
  }

  /** A conversation changed (or may have): its next move, if any, after the agent's typing delay. */
  schedule(conversationId: number): void {
    if (this.closed || this.timers.has(conversationId)) return;
    if (this.acting.has(conversationId)) {
      this.askedWhileActing.add(conversationId);
      return;
    }
    let turn: Turn | null;
    try {
      turn = this.turnIn(conversationId);
    } catch {
      // The engine itself failed on this state: an attempt now counts and reports it like any failure.
      return this.after(conversationId, 0);
    }
    if (!turn) return;
    const delay = Math.round(this.options.replyDelayMs * (0.75 + Math.random() * 0.5));
    const agent = this.state.agents.get(turn.agentId);
    if (delay > 0 && agent) {
      void notifyTyping(this.context.pool, { conversationId, agentId: turn.agentId, agentName: agent.name }).catch(() => undefined);
    }
    this.after(conversationId, delay);
  }

  /** A completed conversation leaves memory here too. */
  forget(conversationId: number): void {
    const timer = this.timers.get(conversationId);
    if (timer) clearTimeout(timer);
    this.timers.delete(conversationId);
    this.failures.delete(conversationId);
    this.stalled.delete(conversationId);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private after(conversationId: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(conversationId);
      void this.attempt(conversationId);
    }, delayMs);
    timer.unref();
    this.timers.set(conversationId, timer);
  }

  private async attempt(conversationId: number): Promise<void> {
    if (this.closed || this.acting.has(conversationId)) return;
    this.acting.add(conversationId);
    let retryInMs: number | null = null;
    try {
      await this.act(conversationId);
      this.failures.delete(conversationId);
      this.stalled.delete(conversationId);
    } catch (error) {
      if (error instanceof ConcurrencyConflict) {
        // The conversation moved on after the move was decided (an operator's offer, a manual takeover):
        // nothing was recorded; the move is decided again when that change reaches the state.
        this.options.log.debug({ conversationId }, 'a move decided on an older state was dropped');
      } else {
        retryInMs = await this.failed(conversationId, error);
      }
    } finally {
      this.acting.delete(conversationId);
    }
    if (this.closed) return;
    if (retryInMs !== null) this.after(conversationId, retryInMs);
    else if (this.askedWhileActing.delete(conversationId)) this.schedule(conversationId);
  }

  /** Counts the failure, records a stall once the streak is long enough, and says when to try again. */
  private async failed(conversationId: number, error: unknown): Promise<number> {
    const failures = (this.failures.get(conversationId) ?? 0) + 1;
    this.failures.set(conversationId, failures);
    const { baseMs, maxMs, stallAfter } = this.retry;
    const waitMs = Math.round(Math.min(maxMs, baseMs * 2 ** (failures - 1)) * (0.75 + Math.random() * 0.5));
    this.options.log.warn({ err: error, conversationId, failures, retryInMs: waitMs }, 'an agent could not make its move; retrying');
    const conversation = this.state.conversations.get(conversationId);
    if (failures >= stallAfter && conversation?.status === 'active' && !this.stalled.has(conversationId)) {
      try {
        await this.recordStall(conversation, failures, error);
        this.stalled.add(conversationId);
      } catch (stallError) {
        this.options.log.warn({ err: stallError, conversationId }, 'could not record that the conversation is stalled');
      }
    }
    return waitMs;
  }

  private async recordStall(conversation: ConversationInfo, failures: number, error: unknown): Promise<void> {
    const { conversationId, version } = conversation;
    let agentId: number | null = null;
    try {
      agentId = this.turnIn(conversationId)?.agentId ?? null;
    } catch {
      // The engine cannot even say whose turn it is; the reason says what failed.
    }
    const who = agentId === null ? 'The agents' : this.agentName(agentId);
    const reason = `${who} could not make the next move (${failures} attempts in a row): ${describeFailure(error)}; still trying`;
    const key = `${conversationId}:${version}:stalled`;
    const metadata: EventMetadata = { actor: { kind: 'system', name: 'negotiator' }, correlationId: `conversation-${conversationId}`, causationId: key };
    await handleCommand(
      this.context.store,
      streams.conversation(conversationId),
      conversationDecider,
      { type: 'RecordStall', conversationId, agentId, reason },
      metadata,
      (i) => deterministicId(`${key}:${i}`),
    );
  }

  private async act(conversationId: number): Promise<void> {
    // The conversation may have moved on while the agent was typing: decide on what stands now.
    const turn = this.turnIn(conversationId);
    if (!turn || this.closed) return;
    const messageId = await nextId(this.context.pool, 'message_ids');
    const events = await turn.compose(messageId);
    if (!events || events.length === 0) return;
    const metadata: EventMetadata = { actor: { kind: 'agent', agentId: turn.agentId }, correlationId: `conversation-${conversationId}`, causationId: turn.key };
    await handleCommand(
      this.context.store,
      streams.conversation(conversationId),
      conversationDecider,
      { type: 'RecordAgentTurn', conversationId, agentId: turn.agentId, events },
      metadata,
      { eventId: (i) => deterministicId(`${turn.key}:${i}`), decidedAt: turn.version },
    );
  }

  private agentName(agentId: number): string {
    return this.state.agents.get(agentId)?.name ?? `Agent ${agentId}`;
  }

  /** Whose move it is, if any agent's: the broker's introduction or suggestion first, then the negotiating side. */
  private turnIn(conversationId: number): Turn | null {
    const conversation = this.state.conversations.get(conversationId);
    const negotiation = conversation?.negotiation;
    if (!conversation || !negotiation || conversation.status !== 'active') return null;
    const { settings } = this.options;
    const key = `${conversationId}:${conversation.version}`;
    const rng = createRng(seedFrom(conversationId, conversation.version));
    const broker = brokerMove(negotiation, settings);
    // Control is per side: an agent whose owner has taken over says nothing; the other side's carries on.
    if (broker && negotiation.setup.brokerAgentId !== null && !isAgentSilenced(conversation, negotiation.setup.brokerAgentId)) {
      const brokerId = negotiation.setup.brokerAgentId;
      return {
        agentId: brokerId,
        key: `${key}:broker`,
        version: conversation.version,
        compose: async (messageId) => {
          const names = { borrower: this.nameOf(conversation, negotiation.setup.borrower.agentId), lender: this.nameOf(conversation, negotiation.setup.lender.agentId) };
          const text = await this.options.phrase(messageForBroker(negotiation, broker, names, rng), this.speaker(conversation, brokerId));
          return [message(conversationId, messageId, brokerId, null, text)];
        },
      };
    }
    const side = whoseTurn(negotiation, settings);
    if (!side) return null;
    // Issue 16: what this side holds in its other conversations (a borrower keeps the best offer).
    const others = [...this.state.conversations.values()].flatMap((c) => (c.negotiation ? [c.negotiation] : []));
    const options = outsideOptions(negotiation, side, others);
    // The conversation a borrower agreed in leaves the state when it completes; this one remembers it.
    const agreedElsewhere = options.agreedElsewhere || conversation.borrowerAgreedElsewhere === true;
    const move = nextMove(negotiation, side, settings, rng, { ...options, agreedElsewhere });
    if (move.kind === 'wait') return null;
    const me = negotiation.setup[side].agentId;
    if (isAgentSilenced(conversation, me)) return null;
    const them = negotiation.setup[side === 'borrower' ? 'lender' : 'borrower'].agentId;
    return {
      agentId: me,
      key: `${key}:${side}`,
      version: conversation.version,
      compose: async (messageId) => {
        if (move.kind === 'accept' && !(await claimDeal(this.context.pool, this.state, negotiation))) return null;
        const draft = messageForMove(negotiation, side, move, rng);
        const ids = { offerId: deterministicId(`${key}:${side}:offer`), dealId: deterministicId(`${conversationId}:deal`) };
        const decided = moveEvents(negotiation, side, move, ids) as ConversationEvent[];
        const said = draft ? [message(conversationId, messageId, me, them, await this.options.phrase(draft, this.speaker(conversation, me)))] : [];
        return [...said, ...decided];
      },
    };
  }

  private speaker(conversation: ConversationInfo, agentId: number) {
    const participant = conversation.participants.find((p) => p.agentId === agentId);
    return { speaker: participant?.name ?? `Agent ${agentId}`, role: participant?.type ?? 'broker' };
  }

  private nameOf(conversation: ConversationInfo, agentId: number): string {
    return conversation.participants.find((p) => p.agentId === agentId)?.name ?? `Agent ${agentId}`;
  }
}

/** Operators read this in the conversation's status: a domain error's own words, else what failed. */
function describeFailure(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 200);
}

function message(conversationId: number, messageId: number, fromAgentId: number, toAgentId: number | null, content: string): ConversationEvent {
  return { type: 'MessageSent', data: { conversationId, messageId, fromAgentId, toAgentId, content, isAutomated: true } };
}
