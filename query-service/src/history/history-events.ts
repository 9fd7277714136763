import {
  formatPosition,
  isOwnSide,
  servedOfferFigures,
  type DomainEvent,
  type HistoryEvent,
  type OfferedProduct,
  type OfferFigures,
  type Participant,
} from '@pf/events';
import { contentDigest } from '@pf/infra';
import type { HistoryRecord } from './load-history';
import { actorOf, kindOf, summarise, type SummaryContext } from './summaries';

/**
 * Another owner's agent events show only who the agent is: its criteria and strategy are its owner's limits,
 * which a counterparty must not learn by reading the history.
 */
type Visible = Pick<HistoryEvent, 'data' | 'metadata' | 'redacted' | 'contentDigest'>;

function visibleData(record: HistoryRecord, participants: readonly Participant[], viewerFirmId: string | null): Visible {
  const { event, recorded } = record;
  // An erased copy (a party deleted their account) shows what is left, with the stored event's digest for its link.
  const whole: Visible = record.storedDigest
    ? { data: recorded.data, metadata: recorded.metadata, redacted: true, contentDigest: record.storedDigest }
    : { data: recorded.data, metadata: recorded.metadata, redacted: false, contentDigest: null };
  const agentId = event && recorded.stream.startsWith('agent-') && 'agentId' in event.data ? event.data.agentId : undefined;
  if (!event || agentId === undefined) return whole;
  const owner = participants.find((p) => p.agentId === agentId);
  // viewerFirmId: the reading firm's id; its own agents' events are shown whole (visibility.ts: isOwnSide).
  if (!owner || viewerFirmId === null || isOwnSide(owner, viewerFirmId)) return whole;
  if (event.type === 'AgentCreated' || event.type === 'AgentUpdated') {
    // The digest is what the hash covers in place of the hidden fields, so the chain still checks offline.
    return {
      data: { agentId, name: event.data.name },
      metadata: null,
      redacted: true,
      contentDigest: record.storedDigest ?? contentDigest(recorded),
    };
  }
  return whole;
}

/**
 * The regulated figures of the terms an event records (docs/behaviour/offers.md): an offer's, an acceptance's (the
 * product is the accepted offer's, which `products` holds by offer id) and an agreement's; none for other events.
 */
function figuresOf(event: DomainEvent | null, products: ReadonlyMap<string, OfferedProduct | undefined>): OfferFigures | null {
  switch (event?.type) {
    case 'OfferMade':
      return servedOfferFigures(event.data.terms, event.data.product);
    case 'OfferAccepted':
      return servedOfferFigures(event.data.terms, products.get(event.data.offerId));
    case 'DealAgreed': {
      const { loanAmount, interestRate, termYears, arrangementFee } = event.data;
      return servedOfferFigures({ loanAmount, interestRate, termYears, arrangementFee }, event.data.product);
    }
    default:
      return null;
  }
}

/**
 * `viewerFirmId` null: the auditor's CLI, which runs with the database's own access and sees everything. `whole`: the
 * conversation's whole history when `records` is a page of it (an acceptance's product is its offer's, perhaps on an
 * earlier page).
 */
export function toHistoryEvents(
  records: readonly HistoryRecord[],
  participants: readonly Participant[],
  viewerFirmId: string | null,
  personName: (userId: string) => string,
  whole: readonly HistoryRecord[] = records,
  personPhoto?: (userId: string) => string | null,
): HistoryEvent[] {
  const context: SummaryContext = { participants, personName, ...(personPhoto ? { personPhoto } : {}) };
  const products = new Map<string, OfferedProduct | undefined>();
  for (const { event } of whole) if (event?.type === 'OfferMade') products.set(event.data.offerId, event.data.product);
  return records.map((record) => {
    const { recorded, event } = record;
    const actor = actorOf(event, recorded.metadata, context);
    const figures = figuresOf(event, products);
    return {
      id: recorded.id,
      position: formatPosition(recorded.position),
      stream: recorded.stream,
      streamVersion: recorded.streamVersion,
      recordedAt: recorded.recordedAt.toISOString(),
      type: recorded.type,
      kind: kindOf(recorded.type),
      actor,
      summary: summarise(event, recorded.type, actor, context),
      ...visibleData(record, participants, viewerFirmId),
      hash: recorded.hash ?? null,
      previousHash: recorded.previousHash ?? null,
      ...(figures ? { figures } : {}),
    };
  });
}
