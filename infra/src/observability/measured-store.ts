import { ConcurrencyConflict } from '../errors';
import type { EventStore } from '../event-store/port';
import { metrics, secondsSince } from './metrics';

/** The store with its appends counted and timed (eventstore_* in docs/operations/observability.md). */
export function measuredStore(store: EventStore): EventStore {
  const measured: EventStore = {
    append: async (stream, events, expected) => {
      const began = performance.now();
      try {
        const result = await store.append(stream, events, expected);
        metrics.appends.inc({ outcome: 'stored' });
        metrics.appendedEvents.inc(events.length);
        return result;
      } catch (error) {
        metrics.appends.inc({ outcome: error instanceof ConcurrencyConflict ? 'conflict' : 'failed' });
        throw error;
      } finally {
        metrics.appendDuration.observe(secondsSince(began));
      }
    },
    readStream: (stream, fromVersion) => store.readStream(stream, fromVersion),
    streamHead: (stream) => store.streamHead(stream),
    readAll: (after, limit, options) => store.readAll(after, limit, options),
    subscribe: (after, handler, options) => store.subscribe(after, handler, options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
  return store.wasWrittenAt ? { ...measured, wasWrittenAt: (position) => store.wasWrittenAt!(position) } : measured;
}
