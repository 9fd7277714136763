import { randomUUID } from 'node:crypto';
import { readStoredEvent, type DomainEvent, type EventMetadata, type Position } from '@pf/events';
import {
  ConcurrencyConflict,
  DomainError,
  inSpan,
  metrics,
  PreconditionFailed,
  traceparentOf,
  type AppendResult,
  type EventStore,
} from '@pf/infra';
import { streamCacheOf, type StoredFact } from './stream-cache';

export type { StoredFact } from './stream-cache';

/** A decider (emmett style): pure decide and evolve, the initial state, nothing else. */
export interface Decider<Command, State, Event extends DomainEvent> {
  readonly initialState: State;
  decide(command: Command, state: State): Event[];
  /** Folds any stored event of the aggregate's stream (events of other types leave the state as it is). */
  evolve(state: State, event: DomainEvent): State;
}

export interface Handled<State, Event> {
  readonly events: Event[];
  readonly state: State;
  /** Position of the last appended event; null when the command changed nothing. */
  readonly position: Position | null;
  /** The aggregate's version after the command (its stream's last event, from 0); null when it has no events. */
  readonly version: number | null;
  /**
   * The stream as it stands after the command (what was read to decide, then this command's events with the
   * time the store recorded them), for an answer folded with a view; null when the store did not say when it
   * recorded them (the caller then reads the stream).
   */
  readonly history: readonly StoredFact[] | null;
}

/**
 * The version of the stream a caller decided on, and whose copy of the stream it was read from, which says what
 * it means when the stream has moved since:
 * - 'client': the client's view (If-Match): PreconditionFailed (412), for the client to fetch it again;
 * - 'own copy': a process manager's copy of the stream: ConcurrencyConflict, and the move is decided again on what
 *   stands (an operator's offer, a takeover, or the move itself already recorded).
 */
interface ExpectedVersion {
  readonly version: number;
  readonly from: 'client' | 'own copy';
}

export interface CommandOptions {
  /** Derives event ids from the causing event, so a redelivery stores nothing twice. */
  readonly eventId?: (index: number) => string;
  /** Decide only if the aggregate is still at this version. */
  readonly expectedVersion?: ExpectedVersion;
}

/** The state a stream's events make (read from the store, they come read through the contract: contract-reads.ts). */
export function foldEvents<State, Event extends DomainEvent>(
  decider: Decider<unknown, State, Event>,
  events: readonly DomainEvent[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState);
}

/**
 * Decide on the stream and append with the version decided on: a concurrent change to the same aggregate never
 * loses an update. It makes the append fail with ConcurrencyConflict, and the command is decided again on what
 * stands then, unless the caller named a version to hold to (`expectedVersion`: a client's If-Match, or a process
 * manager's own copy). `eventId` lets a process manager derive ids from the causing event, so a redelivery stores
 * nothing twice.
 *
 * The stream comes from the command side's cache (stream-cache.ts). The first attempt decides on the events
 * this process already holds, without reading: it stands only if its append at that version is stored, which
 * proves nothing was appended meanwhile. Anything else (a conflict, a refusal, nothing to do, a version that
 * differs from the one named) is decided again on the stream as read from the store, so every answer other
 * than a stored append is given on what the store holds.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  options: CommandOptions | ((index: number) => string) = {},
): Promise<Handled<State, Event>> {
  const settled = typeof options === 'function' ? { eventId: options } : options;
  const type = commandType(command);
  try {
    // Traced: the command's span (a child of the request's) is the parent its events name.
    const handled = await inSpan(`decide ${type}`, metadata.traceparent, (span) => {
      const traceparent = traceparentOf(span);
      return decideOnStream(store, stream, decider, command, traceparent ? { ...metadata, traceparent } : metadata, settled, type);
    });
    (handled.position === null ? metrics.commandsUnchanged : metrics.commandsDecided).inc({ command: type });
    return handled;
  } catch (error) {
    if (error instanceof DomainError) metrics.commandsRefused.inc({ command: type, reason: refusalReason(error) });
    throw error;
  }
}

/** The command's type, for its metrics ("unnamed" for one without). */
function commandType(command: unknown): string {
  return typeof command === 'object' && command !== null && 'type' in command && typeof command.type === 'string'
    ? command.type
    : 'unnamed';
}

