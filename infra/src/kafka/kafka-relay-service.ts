import type pg from 'pg';
import { formatPosition } from '@pf/events';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import type { Config } from '../config';
import { migrate } from '../db/migrate';
import type { EventStore } from '../event-store/port';
import type { Logger } from '../logger';
import { checkpointMigrations, checkpointStore } from '../db/checkpoints';
import { startRelay, type Relay } from './relay';

export function createKafka(brokers: readonly string[], clientId: string): Kafka {
  return new Kafka({ clientId, brokers: [...brokers], logLevel: logLevel.WARN });
}

export interface KafkaRelayService {
  close(): Promise<void>;
}

interface Deps {
  readonly config: Pick<Config, 'KAFKA_BROKERS' | 'KAFKA_TOPIC'>;
  readonly store: EventStore;
  readonly pool: pg.Pool;
  readonly logger: Logger;
  /** Relays with different names keep separate checkpoints (for example one per topic). */
  readonly name?: string;
  readonly partitions?: number;
}

const LEADER_POLL_MS = 5000;
const RESTART_MS = 2000;

/**
 * Runs the relay when KAFKA_BROKERS is set (else does nothing). Any number of service copies may
 * call this: one holds a PostgreSQL advisory lock and relays; the others wait to take over when its
 * connection drops. Two relays at once would be correct too (at-least-once), only wasteful.
 */
export async function startKafkaRelay(deps: Deps): Promise<KafkaRelayService> {
  const brokers = deps.config.KAFKA_BROKERS;
  if (!brokers || brokers.length === 0) return { close: async () => undefined };
  const name = deps.name ?? 'default';
  const topic = deps.config.KAFKA_TOPIC;
  await migrate(deps.pool, checkpointMigrations);
  const kafka = createKafka(brokers, `relay-${name}`);
  const log = deps.logger.child({ component: 'kafka-relay', topic });

  let closed = false;
  let lockClient: pg.PoolClient | null = null;
  let producer: Producer | null = null;
  let relay: Relay | null = null;
  let timer: NodeJS.Timeout | null = null;
  const later = (ms: number, step: () => Promise<void>) => {
    if (!closed) timer = setTimeout(() => void step().catch(failed), ms);
  };
  let restarting = false;
  const failed = (error: unknown) => {
    if (restarting || closed) return;
    restarting = true;
    log.error({ err: error }, 'Kafka relay stopped; restarting');
    void stopRelay().then(() => {
      restarting = false;
      later(RESTART_MS, run);
    });
  };

  const stopRelay = async () => {
    await relay?.close().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
    relay = null;
    producer = null;
  };

  const run = async () => {
    if (!lockClient) {
      const client = await deps.pool.connect();
      const { rows } = await client.query<{ locked: boolean }>(
        "select pg_try_advisory_lock(hashtext('kafka-relay:' || $1)) as locked",
        [name],
      );
      if (!rows[0]?.locked) {
        client.release();
        return later(LEADER_POLL_MS, run);
      }
      // A lost lock connection means another copy may take over: stop relaying here.
      client.on('error', (error) => {
        lockClient = null;
        failed(error);
      });
      lockClient = client;
    }
    if (closed) return;
    const admin = kafka.admin();
    await admin.connect();
    await admin
      .createTopics({ topics: [{ topic, numPartitions: deps.partitions ?? 6 }] })
      .finally(() => admin.disconnect());
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    relay = await startRelay({
      store: deps.store,
      producer,
      topic,
      checkpoint: checkpointStore(deps.pool, `kafka-relay:${name}`),
      onRetry: (error, attempt) => log.warn({ err: error, attempt }, 'Kafka did not acknowledge a batch; re-sending'),
      onError: failed,
    });
    log.info({ from: formatPosition(relay.relayed()) }, 'Kafka relay started');
  };

  // In the background: a broker that is down delays the relay, never the service's start.
  void run().catch(failed);
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await stopRelay();
      if (lockClient) {
        await lockClient.query("select pg_advisory_unlock(hashtext('kafka-relay:' || $1))", [name]).catch(() => undefined);
        lockClient.release();
        lockClient = null;
      }
    },
  };
}
