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
  {
    // Firms (docs/decisions/firms-and-visibility.md): an agent is its firm's. Agents from before firms belong to
    // their owner's firm of one, whose id is the owner's: the fold (firmOf) gives the same, so a rebuild matches.
    name: 'query-service/agents/002-firms',
    sql: `
      alter table rm_agents add column if not exists firm_id text;
      update rm_agents set firm_id = owner_id where firm_id is null;
      alter table rm_agents alter column firm_id set not null;
      create index if not exists rm_agents_firm on rm_agents (firm_id, id) where not is_deleted;
    `,
  },
  {
    // Products and needs (docs/behaviour/products.md): older agents have neither (null); readers upgrade them
    // from their criteria in one place (events/src/products/upgrade.ts).
    name: 'query-service/agents/003-products',
    sql: `
      alter table rm_agents add column if not exists products jsonb;
      alter table rm_agents add column if not exists needs jsonb;
    `,
  },
  {
    // Seed Demo Data's agents are badged (docs/decisions/firms-and-visibility.md, "Demo data is a sandbox"). Rows
    // of demo agents made before this column read false until the replay of READ_MODELS_SHAPE 4 fills them.
    name: 'query-service/agents/004-demo',
    sql: `alter table rm_agents add column if not exists is_demo boolean not null default false;`,
  },
];
