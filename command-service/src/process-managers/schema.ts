import type { Migration } from '@pf/infra';

export const processManagerMigrations: Migration[] = [
  {
    name: 'command-service/002-process-managers',
    sql: `
      -- Ids a process manager allocated for a decision, keyed by what caused it, so a redelivered
      -- event reuses them instead of opening a second conversation.
      create table process_manager_decisions (
        key text primary key,
        ids jsonb not null,
        created_at timestamptz not null default now()
      );
    `,
  },
];
