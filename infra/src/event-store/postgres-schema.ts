import type { Migration } from '../db/migrate';
import { appendFunctionMigration, appendFunctionNoSeenCheckMigration, appendFunctionOneInsertMigration } from './append-function';

export const eventStoreMigrations: Migration[] = [
  {
    name: 'event-store/001-events',
    sql: `
      create table events (
        position bigserial primary key,
        transaction_id xid8 not null default pg_current_xact_id(),
        event_id uuid not null unique,
        stream_name text not null,
        stream_version bigint not null,
        type text not null,
        data jsonb not null,
        metadata jsonb not null,
        recorded_at timestamptz not null default now(),
        unique (stream_name, stream_version)
      );
      create index events_global_order on events (transaction_id, position);
      create table streams (
        stream_name text primary key,
        version bigint not null
      );
    `,
  },
  {
    // Tamper evidence (hash-chain.ts): each event's hash and its predecessor's; the stream's head hash beside
    // its version, so events removed from the end of a stream are noticed too. Events stored before this
    // migration keep null hashes, and the verifier names them as unchained.
    name: 'event-store/002-hash-chain',
    sql: `
      alter table events add column hash text, add column previous_hash text;
      alter table streams add column hash text;
    `,
  },
  // A group of appends in one statement (group-commit.ts).
  appendFunctionMigration,
  appendFunctionOneInsertMigration,
  appendFunctionNoSeenCheckMigration,
  {
    // The few types a follower acts on alone (EventStore.readTypes): the deal opener's agreements, the illustration
    // maker's opened deals. A first start, or one after the log grew while stopped, reads these rather than the whole
    // log (docs/decisions/bounded-restart.md). Partial: an append of any other type does not touch it.
    name: 'event-store/006-followed-types',
    sql: `create index events_followed_types on events (transaction_id, position) where type in ('DealAgreed', 'DealOpened');`,
  },
];
