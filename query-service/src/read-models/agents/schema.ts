import type { Migration } from '@pf/infra';

/**
 * `if not exists`: databases made before read models were folders already have this table (from
 * query-service/001-read-models and 003-agent-strategy), and keep it.
 */
export const agentsMigrations: Migration[] = [
  {
    name: 'query-service/agents/001',
    sql: `
      create table if not exists rm_agents (
        id bigint primary key,
        owner_id text not null,
        name text not null,
        type text not null,
        description text not null,
        criteria jsonb,
        is_active boolean not null,
        is_deleted boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        strategy text
      );
      alter table rm_agents add column if not exists strategy text;
      create index if not exists rm_agents_owner on rm_agents (owner_id, id) where not is_deleted;
    `,
  },
];
