import fc from 'fast-check';
import type { Message, ProducerRecord } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { START, comparePositions, streams, type Position, type RecordedEventEnvelope } from '@pf/events';
import { pollingSubscription } from '../event-store/polling-subscription';
import type { EventStore, StoredEvent } from '../event-store/port';
import type { CheckpointStore } from '../db/checkpoints';
import { parseMessage } from './envelope';
import { startRelay, type EventSender } from './relay';

/** An in-memory log behind the real catch-up loop, so only the broker and checkpoint are fakes. */
function memoryStore(events: StoredEvent[]): Pick<EventStore<StoredEvent>, 'subscribe'> {
  const read = async (after: Position, limit: number) => events.filter((e) => comparePositions(e.position, after) > 0).slice(0, limit);
  const head = async () => events[events.length - 1]?.position ?? START;
  return {
    subscribe: (after, handler, options = {}) =>
      pollingSubscription({ after, handler, options, read, head, onWake: () => () => undefined }),
  };
}

function makeEvents(count: number): StoredEvent[] {
  const versions = new Map<string, number>();
  return Array.from({ length: count }, (_, i) => {
    const stream = streams.agent(i % 3);
    const version = (versions.get(stream) ?? -1) + 1;
    versions.set(stream, version);
    return {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      type: i % 2 ? 'AgentPaused' : 'AgentCreated',
      stream,
      streamVersion: version,
      position: { commit: BigInt(100 + i), prepare: BigInt(i) },
      recordedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
      data: { i },
      metadata: { actor: { kind: 'system', name: 'test' }, correlationId: `c${i}`, causationId: null },
    };
  });
}

type Outcome = 'ok' | 'fail-before-write' | 'fail-after-write';

/** A broker whose acknowledgement fails as planned: before storing the batch, or after (a lost ack). */
function fakeBroker(plan: Outcome[]) {
  const log: Message[] = [];
  const sends: { outcome: Outcome; ids: string[] }[] = [];
  const producer: EventSender = {
    send: async (record: ProducerRecord) => {
      const outcome = plan[sends.length] ?? 'ok';
      sends.push({ outcome, ids: record.messages.map((m) => String(m.headers?.['event-id'])) });
      expect(record.acks).toBe(-1);
      if (outcome === 'fail-before-write') throw new Error('broker unavailable');
      log.push(...record.messages);
      if (outcome === 'fail-after-write') throw new Error('request timed out');
      return [];
    },
  };
  const ids = () => log.map((m) => String(m.headers?.['event-id']));
  return { producer, log, sends, ids };
}

function checkpointIn(broker: ReturnType<typeof fakeBroker>, events: StoredEvent[]) {
  let saved = START;
  const store: CheckpointStore = {
    load: async () => saved,
    save: async (position) => {
      // Stored only after the broker acknowledged: everything up to it is already in the topic.
      const onBroker = new Set(broker.ids());
      for (const event of events) {
        if (comparePositions(event.position, position) <= 0) expect(onBroker.has(event.id)).toBe(true);
      }
      saved = position;
    },
  };
  return { store, saved: () => saved };
}

async function relayAll(events: StoredEvent[], plan: Outcome[], batchSize: number) {
  const broker = fakeBroker(plan);
  const checkpoint = checkpointIn(broker, events);
  const relay = await startRelay({
    store: memoryStore(events),
    producer: broker.producer,
    topic: 'property-finance.events',
    checkpoint: checkpoint.store,
    batchSize,
    retryDelayMs: () => 0,
  });
  await relay.caughtUp;
  await relay.close();
  return { broker, checkpoint, relay };
}

