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
  {
    name: 'command-service/003-process-manager-snapshots',
    sql: `
      -- A process manager's in-memory state at a position, so a new leader resumes there (see snapshots.ts).
      create table process_manager_snapshots (
        name text primary key,
        format int not null,
        commit_position numeric(20, 0) not null,
        prepare_position numeric(20, 0) not null,
        state jsonb not null,
        saved_at timestamptz not null default now()
      );
    `,
  },
];
