import { randomUUID } from 'node:crypto';
import { streams } from '@pf/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createPool, type Pool } from '../db/pool';
import { migrate } from '../db/migrate';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { eventStoreMigrations } from '../event-store/postgres-schema';
import type { NewEvent, RecordedEvent } from '../event-store/port';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { kafkaTarget, reportSkipped, type RunningServer } from '../testing/containers';
import { fromKafka } from './analytics-source';
import { createKafka, startKafkaRelay, type KafkaRelayService } from './kafka-relay-service';
import { analyticsSourceMigrations } from './schema';

const target = await kafkaTarget();

async function eventually(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const newEvent = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: { at: type },
  metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
});

if (!target.available) {
  reportSkipped('Kafka', target.reason);
  describe.skip(`Kafka relay and analytics consumer (skipped: ${target.reason})`, () => {
    it('runs when KAFKA_BROKERS is set or a container runtime is available', () => undefined);
  });
} else {
  console.log(`[tests] Kafka suite: ${target.source}`);
  describe('Kafka relay and analytics consumer', () => {
    let server: RunningServer;
    let database: TestDatabase;
    let pool: Pool;
    let store: PostgresEventStore;
    let relay: KafkaRelayService;
    const topic = `test-events-${randomUUID()}`;
    const logger = createLogger('warn');

    beforeAll(async () => {
      server = await target.start();
      database = await createTestDatabase();
      pool = createPool(database.url);
      await migrate(pool, [...eventStoreMigrations, ...analyticsSourceMigrations]);
      store = new PostgresEventStore(pool, database.url);
    }, 180_000);
    afterAll(async () => {
      await relay?.close();
      await store?.close();
      await pool?.end();
      await database?.drop();
      await server?.stop();
    });

    it('publishes every event in stream order, and the consumer group applies each once', async () => {
      const names = [streams.deal(randomUUID()), streams.document(randomUUID())];
      for (let i = 0; i < 10; i++) {
        const stream = names[i % 2]!;
        await store.append(stream, [newEvent(`E${i}`)], 'any');
      }
      const config = { KAFKA_BROKERS: server.url.split(','), KAFKA_TOPIC: topic };
      relay = await startKafkaRelay({ config, store, pool, logger, name: topic });
      await eventually(async () => {
        const { rows } = await pool.query('select 1 from checkpoints where name = $1', [`kafka-relay:${topic}`]);
        return rows.length === 1;
      }, 'the relay checkpoint');

      const applied: RecordedEvent[] = [];
      const kafka = createKafka(config.KAFKA_BROKERS, 'analytics-test');
      const source = await fromKafka({ name: topic, pool, config, logger }, kafka, async (batch) => {
        applied.push(...batch);
      });
      await eventually(() => applied.length >= 10, 'ten events from Kafka');
      await source.close();
      const stored = (await store.readAll({ commit: 0n, prepare: 0n }, 1000)).filter((e) => names.includes(e.stream));
      expect(new Set(applied.map((e) => e.id))).toEqual(new Set(stored.map((e) => e.id)));
      expect(applied).toHaveLength(stored.length);
      for (const stream of names) {
        const versions = applied.filter((e) => e.stream === stream).map((e) => e.streamVersion);
        expect(versions).toEqual([...versions].sort((a, b) => a - b));
      }
    }, 180_000);
  });
}