/** NotFound as not_found, PreconditionFailed as precondition_failed, ConcurrencyConflict as conflict. */
function refusalReason(error: DomainError): string {
  if (error instanceof ConcurrencyConflict) return 'conflict';
  return error.name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

async function decideOnStream<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  settled: CommandOptions,
  type: string,
): Promise<Handled<State, Event>> {
  const cache = streamCacheOf(store);
  const held = cache.held(stream);
  if (held) {
    const handled = await decideAndAppend(store, stream, decider, command, metadata, settled, held, 'held').catch((error: unknown) => {
      if (error instanceof ConcurrencyConflict) metrics.commandConflicts.inc({ command: type });
      if (error instanceof NotDecidedOnHeld || error instanceof ConcurrencyConflict) return null;
      throw error;
    });
    if (handled) return handled;
  }
  // Without a version to hold to (If-Match, or the one a process manager decided on), a conflict only means
  // someone else wrote to the stream between our read and our append (an agent's move while an operator takes
  // over): the command is decided again on what stands then. A decision that no longer holds is refused by
  // the decider itself, with its own message (another session took the side first, say).
  const attempts = settled.expectedVersion === undefined ? 8 : 1;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await decideAndAppend(store, stream, decider, command, metadata, settled, await cache.read(stream), 'read');
    } catch (error) {
      if (error instanceof ConcurrencyConflict) metrics.commandConflicts.inc({ command: type });
      if (!(error instanceof ConcurrencyConflict) || attempt >= attempts) throw error;
    }
  }
}

/** The events held were not enough to answer on: decide again on the stream as the store has it. */
class NotDecidedOnHeld extends Error {}

async function decideAndAppend<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  options: CommandOptions,
  recorded: readonly StoredFact[],
  source: 'held' | 'read',
): Promise<Handled<State, Event>> {
  const { eventId = () => randomUUID(), expectedVersion } = options;
  const onHeld = source === 'held';
  const current = recorded.length === 0 ? null : recorded[recorded.length - 1]!.streamVersion;
  if (expectedVersion !== undefined && expectedVersion.version !== current) {
    if (onHeld) throw new NotDecidedOnHeld();
    if (expectedVersion.from === 'own copy')
      throw new ConcurrencyConflict(stream, String(expectedVersion.version), current === null ? 'no stream' : String(current));
    throw staleVersion(stream, expectedVersion.version, current === null ? 'it does not exist' : `it is now at version ${current}`);
  }
  let state: State;
  let events: Event[];
  try {
    state = streamCacheOf(store).fold(stream, recorded, decider, decider.initialState, (folded, fact) => decider.evolve(folded, fact));
    events = decider.decide(command, state);
  } catch (error) {
    if (onHeld) throw new NotDecidedOnHeld();
    throw error;
  }
  if (events.length === 0) {
    if (onHeld) throw new NotDecidedOnHeld();
    return { events, state, position: null, version: current, history: recorded };
  }
  let result: AppendResult;
  try {
    result = await store.append(
      stream,
      events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data, metadata })),
      current ?? 'no_stream',
    );
  } catch (error) {
    // A change that landed between our read and our append: for a client that named its version, that
    // version is now stale, which is what 412 says; without If-Match (or on a process manager's copy) it stays 409.
    if (error instanceof ConcurrencyConflict && expectedVersion?.from === 'client' && !onHeld)
      throw staleVersion(stream, expectedVersion.version, 'it changed while this request was decided');
    throw error;
  }
  // Our events right after what we decided on (not a retry answered with events stored earlier), at a known time.
  const follows = result.nextExpectedVersion === (current ?? -1) + events.length;
  if (onHeld && !follows) throw new NotDecidedOnHeld();
  const { recordedAt } = result;
  const facts = recordedAt && follows ? storedFacts(events, current, recordedAt) : null;
  if (facts) streamCacheOf(store).appended(stream, current, facts);
  const history = facts ? [...recorded, ...facts] : null;
  return {
    events,
    state: events.reduce((folded, event) => decider.evolve(folded, event), state),
    position: result.position,
    version: result.nextExpectedVersion,
    history,
  };
}

/**
 * Our events as a read of the store would give them: their data as its JSON gives it back, read by the one reader
 * of stored events, the versions after `current`.
 */
function storedFacts(events: readonly DomainEvent[], current: number | null, recordedAt: Date): StoredFact[] {
  return events.map((event, index) => ({
    ...readStoredEvent({ type: event.type, data: JSON.parse(JSON.stringify(event.data)) as unknown }),
    recordedAt,
    streamVersion: (current ?? -1) + 1 + index,
  }));
}

function staleVersion(stream: string, expected: number, found: string): PreconditionFailed {
  return new PreconditionFailed(
    `If-Match names version ${expected} of ${stream}, but ${found}; fetch it again (its ETag has the current version) and retry`,
  );
}
