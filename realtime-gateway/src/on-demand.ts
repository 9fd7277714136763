import {
  agentsView,
  comparePositions,
  conversationsView,
  dealFirmsOf,
  erasedAgent,
  streams,
  withoutDeletedParties,
  type Agent,
  type Conversation,
  type DomainEvent,
  type Position,
} from '@pf/events';
import type { EventStore, Queryable, StoredEvent } from '@pf/infra';
import { readEvent } from './read-event';
import type { ViewIndex } from './view-index';

/** What the events of a batch name: the entities the gateway needs in its index to push them. */
export interface Needed {
  readonly agents: Set<number>;
  readonly conversations: Set<number>;
  readonly deals: Set<string>;
  readonly documents: Set<string>;
  /** People whose accounts the batch deletes: their conversations are told. */
  readonly deletedPeople: Set<string>;
}

/** Loads this many streams at a time. */
const PARALLEL = 16;

/**
 * Every id an event's data names (`agentId`, `fromAgentId`..., `conversationId`, `dealId`, `documentId`): what
 * deliveriesFor may look up for it. Read from the data's fields rather than listed per type, so a type added
 * later is covered as long as it names its entities the way every event does.
 */
export const nothingNeeded = (): Needed => ({
  agents: new Set(),
  conversations: new Set(),
  deals: new Set(),
  documents: new Set(),
  deletedPeople: new Set(),
});

export function neededBy(events: readonly DomainEvent[]): Needed {
  const needed = nothingNeeded();
  for (const event of events) {
    const data: Readonly<Record<string, unknown>> = event.data;
    for (const [field, value] of Object.entries(data)) {
      if (typeof value === 'number' && (field === 'agentId' || field.endsWith('AgentId'))) needed.agents.add(value);
      else if (field === 'conversationId' && typeof value === 'number') needed.conversations.add(value);
      else if (field === 'dealId' && typeof value === 'string') needed.deals.add(value);
      else if (field === 'documentId' && typeof value === 'string') needed.documents.add(value);
    }
    if (event.type === 'AccountDeleted') needed.deletedPeople.add(event.data.userId);
  }
  return needed;
}

async function inTurns<T>(items: readonly T[], load: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(load));
}

/** A stream's events the gateway had applied by `asOf` (the ones after it come in the batch being handled, or later). */
async function appliedOf(
  store: EventStore<StoredEvent>,
  stream: string,
  asOf: Position,
): Promise<{ event: DomainEvent; recorded: StoredEvent }[]> {
  const recorded = await store.readStream(stream);
  return recorded
    .filter((r) => comparePositions(r.position, asOf) <= 0)
    .flatMap((r) => {
      const event = readEvent(r);
      return event ? [{ event, recorded: r }] : [];
    });
}

/**
 * Brings into the index, from the event store, every entity `needed` names (neededBy: a batch's events) and the index lacks, as the
 * gateway had applied them by `asOf` (the position before the batch): the same folds the index applies event by
 * event, with a deleted person's parts erased as the read models erase them. The conversations of a person whose
 * account the batch deletes are found in the read models' participants (when this database has them), so each is
 * told. An entity that does not exist yet is left to the batch that creates it.
 */
export async function loadNeeded(
  index: ViewIndex,
  store: EventStore<StoredEvent>,
  readModels: Queryable | null,
  needed: Needed,
  asOf: Position,
): Promise<void> {
  const gone = (ownerId: string) => index.deletedPeople.has(ownerId);
  if (readModels && needed.deletedPeople.size > 0) {
    const found = await readModels
      .query<{ id: number }>(`select distinct conversation_id as id from rm_participants where owner_id = any($1::text[])`, [
        [...needed.deletedPeople],
      ])
      .catch(() => ({ rows: [] as { id: number }[] }));
    for (const row of found.rows) needed.conversations.add(Number(row.id));
  }
  await inTurns(
    [...needed.agents].filter((id) => !index.agents.has(id)),
    async (agentId) => {
      let agent: Agent | null = null;
      for (const { event, recorded } of await appliedOf(store, streams.agent(agentId), asOf))
        if (agentsView.keyOf(event) === agentId) agent = agentsView.evolve(agent, event, recorded.recordedAt.toISOString());
      if (agent && !index.agents.has(agentId)) index.agents.set(agentId, gone(agent.ownerId) ? erasedAgent(agent) : agent);
    },
  );
  await inTurns(
    [...needed.conversations].filter((id) => !index.conversations.has(id)),
    async (conversationId) => {
      let conversation: Conversation | null = null;
      for (const { event, recorded } of await appliedOf(store, streams.conversation(conversationId), asOf))
        if (conversationsView.keyOf(event) === conversationId)
          conversation = conversationsView.evolve(conversation, event, recorded.recordedAt.toISOString());
      if (conversation && !index.conversations.has(conversationId))
        index.conversations.set(conversationId, index.deletedPeople.size > 0 ? withoutDeletedParties(conversation, gone) : conversation);
    },
  );
  await inTurns(
    [...needed.deals].filter((id) => !index.dealOwners.has(id)),
    async (dealId) => {
      for (const { event } of await appliedOf(store, streams.deal(dealId), asOf))
        if (event.type === 'DealOpened' && !index.dealOwners.has(dealId)) index.dealOwners.set(dealId, dealFirmsOf(event.data));
    },
  );
  await inTurns(
    [...needed.documents].filter((id) => !index.documentOwners.has(id)),
    async (documentId) => {
      for (const { event } of await appliedOf(store, streams.document(documentId), asOf))
        if (event.type === 'DocumentUploaded' && !index.documentOwners.has(documentId))
          index.documentOwners.set(documentId, event.data.ownerIds);
    },
  );
}
