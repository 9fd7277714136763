import type { DomainEvent } from '../domain-events';

/**
 * One view of the event stream, folded the same way wherever it is kept: the read models (a batch at a
 * time, rows loaded and written back), the realtime gateway and the automation (in memory, event by event).
 * `keyOf` names the one entity an event changes in this view (null: not part of it); `evolve` is pure, takes
 * the entity as it stands (null before it exists) and the event's recorded time as an ISO string, and returns
 * the same object when the event changes nothing, so a projection writes back only what changed.
 */
export interface View<K, S> {
  keyOf(event: DomainEvent): K | null;
  evolve(state: S | null, event: DomainEvent, recordedAt: string): S | null;
}

/** Folds one event into a map of a view's entities, in place; returns the entity's new state. */
export function foldInto<K, S>(entities: Map<K, S>, view: View<K, S>, event: DomainEvent, recordedAt: string): S | null {
  const key = view.keyOf(event);
  if (key === null) return null;
  const before = entities.get(key) ?? null;
  const after = view.evolve(before, event, recordedAt);
  if (after !== before) {
    if (after === null) entities.delete(key);
    else entities.set(key, after);
  }
  return after;
}
