import { readStoredEvent, type FeedEnvelope } from '@pf/events';

/**
 * The job's figures, folded from events with no I/O. Everything it keeps is JSON, so it is saved with the
 * position in one checkpoint file. Applying an event is idempotent: each stream's last applied version is kept,
 * and an event at or below it is skipped, so a redelivery (the feed after a restart, Kafka after a lost commit)
 * changes nothing. That needs only what both sources promise: the events of one stream arrive in stream order.
 * No figure depends on the order of different streams (Kafka interleaves them differently from the feed).
 */
export interface FunnelState {
  /** stream → version of the last event applied. */
  applied: Record<string, number>;
  borrowers: number[];
  matched: number[];
  negotiating: number[];
  agreed: number[];
  completed: number[];
  /** conversation id → its borrower agents (from ConversationStarted). */
  conversationBorrowers: Record<string, number[]>;
  /** deal id → its borrower agent (from DealOpened). */
  dealBorrower: Record<string, number>;
  /** UTC day → volumes of that day. */
  daily: Record<string, DailyVolumes>;
}

interface DailyVolumes {
  conversations: number;
  offers: number;
  dealsAgreed: number;
  /** Pounds lent in the deals agreed that day. */
  loansAgreed: number;
}

export function emptyFunnel(): FunnelState {
  return {
    applied: {},
    borrowers: [],
    matched: [],
    negotiating: [],
    agreed: [],
    completed: [],
    conversationBorrowers: {},
    dealBorrower: {},
    daily: {},
  };
}

/** The event types the job asks the feed for (every other type leaves its figures as they are). */
export const FUNNEL_EVENT_TYPES = [
  'AgentCreated',
  'MatchFound',
  'ConversationStarted',
  'OfferMade',
  'DealAgreed',
  'DealOpened',
  'DealStageChanged',
  'DealStatusChanged',
] as const;

const addTo = (list: number[], id: number) => {
  if (!list.includes(id)) list.push(id);
};

const counted = new Set<string>(FUNNEL_EVENT_TYPES);

/**
 * Applies one event; answers false (and changes nothing) when its type is not one the funnel counts, or its
 * stream had already reached it.
 */
export function applyEvent(
  state: FunnelState,
  envelope: Pick<FeedEnvelope, 'stream' | 'streamVersion' | 'type' | 'data' | 'recordedAt'>,
): boolean {
  if (!counted.has(envelope.type)) return false;
  const last = state.applied[envelope.stream];
  if (last !== undefined && envelope.streamVersion <= last) return false;
  state.applied[envelope.stream] = envelope.streamVersion;

  const day = envelope.recordedAt.slice(0, 10);
  const volumes = (state.daily[day] ??= { conversations: 0, offers: 0, dealsAgreed: 0, loansAgreed: 0 });
  const event = readStoredEvent(envelope);
  switch (event.type) {
    case 'AgentCreated':
      if (event.data.type === 'borrower') addTo(state.borrowers, event.data.agentId);
      break;
    case 'MatchFound':
      addTo(state.matched, event.data.borrowerAgentId);
      break;
    case 'ConversationStarted':
      volumes.conversations += 1;
      state.conversationBorrowers[event.data.conversationId] = event.data.participants
        .filter((p) => p.type === 'borrower')
        .map((p) => p.agentId);
      break;
    case 'OfferMade':
      volumes.offers += 1;
      for (const borrower of state.conversationBorrowers[event.data.conversationId] ?? []) addTo(state.negotiating, borrower);
      break;
    case 'DealAgreed':
      volumes.dealsAgreed += 1;
      volumes.loansAgreed += event.data.loanAmount;
      addTo(state.agreed, event.data.borrowerAgentId);
      break;
    case 'DealOpened':
      state.dealBorrower[event.data.dealId] = event.data.borrower.agentId;
      break;
    case 'DealStageChanged':
    case 'DealStatusChanged': {
      const done = event.type === 'DealStageChanged' ? event.data.stage === 'completed' : event.data.status === 'completed';
      const borrower = state.dealBorrower[event.data.dealId];
      if (done && borrower !== undefined) addTo(state.completed, borrower);
      break;
    }
    default:
      break;
  }
  return true;
}

export interface FunnelStage {
  readonly stage: string;
  readonly count: number;
}

/** The funnel's stages, each a number of borrower agents. */
export function funnelStages(state: FunnelState): FunnelStage[] {
  return [
    { stage: 'Borrowers', count: state.borrowers.length },
    { stage: 'Matched', count: state.matched.length },
    { stage: 'Negotiating', count: state.negotiating.length },
    { stage: 'Agreed', count: state.agreed.length },
    { stage: 'Completed', count: state.completed.length },
  ];
}
