import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventMetadata, Position } from '@pf/events';
import { ConcurrencyConflict, PreconditionFailed, type EventStore } from '@pf/infra';
import { streamCacheOf } from './stream-cache';

/** A decider (emmett style): pure decide and evolve, the initial state, nothing else. */
export interface Decider<Command, State, Event extends DomainEvent> {
  readonly initialState: State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}

export interface Handled<State, Event> {
  readonly events: Event[];
  readonly state: State;
  /** Position of the last appended event; null when the command changed nothing. */
  readonly position: Position | null;
  /** The aggregate's version after the command (its stream's last event, from 0); null when it has no events. */
  readonly version: number | null;
}

export interface CommandOptions {
  /** Derives event ids from the causing event, so a redelivery stores nothing twice. */
  readonly eventId?: (index: number) => string;
  /** The version the client decided on (If-Match): decide only if the aggregate is still there, else 412. */
  readonly expectedVersion?: number;
  /**
   * The version a process manager decided on, from its own copy of the stream: if the stream has moved
   * since (an operator's offer, a takeover, or the move itself already recorded), ConcurrencyConflict, and
   * the move is decided again on what stands.
   */
  readonly decidedAt?: number;
}

export function foldEvents<State, Event extends DomainEvent>(
  decider: Decider<unknown, State, Event>,
  events: readonly { type: string; data: unknown }[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event as Event), decider.initialState);
}

/**
 * Load the stream (through the command side's stream cache: only what is new is read), decide, append with the version we decided on: a concurrent change to the same
 * aggregate never loses an update. It makes the append fail with ConcurrencyConflict, and the command is decided
 * again on what stands then, unless the caller named a version to hold to (If-Match, or decidedAt).
 * `eventId` lets a process manager derive ids from the causing event, so a redelivery stores nothing twice;
 * `expectedVersion` (from If-Match) makes a client's stale view fail with PreconditionFailed (412).
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
  // Without a version to hold to (If-Match, or the one a process manager decided on), a conflict only means
  // someone else wrote to the stream between our read and our append (an agent's move while an operator takes
  // over): the command is decided again on what stands then. A decision that no longer holds is refused by
  // the decider itself, with its own message (another session took the side first, say).
  const attempts = settled.expectedVersion === undefined && settled.decidedAt === undefined ? 8 : 1;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await decideAndAppend(store, stream, decider, command, metadata, settled);
    } catch (error) {
      if (!(error instanceof ConcurrencyConflict) || attempt >= attempts) throw error;
    }
  }
}

async function decideAndAppend<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  options: CommandOptions,
): Promise<Handled<State, Event>> {
  const { eventId = () => randomUUID(), expectedVersion, decidedAt } = options;
  const recorded = await streamCacheOf(store).read(stream);
  const current = recorded.length === 0 ? null : recorded[recorded.length - 1]!.streamVersion;
  if (decidedAt !== undefined && decidedAt !== current) throw new ConcurrencyConflict(stream, String(decidedAt), current === null ? 'no stream' : String(current));
  if (expectedVersion !== undefined && expectedVersion !== current) throw staleVersion(stream, expectedVersion, current === null ? 'it does not exist' : `it is now at version ${current}`);
  const state = foldEvents(decider as Decider<unknown, State, Event>, recorded);
  const events = decider.decide(command, state);
  if (events.length === 0) return { events, state, position: null, version: current };
  try {
    const result = await store.append(
      stream,
      events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data, metadata })),
      current ?? 'no_stream',
    );
    return { events, state: events.reduce(decider.evolve, state), position: result.position, version: result.nextExpectedVersion };
  } catch (error) {
    // A change that landed between our read and our append: for a client that named its version, that
    // version is now stale, which is what 412 says; without If-Match it stays 409.
    if (error instanceof ConcurrencyConflict && expectedVersion !== undefined) throw staleVersion(stream, expectedVersion, 'it changed while this request was decided');
    throw error;
  }
}

function staleVersion(stream: string, expected: number, found: string): PreconditionFailed {
  return new PreconditionFailed(
    `If-Match names version ${expected} of ${stream}, but ${found}; fetch it again (its ETag has the current version) and retry`,
  );
}
