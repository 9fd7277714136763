import type { Migration } from '../db/migrate';

/** Positions are stored as numeric: PostgreSQL transaction ids and EventStoreDB log positions are unsigned 64-bit. */
export const kafkaRelayMigrations: Migration[] = [
  {
    name: 'kafka/001-relay-checkpoint',
    sql: `
      create table kafka_relay_checkpoint (
        name text primary key,
        commit_position numeric(20, 0) not null,
        prepare_position numeric(20, 0) not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
];

export const analyticsSourceMigrations: Migration[] = [
  {
    name: 'analytics/001-source',
    sql: `
      create table analytics_source_checkpoint (
        consumer text primary key,
        commit_position numeric(20, 0) not null,
        prepare_position numeric(20, 0) not null,
        updated_at timestamptz not null default now()
      );
      create table analytics_processed_events (
        consumer text not null,
        event_id uuid not null,
        primary key (consumer, event_id)
      );
    `,
  },
];
