import { streams, type DomainEvent, type EventMetadata } from '@pf/events';
import { notifyTyping, type Logger, type RecordedEvent, type ServiceContext } from '@pf/infra';
import { brokerMove } from '../automation/negotiation/broker-move';
import { moveEvents } from '../automation/negotiation/move-events';
import { nextMove, whoseTurn, type NegotiationSettings } from '../automation/negotiation/next-move';
import { offerFromOperatorMessage } from '../automation/negotiation/operator-offer';
import { createRng, seedFrom } from '../automation/rng';
import { messageForBroker, messageForMove } from '../automation/words/move-message';
import type { Phraser } from '../automation/words/llm-phrasing';
import { conversationDecider, type ConversationEvent } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { nextId } from '../ids';
import type { AutomationState, ConversationInfo } from './automation-state';
import { deterministicId } from './deterministic-id';


export interface NegotiatorOptions {
  readonly settings: NegotiationSettings;
  readonly replyDelayMs: number;
  readonly phrase: Phraser;
  readonly log: Logger;
}

const MAX_RETRIES = 5;
const RETRY_MS = 500;

interface Turn {
  readonly agentId: number;
  readonly key: string;
  /** The events of the turn, given a message id for its words. */
  compose(messageId: number): Promise<ConversationEvent[] | null>;
}

/**
 * Conducts negotiations: whenever a conversation changes, the agent whose turn it is "types" for a
 * while (AGENT_REPLY_DELAY_MS with jitter), then reads the conversation as it stands and makes its move.
 * Nothing is said in manual mode; switching back lets the agents resume from where things stand.
 */
export class Negotiator {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly failures = new Map<number, number>();
  private closed = false;

  constructor(
    private readonly context: ServiceContext,
    private readonly state: AutomationState,
    private readonly options: NegotiatorOptions,
  ) {}

  /** A person's message that states terms is that side's offer. */
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
    // Recorded as the operator's (not automated) move, so it goes in even in manual mode.
    await handleCommand(
      this.context.store,
      streams.conversation(made.conversationId),
      { ...conversationDecider, decide: () => events },
      null,
      metadata,
      (i) => deterministicId(`${event.id}:operator-offer:${i}`),
    );
  }

  schedule(conversationId: number): void {
    if (this.closed || this.timers.has(conversationId)) return;
    const turn = this.turnIn(conversationId);
    if (!turn) return;
    const delay = Math.round(this.options.replyDelayMs * (0.75 + Math.random() * 0.5));
    const agent = this.state.agents.get(turn.agentId);
    if (delay > 0 && agent) {
      void notifyTyping(this.context.pool, { conversationId, agentId: turn.agentId, agentName: agent.name }).catch(() => undefined);
    }
    const timer = setTimeout(() => {
      this.timers.delete(conversationId);
      void this.act(conversationId).then(
        () => this.failures.delete(conversationId),
        (error: unknown) => {
          // A conflict (someone wrote meanwhile) or a passing database error: try again on what stands then.
          const failures = (this.failures.get(conversationId) ?? 0) + 1;
          this.failures.set(conversationId, failures);
          const retry = failures <= MAX_RETRIES;
          this.options.log.warn({ err: error, conversationId, failures }, `an agent could not make its move${retry ? '; retrying' : ''}`);
          if (retry) setTimeout(() => this.schedule(conversationId), RETRY_MS * failures).unref();
        },
      );
    }, delay);
    this.timers.set(conversationId, timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
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
      (i) => deterministicId(`${turn.key}:${i}`),
    );
  }

  /** Whose move it is, if any agent's: the broker's introduction or suggestion first, then the negotiating side. */
  private turnIn(conversationId: number): Turn | null {
    const conversation = this.state.conversations.get(conversationId);
    const negotiation = conversation?.negotiation;
    if (!conversation || !negotiation || conversation.status !== 'active' || conversation.isManualMode) return null;
    const { settings } = this.options;
    const key = `${conversationId}:${conversation.version}`;
    const rng = createRng(seedFrom(conversationId, conversation.version));
    const broker = brokerMove(negotiation, settings);
    if (broker && negotiation.setup.brokerAgentId !== null) {
      const brokerId = negotiation.setup.brokerAgentId;
      return {
        agentId: brokerId,
        key: `${key}:broker`,
        compose: async (messageId) => {
          const names = { borrower: this.nameOf(conversation, negotiation.setup.borrower.agentId), lender: this.nameOf(conversation, negotiation.setup.lender.agentId) };
          const text = await this.options.phrase(messageForBroker(negotiation, broker, names, rng), this.speaker(conversation, brokerId));
          return [message(conversationId, messageId, brokerId, null, text)];
        },
      };
    }
    const side = whoseTurn(negotiation, settings);
    if (!side) return null;
    const move = nextMove(negotiation, side, settings, rng);
    if (move.kind === 'wait') return null;
    const me = negotiation.setup[side].agentId;
    const them = negotiation.setup[side === 'borrower' ? 'lender' : 'borrower'].agentId;
    return {
      agentId: me,
      key: `${key}:${side}`,
      compose: async (messageId) => {
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

function message(conversationId: number, messageId: number, fromAgentId: number, toAgentId: number | null, content: string): ConversationEvent {
  return { type: 'MessageSent', data: { conversationId, messageId, fromAgentId, toAgentId, content, isAutomated: true } };
}
