/**
 * docs/architecture.md, "Stored events": the store's reads answer the contract's events, upgraded and validated where
 * they leave the store; an event the contract refuses fails the read, named; the events as stored stay as recorded.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidStoredEventError, START, type EventMetadata } from '@pf/events';
import { eventStoreDatabase } from '../testing/event-store-database';
import { readingTheContract } from './contract-reads';
import type { EventStore, NewEvent, RecordedEvent } from './port';

const metadata: EventMetadata = { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null };
const stored = (type: string, data: unknown): NewEvent => ({ id: randomUUID(), type, data, metadata });
const agentBeforeFirms = {
  agentId: 7,
  ownerId: 'user-1',
  name: 'Amelia Hart',
  type: 'borrower',
  description: 'First-time buyer',
  criteria: null,
};

describe('the store read through the contract (real PostgreSQL)', () => {
  const database = eventStoreDatabase();
  let store: EventStore;

  beforeAll(async () => {
    store = readingTheContract(database.store);
    await database.store.append('agent-7', [stored('AgentCreated', agentBeforeFirms)], 'no_stream');
  });

  it('answers an event recorded before firms in today’s shape, narrowed by its type; the event as stored is left as recorded', async () => {
    const [event] = await store.readStream('agent-7');
    expect(event?.type === 'AgentCreated' && event.data.firmId).toBe('user-1');
    expect(event).toMatchObject({ stream: 'agent-7', streamVersion: 0 });
    const [asStored] = await database.store.readStream('agent-7');
    expect(asStored?.data).toEqual(agentBeforeFirms);
  });

  it('reads each event once for the followers that share a read of the log’s tail', async () => {
    const [first, second] = await Promise.all([store.readAll(START, 100), store.readAll(START, 100)]);
    expect(first).toHaveLength(1);
    expect(second[0]).toBe(first[0]);
  });

  it('refuses an event the contract does not know, naming it and its field, on every read, and a subscription stops on it', async () => {
    await database.store.append('agent-8', [stored('AgentCreated', { ...agentBeforeFirms, agentId: 'eight' })], 'no_stream');
    const named = /A stored AgentCreated event does not match the contract: data\.agentId/;
    await expect(store.readStream('agent-8')).rejects.toThrow(named);
    await expect(store.readAll(START, 100)).rejects.toBeInstanceOf(InvalidStoredEventError);

    const handed: RecordedEvent[] = [];
    const failed = new Promise<unknown>((resolve) => {
      const subscription = store.subscribe(START, async (batch) => void handed.push(...batch), {
        onError: (error) => void subscription.close().then(() => resolve(error)),
      });
    });
    expect(await failed).toBeInstanceOf(InvalidStoredEventError);
    expect(handed).toEqual([]);
    // A reader that goes on past it (History, the gateway) reads it as stored.
    expect((await database.store.readStream('agent-8'))[0]?.data).toMatchObject({ agentId: 'eight' });
  });
});
