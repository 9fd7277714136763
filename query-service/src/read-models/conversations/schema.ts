import type { Migration } from '@pf/infra';

/** `if not exists`: databases made before read models were folders already have these (from query-service/001-read-models). */
export const conversationsMigrations: Migration[] = [
  {
    name: 'query-service/conversations/001',
    sql: `
      create table if not exists rm_conversations (
        id bigint primary key,
        title text not null,
        status text not null,
        outcome text,
        is_manual_mode boolean not null,
        match_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create table if not exists rm_participants (
        conversation_id bigint not null,
        agent_id bigint not null,
        owner_id text not null,
        name text not null,
        type text not null,
        ordinal int not null,
        primary key (conversation_id, agent_id)
      );
      create index if not exists rm_participants_owner on rm_participants (owner_id, conversation_id);
      create table if not exists rm_messages (
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
      create index if not exists rm_messages_conversation on rm_messages (conversation_id, seq);
    `,
  },
  {
    // Control per side (docs/decisions/per-side-control.md): who has taken over which side, folded by the shared conversations view.
    name: 'query-service/conversations/002-manual-sides',
    sql: `alter table rm_conversations add column if not exists manual_sides jsonb not null default '[]'`,
  },
  {
    // Firms (docs/decisions/firms-and-visibility.md): a conversation is seen by the firms of its agents. A
    // participant from before firms is its owner's firm of one, whose id is the owner's (firmOf): a rebuild matches.
    name: 'query-service/conversations/003-firms',
    sql: `
      alter table rm_participants add column if not exists firm_id text;
      update rm_participants set firm_id = owner_id where firm_id is null;
      alter table rm_participants alter column firm_id set not null;
      create index if not exists rm_participants_firm on rm_participants (firm_id, conversation_id);
    `,
  },
  {
    // The thread's notes on how an operator's message was read (docs/decisions/one-commitment-per-need.md).
    name: 'query-service/conversations/004-message-readings',
    sql: `alter table rm_messages add column if not exists is_reading boolean not null default false`,
  },
];
