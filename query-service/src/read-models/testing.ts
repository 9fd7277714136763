import { afterAll, beforeAll } from 'vitest';
import type pg from 'pg';
import { streams, type DomainEvent, type StoredEventData } from '@pf/events';
import { authMigrations, createPool, migrate, recordedEventOf, type RecordedEvent } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { READ_MODEL_TABLES, readModelMigrations } from '.';

/** Tests only: a fresh database with every read model's tables, emptied by `reset`. */
export function readModelDatabase() {
  let database: TestDatabase;
  const handle = {
    pool: null as unknown as pg.Pool,
    reset: () => handle.pool.query(`truncate ${READ_MODEL_TABLES.join(', ')}`),
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    handle.pool = createPool(database.url, 2);
    // The accounts too: the read side names the people in control of a conversation from them at read time.
    await migrate(handle.pool, [...authMigrations, ...readModelMigrations]);
  });
  afterAll(async () => {
    await handle.pool?.end();
    await database?.drop();
  });
  return handle;
}

/**
 * Tests only: events as the store would hand them over, in global order, each in its aggregate's stream
 * with the next stream version. Recorded one minute apart unless `recordedAt` says otherwise.
 */
export function recorded(events: readonly DomainEvent[], recordedAt?: (index: number) => Date): RecordedEvent[] {
  return recordedAsStored(events, recordedAt);
}

/**
 * `recorded`, for data in a shape recorded before today's, which no DomainEvent describes: read through the contract's
 * stored-event reader as the store's reads are (recordedEventOf, infra/src/event-store/contract-reads.ts), which
 * upgrades and validates it as it does every stored event.
 */
export function recordedAsStored(
  events: readonly StoredEventData[],
  recordedAt = (index: number) => new Date(Date.UTC(2026, 0, 1, 12, index)),
): RecordedEvent[] {
  const streamVersions = new Map<string, number>();
  return events.map((event, index) => {
    const data = typeof event.data === 'object' && event.data !== null ? event.data : {};
    const stream =
      'conversationId' in data
        ? streams.conversation(Number(data.conversationId))
        : 'agentId' in data
          ? streams.agent(Number(data.agentId))
          : `other-${index}`;
    const version = (streamVersions.get(stream) ?? -1) + 1;
    streamVersions.set(stream, version);
    return recordedEventOf({
      id: `event-${index}`,
      type: event.type,
      stream,
      streamVersion: version,
      position: { commit: BigInt(index + 1), prepare: BigInt(index + 1) },
      recordedAt: recordedAt(index),
      data: event.data,
      metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
    });
  });
}
