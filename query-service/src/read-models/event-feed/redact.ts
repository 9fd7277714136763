import { readStoredEvent, type DomainEvent, type FeedEnvelope } from '@pf/events';

/** What a reader knows of the people behind an event: who deleted their account, each agent's owner, each stream's people. */
export interface PeopleOfBatch {
  readonly deleted: ReadonlySet<string>;
  readonly ownerOf: (agentId: number) => string | undefined;
  /** The owners of the agents a stream is about (its parties), fixed when it began. */
  readonly peopleOf: (stream: string) => readonly string[];
}

type Data = Record<string, unknown>;

const isData = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The words an event holds, emptied when one of the people behind its stream has deleted their account
 * (docs/decisions/hash-chain.md "Erasure"). Whatever is written in a conversation, deal, match or agent of theirs
 * can name them (titles, the engine's messages, completion reasons, explanations, a deal's address), so all of it
 * goes; figures, ids, types and outcomes stay, so a job's totals do not change when a person leaves. Another
 * person's own typed message and the names of the parties still here are kept. Returns the fields emptied.
 */
function emptied(event: DomainEvent, gone: (userId: string | undefined) => boolean, ownerOf: PeopleOfBatch['ownerOf']): Data {
  const nameless = <P extends { ownerId: string; name: string }>(party: P): P => (gone(party.ownerId) ? { ...party, name: '' } : party);
  switch (event.type) {
    case 'AgentCreated':
    case 'AgentUpdated': {
      // Keep what the engine and the figures need; everything the owner wrote goes (new fields included).
      const kept = ['agentId', 'ownerId', 'firmId', 'type', 'isDemo', 'strategy', 'autoNegotiate', 'responseTime'];
      const data: Data = event.data;
      return Object.fromEntries(
        Object.keys(data)
          .filter((key) => !kept.includes(key))
          .map((key) => [key, typeof data[key] === 'string' ? '' : null]),
      );
    }
    case 'ConversationStarted':
      return { title: '', participants: event.data.participants.map(nameless) };
    case 'MessageSent':
      // A person still here keeps what they typed; the engine's words and the leaver's go.
      return event.data.isAutomated || event.data.reading || gone(ownerOf(event.data.fromAgentId)) ? { content: '' } : {};
    case 'ConversationCompleted':
    case 'ConversationStalled':
    case 'NeedReopened':
      return { reason: '' };
    case 'MatchFound':
      return { explanation: event.data.explanation.map((line) => ({ ...line, detail: '' })) };
    case 'MatchRunCompleted':
      return event.data.note === null ? {} : { note: '' };
    case 'NeedCommitted':
      return { lenderName: '' };
    case 'DealOpened':
      return {
        propertyAddress: '',
        borrower: nameless(event.data.borrower),
        lender: nameless(event.data.lender),
        broker: event.data.broker && nameless(event.data.broker),
      };
    case 'DealEdited':
      return { propertyAddress: '' };
    case 'DocumentUploaded':
      return { name: '', uploadedBy: { userId: event.data.uploadedBy.userId } };
    case 'ManualModeChanged':
      return gone(event.data.byUserId) && event.data.sessionId !== undefined ? { sessionId: undefined } : {};
    default:
      return {};
  }
}

/** An event as stored or answered: where its words are, and who acted. */
interface Erasable {
  readonly stream: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: FeedEnvelope['metadata'];
}

/**
 * The event with a deleted person's words removed (see `emptied`) and the session they acted in dropped, naming
 * each field emptied in `redacted`; null when nothing of it changes. The one rule the feed and the history share.
 */
export function eraseDeleted(
  event: Erasable,
  people: PeopleOfBatch,
): { data: unknown; metadata: FeedEnvelope['metadata']; redacted: string[] } | null {
  if (people.deleted.size === 0) return null;
  const gone = (userId: string | undefined) => userId !== undefined && people.deleted.has(userId);
  const redacted: string[] = [];
  let data = event.data;
  if (people.peopleOf(event.stream).some(gone)) {
    const read = readStoredEvent(event);
    const changes = emptied(read, gone, people.ownerOf);
    // Compared with the event as read (today's shape), so a field only upgraded (a party's firm filled in) is not counted as emptied.
    const current: Data = read.data;
    // The reader has refused data that is no object; what is emptied is the data as stored.
    const stored = isData(data) ? data : {};
    const fields = Object.keys(changes).filter((key) => key in stored && JSON.stringify(changes[key]) !== JSON.stringify(current[key]));
    if (fields.length > 0) {
      const erased: Data = { ...stored, ...Object.fromEntries(fields.map((key) => [key, changes[key]])) };
      for (const key of fields) if (erased[key] === undefined) delete erased[key];
      data = erased;
      redacted.push(...fields.map((field) => `data.${field}`));
    }
  }
  let metadata = event.metadata;
  if (metadata.actor.kind === 'user' && gone(metadata.actor.userId) && metadata.actor.sessionId !== undefined) {
    metadata = { ...metadata, actor: { kind: 'user', userId: metadata.actor.userId } };
    redacted.push('metadata.actor.sessionId');
  }
  return redacted.length === 0 ? null : { data, metadata, redacted };
}

/** The feed's envelope with a deleted person's words removed (docs/event-feed.md "Personal data"). */
export function redactDeleted(envelope: FeedEnvelope, people: PeopleOfBatch): FeedEnvelope {
  const erased = eraseDeleted(envelope, people);
  return erased ? { ...envelope, ...erased } : envelope;
}
