import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { START, type Position } from '@pf/events';
import { batchedSubscription } from './esdb-subscription';
import { isSystemType, toExpectedRevision } from './esdb-mapping';
import type { StoredEvent } from './port';

const at = (n: number): Position => ({ commit: BigInt(n * 10), prepare: BigInt(n * 10) });
const event = (n: number, type = 'Tested'): StoredEvent => ({
  id: `id-${n}`,
  type,
  stream: 's',
  streamVersion: n,
  position: at(n),
  recordedAt: new Date(0),
  data: {},
  metadata: { actor: { kind: 'system', name: 't' }, correlationId: 'c', causationId: null },
});

function harness(after: Position, head: Position, batchSize = 3) {
  const stream = new PassThrough({ objectMode: true });
  const batches: number[][] = [];
  let opened: Position | null = null;
  let release: () => void = () => undefined;
  let gate: Promise<void> | null = null;
  const subscription = batchedSubscription<StoredEvent>({
    after,
    options: { batchSize },
    head: async () => head,
    map: (item) => (isSystemType(item.type) ? null : item),
    open: (from) => {
      opened = from;
      return { stream, unsubscribe: async () => void stream.destroy() };
    },
    handler: async (batch) => {
      batches.push(batch.map((e) => e.streamVersion));
      if (gate) await gate;
    },
  });
  return {
    stream,
    batches,
    subscription,
    opened: () => opened,
    hold: () => {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      gate = null;
      release();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('EventStoreDB subscription batching', () => {
  it('opens from the given position, skips system events and repeats of that position, and batches', async () => {
    const h = harness(at(1), at(7));
    await settle();
    expect(h.opened()).toEqual(at(1));
    h.hold();
    for (const n of [1, 2]) h.stream.write(event(n));
    await settle();
    for (const n of [3, 4, 5]) h.stream.write(event(n));
    h.stream.write(event(6, '$metadata'));
    h.stream.write(event(7));
    h.release();
    await h.subscription.caughtUp;
    await h.subscription.close();
    expect(h.batches.flat()).toEqual([2, 3, 4, 5, 7]);
    expect(h.batches[0]).toEqual([2]);
    expect(Math.max(...h.batches.map((b) => b.length))).toBeLessThanOrEqual(3);
  });

  it('is caught up at once on an empty store, and reports a failed stream to onError', async () => {
    const stream = new PassThrough({ objectMode: true });
    const errors: unknown[] = [];
    const subscription = batchedSubscription<StoredEvent>({
      after: START,
      options: { onError: (error) => errors.push(error) },
      head: async () => START,
      map: (item) => item,
      open: () => ({ stream, unsubscribe: async () => undefined }),
      handler: async () => undefined,
    });
    await subscription.caughtUp;
    await settle();
    stream.destroy(new Error('connection lost'));
    await settle();
    expect(errors).toEqual([expect.objectContaining({ message: 'connection lost' })]);
    await subscription.close();
  });
});

describe('EventStoreDB expected versions', () => {
  it('maps the port to NO_STREAM, ANY and exact revisions', () => {
    expect(toExpectedRevision('no_stream')).toBe('no_stream');
    expect(toExpectedRevision('any')).toBe('any');
    expect(toExpectedRevision(4)).toBe(4n);
  });
});
