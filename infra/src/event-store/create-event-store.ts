import type pg from 'pg';
import type { Config } from '../config';
import { EsdbEventStore } from './esdb-event-store';
import { PostgresEventStore } from './postgres-event-store';
import type { EventStore, StoredEvent } from './port';
import { measuredStore } from '../observability/measured-store';

export type EventStoreKind = 'eventstoredb' | 'postgresql';

/** Which adapter a configuration selects: EventStoreDB when EVENTSTORE_URL is set, else PostgreSQL. */
export function eventStoreKind(config: Pick<Config, 'EVENTSTORE_URL'>): EventStoreKind {
  return config.EVENTSTORE_URL ? 'eventstoredb' : 'postgresql';
}

/**
 * The event store for a service. With PostgreSQL the events share the read models' server (the
 * caller runs eventStoreMigrations) and its LISTEN connection uses the pool's connection string
 * unless `databaseUrl` is given; with EventStoreDB, PostgreSQL keeps only read models and checkpoints. It answers the
 * events as stored; the services read them through the contract (readingTheContract, contract-reads.ts).
 */
export function createEventStore(
  config: Pick<Config, 'EVENTSTORE_URL'>,
  pool: pg.Pool,
  databaseUrl: string | undefined = pool.options.connectionString,
): EventStore<StoredEvent> {
  if (config.EVENTSTORE_URL) return measuredStore(new EsdbEventStore(config.EVENTSTORE_URL));
  if (!databaseUrl) throw new Error('createEventStore: the pool has no connection string; pass databaseUrl');
  return measuredStore(new PostgresEventStore(pool, databaseUrl));
}
