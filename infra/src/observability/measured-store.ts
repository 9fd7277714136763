import { ConcurrencyConflict } from '../errors';
import type { EventStore } from '../event-store/port';
import { metrics, secondsSince } from './metrics';
import { inSpan } from './tracing';

/**
 * The store with its appends counted and timed (eventstore_* in docs/operations/observability.md), and each append a
 * span of the trace its events name when traces are on.
 */
export function measuredStore<Recorded>(store: EventStore<Recorded>): EventStore<Recorded> {
  const appendMeasured: EventStore<Recorded>['append'] = async (stream, events, expected) => {
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
  };
  const measured: EventStore<Recorded> = {
    append: (stream, events, expected) =>
      inSpan('append', events[0]?.metadata.traceparent, (span) => {
        span?.setAttributes({ 'event_store.stream': stream, 'event_store.events': events.length });
        return appendMeasured(stream, events, expected);
      }),
    readStream: (stream, fromVersion) => store.readStream(stream, fromVersion),
    streamHead: (stream) => store.streamHead(stream),
    streamsWithEvents: (streams) => store.streamsWithEvents(streams),
    readAll: (after, limit, options) => store.readAll(after, limit, options),
    subscribe: (after, handler, options) => store.subscribe(after, handler, options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
  return {
    ...measured,
    ...(store.wasWrittenAt ? { wasWrittenAt: (position) => store.wasWrittenAt!(position) } : {}),
    ...(store.readTypes ? { readTypes: (after, types, limit) => store.readTypes!(after, types, limit) } : {}),
  } satisfies EventStore<Recorded>;
}
