import {
  agentsView,
  canSeeConversation as canSee,
  conversationsView,
  dealFirmsOf,
  erasedAgent,
  foldInto,
  withoutDeletedParties,
  type Agent,
  type Conversation,
  type DomainEvent,
} from '@pf/events';
import { BoundedMap } from './bounded-map';

/**
 * What the gateway remembers of the event stream: the agents and conversations views, folded with the
 * same evolves as the read models, enough to decide who may see an event and to build the views it
 * pushes. Each gateway copy keeps its own (no shared memory). Bounded (docs/decisions/bounded-restart.md): the
 * maps of agents, conversations, deals and documents keep the entries used lately, up to a setting, and every
 * conversation a connected socket follows; the follower loads what an event needs and the maps lack from the
 * event store before it applies the event (on-demand.ts), so what left is loaded again, never guessed.
 */
export interface ViewIndex {
  /** Deleted agents stay (isDeleted): owners outlive their agents, so a deleted agent's matches still reach its owner. */
  readonly agents: BoundedMap<number, Agent>;
  readonly conversations: BoundedMap<number, Conversation>;
  /** Who may see a deal (the firms of its agents when it opened) and each document (its deal's, at upload). */
  readonly dealOwners: BoundedMap<string, readonly string[]>;
  readonly documentOwners: BoundedMap<string, readonly string[]>;
  /**
   * Display names of the people connected to this copy, from their sessions: who controls a side is named in
   * pushes when known here (names are personal data, kept out of events); a read of the conversation names them all.
   */
  readonly names: Map<string, string>;
  /** Names of the firms of the people connected here (each side sees the other's firm in a shared conversation). */
  readonly firmNames: Map<string, string>;
  /** The people whose accounts were deleted: what is loaded of their agents and conversations is erased as it loads. */
  readonly deletedPeople: Set<string>;
}

export interface IndexBounds {
  /** Entries kept in each of the maps of agents, conversations, deals and documents (besides the followed conversations). */
  readonly entries: number;
  /** Conversations a connected socket follows: never dropped. */
  readonly followed?: (conversationId: number) => boolean;
}

/** Without bounds: every entry stays (tests that fold a few events by hand). */
export function emptyIndex(bounds: IndexBounds = { entries: Number.POSITIVE_INFINITY }): ViewIndex {
  return {
    agents: new BoundedMap(bounds.entries),
    conversations: new BoundedMap(bounds.entries, bounds.followed),
    dealOwners: new BoundedMap(bounds.entries),
    documentOwners: new BoundedMap(bounds.entries),
    names: new Map(),
    firmNames: new Map(),
    deletedPeople: new Set(),
  };
}

/** While it is held, nothing leaves the index's maps (a batch between loading what it needs and applying it). */
export function holdIndex(index: ViewIndex): () => void {
  const releases = [index.agents.hold(), index.conversations.hold(), index.dealOwners.hold(), index.documentOwners.hold()];
  return () => releases.forEach((release) => release());
}

/** Folds one event into the index. No I/O; `at` is the event's recorded time as an ISO string. */
export function applyEvent(index: ViewIndex, event: DomainEvent, at: string): void {
  foldInto(index.agents, agentsView, event, at);
  foldInto(index.conversations, conversationsView, event, at);
  if (event.type === 'DealOpened') index.dealOwners.set(event.data.dealId, dealFirmsOf(event.data));
  if (event.type === 'DocumentUploaded') index.documentOwners.set(event.data.documentId, event.data.ownerIds);
  if (event.type === 'FirmCreated' || event.type === 'FirmRenamed') index.firmNames.set(event.data.firmId, event.data.name);
  if (event.type === 'AccountDeleted') forgetPerson(index, event.data.userId);
}

/**
 * A deleted person leaves the index as they leave the read models (docs/decisions/hash-chain.md "Erasure"): their
 * name, what they wrote of their agents, and their agents' names in every conversation (`withoutDeletedParties`,
 * the read models' own rule), so no later push tells them.
 */
function forgetPerson(index: ViewIndex, userId: string): void {
  index.deletedPeople.add(userId);
  index.names.delete(userId);
  for (const [id, agent] of [...index.agents]) if (agent.ownerId === userId) index.agents.set(id, erasedAgent(agent));
  const gone = (ownerId: string) => ownerId === userId;
  for (const [id, conversation] of [...index.conversations]) index.conversations.set(id, withoutDeletedParties(conversation, gone));
}

/** The conversations in which a person's agents took part (an account's deletion rewrites them). */
export function conversationsOfPerson(index: ViewIndex, userId: string): Conversation[] {
  return [...index.conversations.values()].filter((c) => c.participants.some((p) => p.ownerId === userId));
}

/** The one visibility rule (visibility.ts), over this copy's index: the firm's conversations only. */
export function canSeeConversation(index: ViewIndex, conversationId: number, firmId: string): boolean {
  return canSee(index.conversations.get(conversationId), firmId);
}
