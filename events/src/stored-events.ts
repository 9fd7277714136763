import { domainEvent, type DomainEvent, type DomainEventType } from './domain-events';

/**
 * Where stored events cross into the domain (docs/architecture.md, "Stored events"): every event read back from the
 * store is upgraded from the shape it was recorded in to today's, then validated against the contract's schema, here
 * and nowhere else. A reader never casts a stored event's data to a DomainEvent.
 */

/** An event as the store hands it back: its type and its data as recorded. */
export interface StoredEventData {
  readonly type: string;
  readonly data: unknown;
}

type Data = Record<string, unknown>;

const isRecord = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A party recorded before firms has no `firmId`: its firm is its owner's firm of one (docs/decisions/firms-and-visibility.md). */
const withOwnersFirm = (party: unknown): unknown =>
  isRecord(party) && party.firmId === undefined && typeof party.ownerId === 'string' ? { ...party, firmId: party.ownerId } : party;

/** A reader's event recorded before firms has no `firmId`: the reader's firm of one. */
const withReadersFirm = (data: Data): Data =>
  data.firmId === undefined && typeof data.userId === 'string' ? { ...data, firmId: data.userId } : data;

/**
 * One upcaster per event whose recorded shape changed: old data in, today's shape out (data already in today's shape
 * comes out as it went in). Each names the change it undoes.
 */
export const upcasters: Partial<Record<DomainEventType, (data: Data) => Data>> = {
  /** Before firms: no `firmId`; the agent belonged to its owner's firm of one. */
  AgentCreated: (data) => withOwnersFirm(data) as Data,
  /** Before firms: participants without `firmId`. */
  ConversationStarted: (data) =>
    Array.isArray(data.participants) && data.participants.some((party) => isRecord(party) && party.firmId === undefined)
      ? { ...data, participants: data.participants.map(withOwnersFirm) }
      : data,
  /** Before firms: parties without `firmId`. */
  DealOpened: (data) => ({
    ...data,
    borrower: withOwnersFirm(data.borrower),
    lender: withOwnersFirm(data.lender),
    broker: data.broker === null || data.broker === undefined ? data.broker : withOwnersFirm(data.broker),
  }),
  /** Before firms: no `firmId`; a person read their own notifications, their firm of one's. */
  NotificationRead: withReadersFirm,
  AllNotificationsRead: withReadersFirm,
};

/** A stored event that is no event of the contract, even after its upcaster. */
export class InvalidStoredEventError extends Error {
  constructor(
    readonly eventType: string,
    reason: string,
  ) {
    super(`A stored ${eventType} event does not match the contract: ${reason}`);
    this.name = 'InvalidStoredEventError';
  }
}

/** The upcasters by the type a store hands back as text (a type the contract does not know has none). */
const upcasterOf: ReadonlyMap<string, ((data: Data) => Data) | undefined> = new Map(Object.entries(upcasters));

/** Today's shape of a stored event's data (its upcaster applied, if its shape changed). */
export function upcast(stored: StoredEventData): StoredEventData {
  const upcaster = upcasterOf.get(stored.type);
  return upcaster && isRecord(stored.data) ? { type: stored.type, data: upcaster(stored.data) } : stored;
}

/** The one reader of stored events: upgraded to today's shape, then validated with the contract's zod schema. */
export function readStoredEvent(stored: StoredEventData): DomainEvent {
  const parsed = domainEvent.safeParse(upcast(stored));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidStoredEventError(stored.type, issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'unreadable');
}

/**
 * The same reader for a reader that must go on past an event it cannot read (History shows a tampered or unknown
 * event as such; a transcript skips it): the event in today's shape, or null.
 */
export function readStoredEventOrNull(stored: StoredEventData): DomainEvent | null {
  const parsed = domainEvent.safeParse(upcast(stored));
  return parsed.success ? parsed.data : null;
}
