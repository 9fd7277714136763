import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventMetadata, Position } from '@pf/events';
import type { EventStore } from '@pf/infra';

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
}

export function foldEvents<State, Event extends DomainEvent>(
  decider: Decider<unknown, State, Event>,
  events: readonly { type: string; data: unknown }[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event as Event), decider.initialState);
}

/**
 * Load the stream, decide, append with the version we decided on: a concurrent change to the same
 * aggregate makes the append fail with ConcurrencyConflict (409) instead of losing an update.
 * `eventId` lets a process manager derive ids from the causing event, so a redelivery stores nothing twice.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  metadata: EventMetadata,
  eventId: (index: number) => string = () => randomUUID(),
): Promise<Handled<State, Event>> {
  const recorded = await store.readStream(stream);
  const state = foldEvents(decider as Decider<unknown, State, Event>, recorded);
  const events = decider.decide(command, state);
  if (events.length === 0) return { events, state, position: null };
  const expected = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.streamVersion;
  const result = await store.append(
    stream,
    events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data, metadata })),
    expected,
  );
  return { events, state: events.reduce(decider.evolve, state), position: result.position };
}
