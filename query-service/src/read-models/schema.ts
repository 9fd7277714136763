import type { Migration } from '@pf/infra';

/** Read models are disposable: every row here is derived from events (timestamps included), so a rebuild reproduces them. */
export const READ_MODEL_TABLES = ['rm_agents', 'rm_conversations', 'rm_participants', 'rm_messages', 'rm_matches', 'rm_match_parties', 'rm_deals'] as const;

export const readModelMigrations: Migration[] = [
  {
    name: 'query-service/001-read-models',
    sql: `
      create table rm_agents (
        id bigint primary key,
        owner_id text not null,
        name text not null,
        type text not null,
        description text not null,
        criteria jsonb,
        is_active boolean not null,
        is_deleted boolean not null default false,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index rm_agents_owner on rm_agents (owner_id, id) where not is_deleted;

      create table rm_conversations (
        id bigint primary key,
        title text not null,
        status text not null,
        outcome text,
        is_manual_mode boolean not null,
        match_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create table rm_participants (
        conversation_id bigint not null,
        agent_id bigint not null,
        owner_id text not null,
        name text not null,
        type text not null,
        ordinal int not null,
        primary key (conversation_id, agent_id)
      );
      create index rm_participants_owner on rm_participants (owner_id, conversation_id);

      create table rm_messages (
        id bigint primary key,
        conversation_id bigint not null,
        seq bigint not null,
        from_agent_id bigint not null,
        to_agent_id bigint,
        from_agent_name text not null,
        from_agent_type text not null,
        content text not null,
        is_automated boolean not null,
        created_at timestamptz not null
      );
      create index rm_messages_conversation on rm_messages (conversation_id, seq);

      create table rm_matches (
        match_id text primary key,
        borrower_agent_id bigint not null,
        lender_agent_id bigint not null,
        broker_agent_id bigint,
        score numeric not null,
        explanation jsonb not null,
        created_at timestamptz not null
      );
      create table rm_match_parties (
        match_id text not null,
        owner_id text not null,
        primary key (owner_id, match_id)
      );

      create table rm_deals (
        deal_id text primary key,
        conversation_id bigint not null,
        borrower_agent_id bigint not null,
        lender_agent_id bigint not null,
        broker_agent_id bigint,
        property_value bigint not null,
        loan_amount bigint not null,
        ltv numeric not null,
        interest_rate numeric not null,
        term_years int not null,
        arrangement_fee bigint not null,
        created_at timestamptz not null
      );
    `,
  },
  {
    name: 'query-service/003-agent-strategy',
    sql: 'alter table rm_agents add column strategy text',
  },
];
