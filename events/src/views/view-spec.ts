import { expect } from 'vitest';
import type { DomainEvent } from '../domain-events';
import { foldInto, type View } from './view';

/** The time the `given` events are recorded at, and the time of the `when` event. */
export const GIVEN_AT = '2026-01-01T09:00:00.000Z';
export const WHEN_AT = '2026-01-01T10:00:00.000Z';

/** given(events).when(event).then(state): a view's spec, as the deciders' (tests only). */
export function viewSpec<K, S>(view: View<K, S>) {
  return {
    given(...events: DomainEvent[]) {
      const entities = new Map<K, S>();
      for (const event of events) foldInto(entities, view, event, GIVEN_AT);
      return {
        when(event: DomainEvent) {
          const key = view.keyOf(event);
          const before = key === null ? null : (entities.get(key) ?? null);
          const after = view.evolve(before, event, WHEN_AT);
          return {
            then(expected: S | null) {
              expect(after).toEqual(expected);
            },
            /** The same object back: nothing to write, nothing to push. */
            thenUnchanged() {
              expect(after).toBe(before);
            },
            state: after,
          };
        },
      };
    },
  };
}
