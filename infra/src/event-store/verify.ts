import { START, type StreamVerification } from '@pf/events';
import { verifyStream, type StoredLink } from './hash-chain';
import type { EventStore, StoredEvent } from './port';

const toLink = (event: StoredEvent): StoredLink => ({
  id: event.id,
  stream: event.stream,
  streamVersion: event.streamVersion,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  recordedAt: event.recordedAt,
  position: event.position,
  hash: event.hash ?? null,
  previousHash: event.previousHash ?? null,
});

/** Recomputes the hash chains of the named streams from what the store answers now (through the port). */
export async function verifyStreams(store: EventStore<StoredEvent>, streams: readonly string[]): Promise<StreamVerification[]> {
  return Promise.all(
    streams.map(async (stream) => {
      const [events, head] = await Promise.all([store.readStream(stream), store.streamHead(stream)]);
      return verifyStream(stream, events.map(toLink), head);
    }),
  );
}

/**
 * Every stream's chain: the streams are found by reading the whole log once (a stream whose every event was
 * deleted leaves no trace there; a saved checkpoint names it). `onProgress` hears the count of streams found.
 */
export async function verifyAllStreams(store: EventStore<StoredEvent>, batchSize = 1000): Promise<StreamVerification[]> {
  const names = new Set<string>();
  let after = START;
  for (;;) {
    const batch = await store.readAll(after, batchSize);
    for (const event of batch) names.add(event.stream);
    if (batch.length < batchSize) break;
    after = batch[batch.length - 1]!.position;
  }
  const results: StreamVerification[] = [];
  const list = [...names];
  // A few streams at a time: enough to overlap round trips without taking the whole pool.
  for (let i = 0; i < list.length; i += 8) results.push(...(await verifyStreams(store, list.slice(i, i + 8))));
  return results;
}
