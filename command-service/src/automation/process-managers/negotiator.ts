import { backoffDelay, isAgentSilenced, streams, type AgentMove, type DomainEvent, type EventMetadata } from '@pf/events';
import { ConcurrencyConflict, DomainError, metrics, notifyTyping, type Logger, type ServiceContext } from '@pf/infra';
import { brokerMove } from '../negotiation/broker-move';
import { moveIntent } from '../negotiation/move-intent';
import { nextMove, whoseTurn, type NegotiationSettings } from '../negotiation/next-move';
import { composeMessage } from '../words/phrases';
import { outsideOptions } from '../negotiation/outside-options';
import { createRng, seedFrom } from '../rng';
import { messageForBroker, messageForMove } from '../words/move-message';
import type { Phraser } from '../words/llm-phrasing';
import { conversationDecider } from '../../conversation/conversation';
import { handleCommand } from '../../handle-command';
import { nextId } from '../../ids';
import type { AutomationState, ConversationInfo } from './automation-state';
import { committedElsewhere, NeedCommittedElsewhere, needDecider, type NeedState } from '../../need/need';
import { readNeed } from '../../need/read-need';
import { deterministicId } from './deterministic-id';

export interface NegotiatorOptions {
  readonly settings: NegotiationSettings;
  readonly replyDelayMs: number;
  readonly phrase: Phraser;
  readonly log: Logger;
  readonly retry?: Partial<RetryPolicy>;
  /** The jitter's randomness (Math.random unless a simulation supplies its own, seeded). */
  readonly random?: () => number;
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
  /** The borrower whose need an offer or an acceptance is decided against (null: a broker's words). */
  readonly borrowerId: number | null;
  /** Set when the move agrees terms: the need is committed to this deal before the acceptance is recorded. */
  readonly agreement?: { dealId: string; lenderAgentId: number; lenderName: string; borrowerName: string };
  /** Set when the move leaves the conversation because the borrower's need is committed elsewhere. */
  readonly leaving?: true;
  /** The turn: its words (none: it says nothing) and its move, the intent the conversation decides the offer events from. */
  compose(): Promise<ComposedTurn>;
}