describe('Kafka relay', () => {
  it('publishes every event keyed by stream, with the JSON envelope and id/type headers', async () => {
    const events = makeEvents(7);
    const { broker, checkpoint } = await relayAll(events, [], 3);
    expect(broker.sends.map((s) => s.ids.length)).toEqual([3, 3, 1]);
    expect(broker.log.map((m) => m.key)).toEqual(events.map((e) => e.stream));
    expect(broker.log.map((m) => m.headers)).toEqual(events.map((e) => ({ 'event-id': e.id, 'event-type': e.type })));
    expect(broker.log.map((m) => parseMessage(m.value as string))).toEqual(events);
    expect((JSON.parse(broker.log[0]!.value as string) as RecordedEventEnvelope).position).toBe('100:0');
    expect(checkpoint.saved()).toEqual(events[6]!.position);
  });

  it('re-sends a batch the broker refused, losing nothing and duplicating nothing', async () => {
    const events = makeEvents(10);
    const { broker } = await relayAll(events, ['ok', 'fail-before-write', 'fail-before-write'], 4);
    expect(broker.ids()).toEqual(events.map((e) => e.id));
  });

  it('loses nothing and duplicates only the batch whose acknowledgement failed, whatever fails when', async () => {
    const events = makeEvents(23);
    const outcomes = fc.constantFrom<Outcome>('ok', 'fail-before-write', 'fail-after-write');
    await fc.assert(
      fc.asyncProperty(fc.array(outcomes, { maxLength: 14 }), fc.integer({ min: 1, max: 8 }), async (plan, size) => {
        const { broker, checkpoint } = await relayAll(events, plan, size);
        const seen = broker.ids();
        const firstOccurrences = [...new Set(seen)];
        expect(firstOccurrences).toEqual(events.map((e) => e.id));
        const mayRepeat = new Set(broker.sends.filter((s) => s.outcome === 'fail-after-write').flatMap((s) => s.ids));
        const repeated = seen.filter((id, i) => seen.indexOf(id) !== i);
        for (const id of repeated) expect(mayRepeat.has(id)).toBe(true);
        if (!plan.includes('fail-after-write')) expect(repeated).toEqual([]);
        expect(checkpoint.saved()).toEqual(events[events.length - 1]!.position);
      }),
      { numRuns: 60 },
    );
  });

  it('resumes from its checkpoint after being stopped while the broker was down', async () => {
    const events = makeEvents(12);
    const down = fakeBroker(['ok', ...Array<Outcome>(1000).fill('fail-before-write')]);
    const checkpoint = checkpointIn(down, events);
    let retries = 0;
    let stopRequested: () => void = () => undefined;
    const failing = new Promise<void>((resolve) => (stopRequested = resolve));
    const first = await startRelay({
      store: memoryStore(events),
      producer: down.producer,
      topic: 't',
      checkpoint: checkpoint.store,
      batchSize: 5,
      retryDelayMs: () => 0,
      onRetry: () => (++retries === 3 ? stopRequested() : undefined),
    });
    await failing;
    await first.close();
    expect(first.relayed()).toEqual(events[4]!.position);

    const up = fakeBroker([]);
    const second = await startRelay({
      store: memoryStore(events),
      producer: up.producer,
      topic: 't',
      checkpoint: { load: checkpoint.store.load, save: checkpointIn(up, events.slice(5)).store.save },
      batchSize: 5,
      retryDelayMs: () => 0,
    });
    await second.caughtUp;
    await second.close();
    expect([...down.ids(), ...up.ids()]).toEqual(events.map((e) => e.id));
  });

  it('publishes each batch as its eraser hands it back, naming the fields emptied, and moves on only after it', async () => {
    const events = makeEvents(5);
    const broker = fakeBroker([]);
    const checkpoint = checkpointIn(broker, events);
    const seen: string[][] = [];
    // A stand-in for the query-service's eraser (event-feed/published.ts): stream agent-1 has a deleted person behind it.
    const relay = await startRelay({
      store: memoryStore(events),
      producer: broker.producer,
      topic: 't',
      checkpoint: checkpoint.store,
      batchSize: 2,
      retryDelayMs: () => 0,
      erase: async (batch) => {
        seen.push(batch.map((e) => e.id));
        return batch.map((event) =>
          event.stream === 'agent-1' ? { event: { ...event, data: { i: null } }, redacted: ['data.i'] } : { event, redacted: [] },
        );
      },
    });
    await relay.caughtUp;
    await relay.close();
    expect(seen).toEqual([events.slice(0, 2), events.slice(2, 4), events.slice(4)].map((batch) => batch.map((e) => e.id)));
    const published = broker.log.map((m) => JSON.parse(m.value as string) as RecordedEventEnvelope & { redacted?: string[] });
    expect(published.map((e) => [e.stream, e.data, e.redacted])).toEqual([
      ['agent-0', { i: 0 }, undefined],
      ['agent-1', { i: null }, ['data.i']],
      ['agent-2', { i: 2 }, undefined],
      ['agent-0', { i: 3 }, undefined],
      ['agent-1', { i: null }, ['data.i']],
    ]);
    // The headers and keys are the stored event's; an analytics job reads the erased envelope as any other.
    expect(broker.log.map((m) => m.headers)).toEqual(events.map((e) => ({ 'event-id': e.id, 'event-type': e.type })));
    expect(parseMessage(broker.log[1]!.value as string)).toEqual({ ...events[1], data: { i: null } });
  });
});
