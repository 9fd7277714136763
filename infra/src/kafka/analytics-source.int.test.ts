import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createPool, type Pool } from '../db/pool';
import { migrate } from '../db/migrate';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { eventStoreMigrations } from '../event-store/postgres-schema';
import type { NewEvent, RecordedEvent } from '../event-store/port';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { analyticsSourceMigrations } from './schema';
import { loadCheckpoint } from '../db/checkpoints';
import { analyticsCheckpointName, applyOnce, startAnalyticsSource, type AnalyticsHandler } from './analytics-source';

const newEvent = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: {},
  metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
});

describe('analytics source', () => {
  let database: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const logger = createLogger('silent');
  const config = { KAFKA_BROKERS: undefined, KAFKA_TOPIC: 'unused' };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url);
    await migrate(pool, [...eventStoreMigrations, ...analyticsSourceMigrations]);
    store = new PostgresEventStore(pool, database.url);
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('hands each event id to a consumer once, across redeliveries and within a batch', async () => {
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
    const events = await store.readStream(stream);
    const applied: string[] = [];
    const handler: AnalyticsHandler = async (batch) => void applied.push(...batch.map((e) => e.id));
    await applyOnce(pool, 'dedupe', [events[0]!, events[1]!, events[0]!], handler);
    await applyOnce(pool, 'dedupe', events, handler);
    await applyOnce(pool, 'dedupe', events, handler);
    expect(applied).toEqual(events.map((e) => e.id));
    await applyOnce(pool, 'other-consumer', events, handler);
    expect(applied).toHaveLength(6);
  });

  it('rolls the claim back with the handler, so a failed batch is applied when redelivered', async () => {
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent('A')], 'no_stream');
    const events = await store.readStream(stream);
    await expect(applyOnce(pool, 'flaky', events, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const applied: RecordedEvent[] = [];
    await applyOnce(pool, 'flaky', events, async (batch) => void applied.push(...batch));
    expect(applied.map((e) => e.id)).toEqual([events[0]!.id]);
  });

  it('follows the event store by default, in the handler transaction, and resumes from its checkpoint', async () => {
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent('AgentCreated'), newEvent('AgentPaused')], 'no_stream');
    await pool.query('create table seen (event_id uuid primary key, type text not null)');
    const handler: AnalyticsHandler = async (batch, client) => {
      for (const event of batch) await client.query('insert into seen values ($1, $2)', [event.id, event.type]);
    };
    const options = { name: 'daily', pool, store, config, logger };
    const first = await startAnalyticsSource(options, handler);
    expect(first.kind).toBe('event-store');
    await first.caughtUp;
    await first.close();
    await store.append(stream, [newEvent('AgentResumed')], 1);
    // A restart must not re-apply (the insert would violate the primary key and fail the batch).
    let failure: unknown = null;
    const second = await startAnalyticsSource({ ...options, onError: (error) => (failure = error) }, handler);
    await second.caughtUp;
    await second.close();
    expect(failure).toBeNull();
    const { rows } = await pool.query<{ type: string }>('select type from seen order by type');
    expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['AgentCreated', 'AgentPaused', 'AgentResumed']));
    expect(rows.filter((r) => r.type === 'AgentResumed')).toHaveLength(1);
    expect(await loadCheckpoint(pool, analyticsCheckpointName('daily'))).toEqual(await store.headPosition());
  });
});
