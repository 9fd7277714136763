import { comparePositions, type Position } from '@pf/events';
import type { EventStore, RecordedEvent } from './port';

const PAGE = 500;

/**
 * A follower that acts on a few event types only catches up on them (docs/decisions/bounded-restart.md): from its
 * checkpoint, it reads the events of those types page by page (EventStore.readTypes), hands each page over, then
 * saves how far the read covered, so a first start on a long log, or one after the log grew while it was stopped,
 * reads what it acts on rather than every event. Resolves with the position reached (the head when it began, or
 * later), from which the follower subscribes as before. A store without readTypes: at once, with `from`.
 */
export async function catchUpOnTypes<Recorded = RecordedEvent>(options: {
  store: EventStore<Recorded>;
  from: Position;
  types: readonly string[];
  handle: (events: readonly Recorded[]) => Promise<unknown>;
  save: (position: Position) => Promise<void>;
  /** Each position reached (the supervisor's lag reads it while the catch-up runs). */
  reached?: (position: Position) => void;
}): Promise<Position> {
  const { store, types } = options;
  if (!store.readTypes) return options.from;
  let position = options.from;
  for (;;) {
    const { events, through } = await store.readTypes(position, types, PAGE);
    if (events.length > 0) await options.handle(events);
    if (comparePositions(through, position) > 0) {
      await options.save(through);
      position = through;
      options.reached?.(position);
    }
    if (events.length < PAGE) return position;
  }
}
