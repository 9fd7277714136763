import type { Migration } from '@pf/infra';

/** `if not exists`: databases made before read models were folders already have these (from query-service/001-read-models). */
export const matchesFoundMigrations: Migration[] = [
  {
    name: 'query-service/matches-found/001',
    sql: `
      create table if not exists rm_matches (
        match_id text primary key,
        borrower_agent_id bigint not null,
        lender_agent_id bigint not null,
        broker_agent_id bigint,
        score numeric not null,
        explanation jsonb not null,
        created_at timestamptz not null
      );
      create table if not exists rm_match_parties (
        match_id text not null,
        owner_id text not null,
        primary key (owner_id, match_id)
      );
    `,
  },
];
