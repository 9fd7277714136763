import type pg from 'pg';
import { formatPosition, type Position } from '@pf/events';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import type { Config } from '../config';
import { migrate } from '../db/migrate';
import type { EventStore, StoredEvent } from '../event-store/port';
import type { Logger } from '../logger';
import { checkpointMigrations, checkpointStore } from '../db/checkpoints';
import { startRelay, type Eraser, type Relay } from './relay';
import { runOf } from '../supervision/follow';
import { Supervisor, type FollowerSpec } from '../supervision/supervisor';

export function createKafka(brokers: readonly string[], clientId: string): Kafka {
  return new Kafka({ clientId, brokers: [...brokers], logLevel: logLevel.WARN });
}

export interface KafkaRelayService {
  close(): Promise<void>;
}

interface Deps {
  readonly config: Pick<Config, 'KAFKA_BROKERS' | 'KAFKA_TOPIC'>;
  /** The events as stored: what the topic carries. */
  readonly store: EventStore<StoredEvent>;
  readonly pool: pg.Pool;
  readonly logger: Logger;
  /** Relays with different names keep separate checkpoints (for example one per topic). */
  readonly name?: string;
  readonly partitions?: number;
  /** What a deleted person's data becomes in what is published (the query-service's erasure: relay.ts `erase`). */
  readonly erase?: Eraser;
}

/**
 * The relay as a supervised follower, when KAFKA_BROKERS is set (else null). Any number of service copies
 * may run it: the one holding the leadership lock relays, the others stand by and take over when its
 * connection drops. Two relays at once would be correct too (at-least-once), only wasteful. Each run
 * connects a fresh producer and relays from the checkpoint.
 */
export function kafkaRelayFollower(deps: Deps): FollowerSpec | null {
  const brokers = deps.config.KAFKA_BROKERS;
  if (!brokers || brokers.length === 0) return null;
  const name = deps.name ?? 'default';
  const topic = deps.config.KAFKA_TOPIC;
  const kafka = createKafka(brokers, `relay-${name}`);
  const log = deps.logger.child({ component: 'kafka-relay', topic });
  let relay: Relay | null = null;
  let position: Position | null = null;

  return {
    name: `kafka-relay:${name}`,
    leadership: `kafka-relay:${name}`,
    position: () => relay?.relayed() ?? position,
    async start() {
      await migrate(deps.pool, checkpointMigrations);
      const admin = kafka.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: deps.partitions ?? 6 }] }).finally(() => admin.disconnect());
      const producer: Producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      try {
        const run = await runOf(async (onError) => {
          relay = await startRelay({
            store: deps.store,
            producer,
            topic,
            checkpoint: checkpointStore(deps.pool, `kafka-relay:${name}`),
            ...(deps.erase ? { erase: deps.erase } : {}),
            onRetry: (error, attempt) => log.warn({ err: error, attempt }, 'Kafka did not acknowledge a batch; re-sending'),
            onError,
          });
          return relay;
        });
        log.info({ from: formatPosition(relay!.relayed()) }, 'Kafka relay started');
        return {
          ...run,
          async close() {
            position = relay?.relayed() ?? position;
            await run.close();
            await producer.disconnect().catch(() => undefined);
          },
        };
      } catch (error) {
        await producer.disconnect().catch(() => undefined);
        throw error;
      }
    },
  };
}

/** Runs the relay under `supervisor` (or one of its own) when KAFKA_BROKERS is set; else does nothing. */
export async function startKafkaRelay(deps: Deps & { supervisor?: Supervisor }): Promise<KafkaRelayService> {
  const spec = kafkaRelayFollower(deps);
  if (!spec) return { close: async () => undefined };
  const supervisor = deps.supervisor ?? new Supervisor({ log: deps.logger, databaseUrl: deps.pool.options.connectionString });
  const supervised = supervisor.run(spec);
  return { close: () => supervised.stop() };
}
