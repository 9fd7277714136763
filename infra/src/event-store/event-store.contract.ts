import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START, comparePositions, type EventMetadata } from '@pf/events';
import { ConcurrencyConflict } from '../errors';
import type { EventStore, NewEvent, StoredEvent } from './port';
import { verifyStreams } from './verify';

export interface ContractSubject {
  readonly store: EventStore<StoredEvent>;
  cleanup(): Promise<void>;
}

const metadata: EventMetadata = { actor: { kind: 'system', name: 'contract' }, correlationId: 'c', causationId: null };
const newEvent = (type = 'Tested', data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });
const uniqueStream = (label: string) => `${label}-${randomUUID()}`;

/** Waits until `predicate` holds, checking as events arrive; fails with `what` after the timeout. */
async function eventually(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The event store contract (DESIGN.md "The event store"): one suite, run against every adapter.
 * Streams are unique per test, so a shared server is fine; global reads start from the head.
 */
export function eventStoreContract(adapter: string, open: () => Promise<ContractSubject>): void {
  describe(`event store contract: ${adapter}`, () => {
    let subject: ContractSubject;
    let store: EventStore<StoredEvent>;
    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(async () => subject?.cleanup());

    it('appends to a new stream and reads it back in order with versions from 0', async () => {
      const stream = uniqueStream('order');
      const events = [newEvent('A', { n: 1 }), newEvent('B', { n: 2 }), newEvent('C', { n: 3 })];
      const result = await store.append(stream, events, 'no_stream');
      expect(result.nextExpectedVersion).toBe(2);
      const read = await store.readStream(stream);
      expect(read.map((e) => [e.id, e.type, e.streamVersion, e.data])).toEqual(events.map((e, i) => [e.id, e.type, i, e.data]));
      expect(read[0]!.metadata).toEqual(metadata);
      expect(comparePositions(read[2]!.position, result.position)).toBe(0);
      expect(read[0]!.recordedAt).toBeInstanceOf(Date);
      expect(await store.readStream(stream, 2)).toHaveLength(1);
    });

    // docs/architecture.md "A command": an append expects the version it was decided on; the store refuses a stale one.
    it('rejects "no stream" when the stream exists, and a stale exact version, with a conflict naming both', async () => {
      const stream = uniqueStream('conflict');
      await store.append(stream, [newEvent()], 'no_stream');
      await expect(store.append(stream, [newEvent()], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyConflict);
      await store.append(stream, [newEvent()], 0);
      const stale = store.append(stream, [newEvent()], 0);
      await expect(stale).rejects.toMatchObject({ statusCode: 409 });
      await expect(stale).rejects.toThrow('expected version 0, found 1');
      await expect(store.append(uniqueStream('missing'), [newEvent()], 3)).rejects.toBeInstanceOf(ConcurrencyConflict);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('appends with "any" whatever the version', async () => {
      const stream = uniqueStream('any');
      await store.append(stream, [newEvent()], 'any');
      const result = await store.append(stream, [newEvent(), newEvent()], 'any');
      expect(result.nextExpectedVersion).toBe(2);
    });

    it('stores nothing twice when an append is retried with the same event ids', async () => {
      const stream = uniqueStream('retry');
      const events = [newEvent(), newEvent()];
      const first = await store.append(stream, events, 'no_stream');
      const retried = await store.append(stream, events, 'no_stream');
      expect(retried.nextExpectedVersion).toBe(first.nextExpectedVersion);
      expect(comparePositions(retried.position, first.position)).toBe(0);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    // docs/architecture.md "A command" and docs/decisions/hash-chain.md: every append writes its events with their hash links.
    it('chains every event to the one before it in its stream, across appends, and the verifier accepts it', async () => {
      const stream = uniqueStream('chain');
      await store.append(stream, [newEvent('A', { n: 1, z: { b: 2, a: 1 } }), newEvent('B', { n: 2 })], 'no_stream');
      await store.append(stream, [newEvent('C', { n: 3 })], 'any');
      const read = await store.readStream(stream);
      expect(read.map((e) => e.previousHash)).toEqual([null, read[0]!.hash, read[1]!.hash]);
      expect(read.every((e) => /^[0-9a-f]{64}$/.test(e.hash ?? ''))).toBe(true);
      expect(await store.streamHead(stream)).toEqual({ version: 2, hash: read[2]!.hash });
      const [verdict] = await verifyStreams(store, [stream]);
      expect(verdict).toMatchObject({ intact: true, events: 3, headVersion: 2, firstBroken: null });
      expect(await store.streamHead(uniqueStream('none'))).toBeNull();
    });

    it('answers which of many streams have events, in one question', async () => {
      const [written, other] = [uniqueStream('with'), uniqueStream('with')];
      await store.append(written, [newEvent()], 'no_stream');
      await store.append(other, [newEvent(), newEvent()], 'no_stream');
      const never = uniqueStream('never');
      expect(await store.streamsWithEvents([written, never, other])).toEqual(new Set([written, other]));
      expect(await store.streamsWithEvents([])).toEqual(new Set());
    });

    it('reads all events after a position, exclusive, in global order', async () => {
      const head = await store.headPosition();
      const stream = uniqueStream('all');
      const events = [newEvent(), newEvent(), newEvent()];
      await store.append(stream, events, 'no_stream');
      // Global reads see a commit once every older transaction has ended (other writers may still be open).
      let all: StoredEvent[] = [];
      await eventually(async () => {
        all = (await store.readAll(head, 10_000)).filter((e) => e.stream === stream);
        return all.length === events.length;
      }, 'the appended events in a global read');
      expect(all.map((e) => e.id)).toEqual(events.map((e) => e.id));
      const afterFirst = (await store.readAll(all[0]!.position, 10_000)).filter((e) => e.stream === stream);
      expect(afterFirst.map((e) => e.id)).toEqual(events.slice(1).map((e) => e.id));
      const page = await store.readAll(START, 1);
      expect(page).toHaveLength(1);
    });

    it('catches up, then follows live appends', async () => {
      const stream = uniqueStream('live');
      const head = await store.headPosition();
      await store.append(stream, [newEvent()], 'no_stream');
      const received: StoredEvent[] = [];
      const subscription = store.subscribe(head, async (batch) => {
        received.push(...batch.filter((e) => e.stream === stream));
      });
      await subscription.caughtUp;
      await eventually(() => received.length === 1, 'the stored event');
      await store.append(stream, [newEvent(), newEvent()], 0);
      await eventually(() => received.length === 3, 'the live events');
      await subscription.close();
      expect(received.map((e) => e.streamVersion)).toEqual([0, 1, 2]);
    });

    it('delivers every event exactly once, in stream order, to subscribers under 8 concurrent writers', async () => {
      const writers = 8;
      const perWriter = 500;
      const tag = randomUUID().slice(0, 8);
      const shared = `shared-${tag}`;
      const ours = (e: StoredEvent) => e.stream.endsWith(tag);
      const head = await store.headPosition();
      const live: StoredEvent[] = [];
      let liveFailure: unknown = null;
      const subscription = store.subscribe(
        head,
        async (batch) => {
          live.push(...batch.filter(ours));
        },
        { onError: (error) => (liveFailure = error) },
      );
      await subscription.caughtUp;

      const writer = async (w: number) => {
        const own = `writer${w}-${tag}`;
        for (let i = 0; i < perWriter; i += 5) {
          const toShared = i % 10 === 0;
          const batch = Array.from({ length: 5 }, () => newEvent('Concurrent', { w, i }));
          await store.append(toShared ? shared : own, batch, 'any');
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
      const total = writers * perWriter;
      await eventually(() => live.length >= total || liveFailure !== null, `${total} live events`, 60_000);
      expect(liveFailure).toBeNull();
      await subscription.close();

      const caughtUp: StoredEvent[] = [];
      let failure: unknown = null;
      const replay = store.subscribe(
        head,
        async (batch) => {
          caughtUp.push(...batch.filter(ours));
        },
        { onError: (error) => (failure = error) },
      );
      await eventually(() => caughtUp.length >= total || failure !== null, 'the replayed events', 60_000);
      expect(failure).toBeNull();
      await replay.close();

      for (const received of [live, caughtUp]) {
        expect(received).toHaveLength(total);
        expect(new Set(received.map((e) => e.id)).size).toBe(total);
        const versions = new Map<string, number>();
        for (const event of received) {
          const previous = versions.get(event.stream) ?? -1;
          expect(event.streamVersion).toBe(previous + 1);
          versions.set(event.stream, event.streamVersion);
        }
        for (let i = 1; i < received.length; i++) {
          expect(comparePositions(received[i - 1]!.position, received[i]!.position)).toBeLessThan(0);
        }
      }
      expect(live.map((e) => e.id)).toEqual(caughtUp.map((e) => e.id));
    }, 180_000);
  });
}
