import { randomUUID } from 'node:crypto';
import { START } from '@pf/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createPool, type Pool } from '../db/pool';
import { migrate } from '../db/migrate';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { readingTheContract } from '../event-store/contract-reads';
import type { EventStore } from '../event-store/port';
import { eventStoreMigrations } from '../event-store/postgres-schema';
import type { NewEvent, RecordedEvent } from '../event-store/port';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { analyticsSourceMigrations } from './schema';
import { loadCheckpoint, lockCheckpoint, saveCheckpoint } from '../db/checkpoints';
import {
  advanceAppliedThrough,
  analyticsCheckpointName,
  applyInLogOrder,
  applyOnce,
  hasApplied,
  loadAppliedThrough,
  startAnalyticsSource,
  type AnalyticsHandler,
} from './analytics-source';

/** Events of the contract (the source reads through it), told apart by a letter: A pauses agent 1, B agent 2... */
const LABELS = 'ABCDEFG';
const newEvent = (label: string): NewEvent => ({
  id: randomUUID(),
  type: 'AgentPaused',
  data: { agentId: LABELS.indexOf(label) + 1 },
  metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
});

const labelOf = (event: RecordedEvent): string => (event.type === 'AgentPaused' ? LABELS.charAt(event.data.agentId - 1) : event.type);

