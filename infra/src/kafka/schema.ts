import type { Migration } from '../db/migrate';
import { checkpointMigrations } from '../db/checkpoints';

/** The analytics source's own table (its checkpoint is a row of `checkpoints`): which event ids each consumer has applied. */
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
];
