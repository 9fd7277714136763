import type { Migration } from '../db/migrate';
import { checkpointMigrations } from '../db/checkpoints';

/**
 * The analytics source's own tables (its checkpoint is a row of `checkpoints`): which event ids each consumer has
 * applied, and the position up to which it has applied every event (set by a rebuild of its rows, so the
 * rebuild records one row rather than an id per event: docs/decisions/live-rebuild.md).
 */
export const analyticsSourceMigrations: Migration[] = [
  ...checkpointMigrations,
  {
    name: 'analytics/001-processed-events',
    sql: `
      create table analytics_processed_events (
        consumer text not null,
        event_id uuid not null,
        primary key (consumer, event_id)
      );
    `,
  },
  {
    name: 'analytics/002-applied-through',
    sql: `
      create table analytics_applied_through (
        consumer text primary key,
        commit_position numeric(20, 0) not null,
        prepare_position numeric(20, 0) not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
];
