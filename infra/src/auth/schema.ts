import type { Migration } from '../db/migrate';

export const authMigrations: Migration[] = [
  {
    name: 'auth/001-users-sessions',
    sql: `
      create table users (
        id uuid primary key,
        first_name text,
        last_name text,
        email text,
        user_type text,
        created_at timestamptz not null default now()
      );
      create table sessions (
        token_hash text primary key,
        user_id uuid not null references users (id) on delete cascade,
        created_at timestamptz not null default now(),
        last_seen_at timestamptz not null default now(),
        expires_at timestamptz not null,
        user_agent text
      );
      create index sessions_user on sessions (user_id);
    `,
  },
];