interface ComposedTurn {
  readonly words: string | null;
  readonly move: AgentMove | null;
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
    this.random = options.random ?? Math.random;
  }

  private readonly random: () => number;

  /** Moves scheduled or under way: none means the negotiator has nothing left to do until an event arrives. */
  get pending(): number {
    return this.timers.size + this.acting.size;
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
    const delay = Math.round(this.options.replyDelayMs * (0.75 + this.random() * 0.5));
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
      const stored = await this.act(conversationId);
      if (stored) countMove(stored);
      this.failures.delete(conversationId);
      this.stalled.delete(conversationId);
    } catch (error) {
      if (error instanceof ConcurrencyConflict || error instanceof NeedCommittedElsewhere) {
        // The conversation moved on after the move was decided (an operator's offer, a manual takeover), or the
        // borrower's need was committed elsewhere meanwhile: nothing was recorded; the move is decided again
        // when that change reaches the state (the agent then leaves the conversation).
        this.options.log.debug({ conversationId }, 'a move decided on an older state was dropped');
        metrics.automatedMoves.inc({ outcome: 'superseded' });
      } else {
        metrics.automatedMoves.inc({ outcome: 'failed' });
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
    const waitMs = backoffDelay(failures - 1, { baseMs, maxMs }, () => this.random());
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
    const metadata: EventMetadata = {
      actor: { kind: 'system', name: 'negotiator' },
      correlationId: streams.conversation(conversationId),
      causationId: key,
    };
    await handleCommand(
      this.context.store,
      streams.conversation(conversationId),
      conversationDecider,
      { type: 'RecordStall', conversationId, agentId, reason },
      metadata,
      (i) => deterministicId(`${key}:${i}`),
    );
  }

  /** Makes the move due, if any; answers the events stored (null when there was none to make). */
  private async act(conversationId: number): Promise<readonly DomainEvent[] | null> {
    // The conversation may have moved on while the agent was typing: decide on what stands now.
    const turn = this.turnIn(conversationId);
    if (!turn || this.closed) return null;
    const { store, pool } = this.context;
    const { words, move } = await turn.compose();
    if (words === null && move === null) return null;
    const messageId = await nextId(pool, 'message_ids');
    const message = words === null ? undefined : { messageId, content: words };
    const metadata: EventMetadata = {
      actor: { kind: 'agent', agentId: turn.agentId },
      correlationId: streams.conversation(conversationId),
      causationId: turn.key,
    };
    const eventId = (i: number) => deterministicId(`${turn.key}:${i}`);
    const stream = streams.conversation(conversationId);
    if (turn.leaving && turn.borrowerId !== null) {
      const need = await readNeed(store, turn.borrowerId);
      const ended = await handleCommand(
        store,
        stream,
        conversationDecider,
        { type: 'EndForCommitment', conversationId, byAgentId: turn.agentId, need, message: { messageId, content: words ?? '' } },
        metadata,
        eventId,
      );
      return ended.events;
    }
    let need: NeedState | undefined = turn.borrowerId === null ? undefined : await readNeed(store, turn.borrowerId);
    const agreement = turn.agreement;
    if (agreement && turn.borrowerId !== null) {
      // The commitment first, at the need's expected version: of two conversations agreeing at once, one wins;
      // the other is refused here (NeedCommittedElsewhere) and records nothing.
      const committed = await handleCommand(
        store,
        streams.need(turn.borrowerId),
        needDecider,
        {
          type: 'CommitNeed',
          borrowerAgentId: turn.borrowerId,
          borrowerName: agreement.borrowerName,
          commitment: {
            conversationId,
            dealId: agreement.dealId,
            lenderAgentId: agreement.lenderAgentId,
            lenderName: agreement.lenderName,
          },
        },
        metadata,
        (i) => deterministicId(`${turn.key}:commit:${i}`),
      );
      need = committed.state;
    }
    try {
      const moved = await handleCommand(
        store,
        stream,
        conversationDecider,
        {
          type: 'RecordAgentTurn',
          conversationId,
          agentId: turn.agentId,
          ...(message ? { message } : {}),
          ...(move ? { move } : {}),
          ...(need ? { need } : {}),
        },
        metadata,
        {
          eventId,
          expectedVersion: { version: turn.version, from: 'own copy' },
        },
      );
      return moved.events;
    } catch (error) {
      if (agreement && turn.borrowerId !== null)
        await this.releaseUnlessAgreed(turn.borrowerId, conversationId, agreement.dealId, metadata);
      throw error;
    }
  }

  /**
   * A commitment whose acceptance was not recorded (the conversation moved on meanwhile) is given up at once,
   * unless the conversation holds that deal after all; the acceptance, decided again, commits again.
   */
  private async releaseUnlessAgreed(borrowerId: number, conversationId: number, dealId: string, metadata: EventMetadata): Promise<void> {
    const { store } = this.context;
    const recorded = await store.readStream(streams.conversation(conversationId));
    if (recorded.some((event) => event.type === 'DealAgreed' && event.data.dealId === dealId)) return;
    await handleCommand(
      store,
      streams.need(borrowerId),
      needDecider,
      {
        type: 'ReopenNeed',
        borrowerAgentId: borrowerId,
        reason: 'the acceptance it was committed for was not recorded',
        onlyIfDealId: dealId,
      },
      metadata,
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
        borrowerId: null,
        compose: async () => {
          const names = {
            borrower: this.nameOf(conversation, negotiation.setup.borrower.agentId),
            lender: this.nameOf(conversation, negotiation.setup.lender.agentId),
          };
          const text = await this.options.phrase(messageForBroker(negotiation, broker, names, rng), this.speaker(conversation, brokerId));
          return { words: text, move: null };
        },
      };
    }
    const borrowerId = negotiation.setup.borrower.agentId;
    const lenderId = negotiation.setup.lender.agentId;
    // The borrower's need is committed to an agreement elsewhere: the first automated principal leaves politely
    // (the borrower's agent withdraws; else the lender's closes); with both sides held by people, it waits on them.
    const commitment = committedElsewhere(this.state.needs.get(borrowerId), conversationId);
    if (commitment) {
      const leaver = [borrowerId, lenderId].find((agentId) => !isAgentSilenced(conversation, agentId));
      if (leaver === undefined) return null;
      const side = leaver === borrowerId ? 'borrower' : 'lender';
      return {
        agentId: leaver,
        key: `${key}:${side}:leave`,
        version: conversation.version,
        borrowerId,
        leaving: true,
        compose: async () => {
          const draft = composeMessage({ kind: 'withdraw', side }, rng);
          return { words: await this.options.phrase(draft, this.speaker(conversation, leaver)), move: null };
        },
      };
    }
    const side = whoseTurn(negotiation, settings);
    if (!side) return null;
    // What this side holds in its other conversations (a borrower accepts only the best offer it holds).
    const others = [...this.state.conversations.values()].flatMap((c) => (c.negotiation ? [c.negotiation] : []));
    const options = outsideOptions(negotiation, side, others);
    const move = nextMove(negotiation, side, settings, { ...options, agreedElsewhere: false });
    if (move.kind === 'wait') return null;
    const me = negotiation.setup[side].agentId;
    if (isAgentSilenced(conversation, me)) return null;
    const dealId = deterministicId(`${conversationId}:deal`);
    return {
      agentId: me,
      key: `${key}:${side}`,
      version: conversation.version,
      borrowerId,
      ...(move.kind === 'accept'
        ? {
            agreement: {
              dealId,
              lenderAgentId: lenderId,
              lenderName: this.nameOf(conversation, lenderId),
              borrowerName: this.nameOf(conversation, borrowerId),
            },
          }
        : {}),
      compose: async () => {
        const draft = messageForMove(negotiation, side, move, rng);
        const intent = moveIntent(negotiation, move, { offerId: deterministicId(`${key}:${side}:offer`), dealId });
        return { words: draft ? await this.options.phrase(draft, this.speaker(conversation, me)) : null, move: intent };
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

/** A move stored, and the negotiation it ended, by outcome (docs/operations/observability.md). */
function countMove(stored: readonly DomainEvent[]): void {
  metrics.automatedMoves.inc({ outcome: 'made' });
  for (const event of stored) if (event.type === 'ConversationCompleted') metrics.negotiations.inc({ outcome: event.data.outcome });
}