describe('analytics source', () => {
  let database: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  const logger = createLogger('silent');
  const config = { KAFKA_BROKERS: undefined, KAFKA_TOPIC: 'unused' };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url);
    await migrate(pool, [...eventStoreMigrations, ...analyticsSourceMigrations]);
    store = readingTheContract(new PostgresEventStore(pool, database.url));
  });
  /** A new stream of the events of these letters, as the store reads it back. */
  const storedStream = async (...labels: string[]): Promise<RecordedEvent[]> => {
    const stream = `s-${randomUUID()}`;
    await store.append(
      stream,
      labels.map((label) => newEvent(label)),
      'no_stream',
    );
    return store.readStream(stream);
  };
  afterAll(async () => {
    await store.close();
    await pool.end();
    await database.drop();
  });

  it('hands each event id to a consumer once, across redeliveries and within a batch', async () => {
    const events = await storedStream('A', 'B', 'C');
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
    const events = await storedStream('A');
    await expect(applyOnce(pool, 'flaky', events, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const applied: RecordedEvent[] = [];
    await applyOnce(pool, 'flaky', events, async (batch) => void applied.push(...batch));
    expect(applied.map((e) => e.id)).toEqual([events[0]!.id]);
  });

  it("skips events at or before the consumer's watermark without claiming them, and applies the ones after it once", async () => {
    const events = await storedStream('A', 'B', 'C', 'D');
    const claims = async () =>
      Number(
        (await pool.query<{ n: string }>(`select count(*) as n from analytics_processed_events where consumer = 'marked'`)).rows[0]!.n,
      );
    // A rebuild of the consumer's rows reached B: one row, whatever the number of events.
    expect(await loadAppliedThrough(pool, 'marked')).toBeNull();
    await advanceAppliedThrough(pool, 'marked', events[1]!.position);
    expect(await loadAppliedThrough(pool, 'marked')).toEqual(events[1]!.position);
    // Never back.
    await advanceAppliedThrough(pool, 'marked', events[0]!.position);
    expect(await loadAppliedThrough(pool, 'marked')).toEqual(events[1]!.position);

    const applied: string[] = [];
    const handler: AnalyticsHandler = async (batch) => void applied.push(...batch.map(labelOf));
    // A and B redelivered: skipped, not handed over, not claimed, and the handler not even called.
    let calls = 0;
    expect(await applyOnce(pool, 'marked', [events[0]!, events[1]!], async () => void (calls += 1))).toEqual([]);
    expect(calls).toBe(0);
    expect(await claims()).toBe(0);
    // C and D after it: applied once, claimed; redelivered with A and B, nothing more.
    expect((await applyOnce(pool, 'marked', events, handler)).map(labelOf)).toEqual(['C', 'D']);
    expect(await applyOnce(pool, 'marked', events, handler)).toEqual([]);
    expect(applied).toEqual(['C', 'D']);
    expect(await claims()).toBe(2);
    // Applied: under the watermark (not claimed) or claimed; another consumer has neither.
    for (const event of events) expect(await hasApplied(pool, 'marked', event)).toBe(true);
    expect(await hasApplied(pool, 'unmarked', events[0]!)).toBe(false);
    // The watermark is per consumer: another consumer gets everything.
    expect(await applyOnce(pool, 'unmarked', events, handler)).toHaveLength(4);
  });

  it('moves the watermark of a consumer whose batch waits on the checkpoint lock, and the batch then skips what it covers', async () => {
    const events = await storedStream('A', 'B');
    // A rebuild's switch: the consumer's checkpoint row locked, the watermark moved, committed a moment later.
    await saveCheckpoint(pool, analyticsCheckpointName('waiting'), START);
    const rebuild = await pool.connect();
    try {
      await rebuild.query('begin');
      await lockCheckpoint(rebuild, analyticsCheckpointName('waiting'));
      await advanceAppliedThrough(rebuild, 'waiting', events[0]!.position);
      const handed: string[] = [];
      const batch = applyOnce(pool, 'waiting', events, async (applied) => void handed.push(...applied.map(labelOf)));
      // The batch waits on the checkpoint row (so it reads the watermark only once the switch has committed).
      for (let waited = 0; ; waited += 20) {
        const waiting = await pool.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (waiting.rowCount) break;
        if (waited > 5_000) throw new Error('The batch never waited on the checkpoint lock');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await rebuild.query('commit');
      expect((await batch).map(labelOf)).toEqual(['B']);
      expect(handed).toEqual(['B']);
    } finally {
      await rebuild.query('rollback');
      rebuild.release();
    }
  });

  it('from the event store, moves one watermark row with the checkpoint instead of claiming each event, and two copies apply each event once', async () => {
    const events = await storedStream('A', 'B', 'C');
    const claims = async () =>
      Number(
        (await pool.query<{ n: string }>(`select count(*) as n from analytics_processed_events where consumer = 'ordered'`)).rows[0]!.n,
      );
    const handed: string[] = [];
    const handler: AnalyticsHandler = async (batch) => void handed.push(...batch.map(labelOf));
    // Two copies of the job read overlapping batches at once: whichever takes the checkpoint row second finds what
    // the first applied under the watermark.
    await Promise.all([
      applyInLogOrder(pool, 'ordered', events.slice(0, 2), handler, events[1]!.position),
      applyInLogOrder(pool, 'ordered', events, handler, events[2]!.position),
    ]);
    expect([...handed].sort()).toEqual(['A', 'B', 'C']);
    expect(await claims()).toBe(0);
    expect(await loadAppliedThrough(pool, 'ordered')).toEqual(events[2]!.position);
    // The checkpoint never moves back, whichever copy committed last.
    expect(await loadCheckpoint(pool, analyticsCheckpointName('ordered'))).toEqual(events[2]!.position);
    // Delivered again, from the store or from Kafka under the same name: nothing more is applied, nothing claimed.
    expect(await applyInLogOrder(pool, 'ordered', events, handler, events[2]!.position)).toEqual([]);
    expect(await applyOnce(pool, 'ordered', events, handler)).toEqual([]);
    for (const event of events) expect(await hasApplied(pool, 'ordered', event)).toBe(true);
    expect(handed).toHaveLength(3);
    expect(await claims()).toBe(0);
  });

  it('from the event store, leaves alone the events a claiming copy of the job applied (a rolling upgrade runs both)', async () => {
    const events = await storedStream('A', 'B', 'C');
    const handed: string[] = [];
    const handler: AnalyticsHandler = async (batch) => void handed.push(...batch.map(labelOf));
    // The copy from before claims B, with no watermark.
    expect(await applyOnce(pool, 'rolling', [events[1]!], handler)).toHaveLength(1);
    expect(await loadAppliedThrough(pool, 'rolling')).toBeNull();
    // The new copy's batch holds all three: B is left alone.
    expect((await applyInLogOrder(pool, 'rolling', events, handler, events[2]!.position)).map(labelOf)).toEqual(['A', 'C']);
    expect(handed).toEqual(['B', 'A', 'C']);
  });

  it('follows the event store by default, in the handler transaction, and resumes from its checkpoint', async () => {
    const stream = `s-${randomUUID()}`;
    await store.append(stream, [newEvent('E'), newEvent('F')], 'no_stream');
    await pool.query('create table seen (event_id uuid primary key, type text not null)');
    const handler: AnalyticsHandler = async (batch, client) => {
      for (const event of batch) await client.query('insert into seen values ($1, $2)', [event.id, labelOf(event)]);
    };
    const options = { name: 'daily', pool, store, config, logger };
    const first = await startAnalyticsSource(options, handler);
    expect(first.kind).toBe('event-store');
    await first.caughtUp;
    await first.close();
    await store.append(stream, [newEvent('G')], 1);
    // A restart must not re-apply (the insert would violate the primary key and fail the batch).
    let failure: unknown = null;
    const second = await startAnalyticsSource({ ...options, onError: (error) => (failure = error) }, handler);
    await second.caughtUp;
    await second.close();
    expect(failure).toBeNull();
    const { rows } = await pool.query<{ type: string }>('select type from seen order by type');
    expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['E', 'F', 'G']));
    expect(rows.filter((r) => r.type === 'G')).toHaveLength(1);
    expect(await loadCheckpoint(pool, analyticsCheckpointName('daily'))).toEqual(await store.headPosition());
    // Followed in the log's order: the watermark stands at the head, and no event was claimed.
    expect(await loadAppliedThrough(pool, 'daily')).toEqual(await store.headPosition());
    const claimed = await pool.query<{ n: string }>(`select count(*) as n from analytics_processed_events where consumer = 'daily'`);
    expect(Number(claimed.rows[0]!.n)).toBe(0);
  });
});
