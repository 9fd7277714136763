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

/**
 * Accounts that last (issue 15): a device identity brings a browser back to its account; OpenID Connect
 * accounts are keyed by issuer and subject; sessions get an id (listed and revoked in Settings → Security)
 * and end after the user's idle timeout; the profile and preferences live beside the user; each user has
 * their own key for personal data in events (deleting it is crypto-shredding).
 */
authMigrations.push({
  name: 'auth/002-accounts',
  sql: `
    alter table users
      add column phone text, add column company text, add column role text, add column address text,
      add column bio text, add column timezone text not null default 'Europe/London',
      add column language text not null default 'en',
      add column session_timeout_minutes int not null default 30,
      add column notification_preferences jsonb,
      add column agent_defaults jsonb,
      add column oidc_issuer text, add column oidc_subject text;
    create unique index users_oidc on users (oidc_issuer, oidc_subject) where oidc_issuer is not null;
    alter table sessions add column id uuid not null default gen_random_uuid();
    create unique index sessions_id on sessions (id);
    create index sessions_expiry on sessions (expires_at);
    create table devices (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now()
    );
    create index devices_user on devices (user_id);
    create table user_keys (
      user_id uuid primary key references users (id) on delete cascade,
      key bytea not null,
      created_at timestamptz not null default now()
    );
  `,
});
