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
 * Accounts that last (docs/behaviour/sign-in.md): a device identity brings a browser back to its account; OpenID Connect
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

/**
 * Firms (docs/decisions/firms-and-visibility.md): every person belongs to one firm, with a role in it. Every
 * account from before firms becomes a firm of one whose id is its user's id, with its user as admin: what the
 * read models hold under that user's id is then already the firm's, and rebuilding them gives the same rows.
 * The firm's events (firm-{id}) record every change; these tables are what sessions and invitations read.
 */
authMigrations.push({
  name: 'auth/003-firms',
  sql: `
    create table firms (
      id text primary key,
      name text not null,
      created_at timestamptz not null default now()
    );
    insert into firms (id, name)
      select id::text, coalesce(nullif(trim(concat_ws(' ', first_name, last_name)), '') || '''s firm', 'My firm') from users;
    alter table users add column firm_id text references firms (id), add column firm_role text not null default 'admin'
      check (firm_role in ('admin', 'operator', 'auditor'));
    update users set firm_id = id::text;
    alter table users alter column firm_id set not null;
    create index users_firm on users (firm_id);
    create table firm_invites (
      id uuid primary key,
      firm_id text not null references firms (id) on delete cascade,
      token_hash text not null unique,
      role text not null,
      expires_at timestamptz not null,
      used_by uuid,
      created_at timestamptz not null default now()
    );
  `,
});

/**
 * Sign-in protection (docs/decisions/sign-in-secrets.md): the secrets of a protected account, beside it and never
 * in an event. The password as an argon2id hash; the TOTP secret as it is (verifying a code needs it; a pending
 * one until a first code confirms it); the recovery codes as SHA-256 hashes (they are random, not chosen); the
 * last TOTP time step used, so a code works once. `sign_in_failures` holds recent wrong attempts per account and
 * per client address, which the throttle counts.
 */
authMigrations.push({
  name: 'auth/004-sign-in-protection',
  sql: `
    create table account_protection (
      user_id uuid primary key references users (id) on delete cascade,
      email text not null,
      password_hash text not null,
      totp_secret text,
      totp_pending_secret text,
      totp_last_step bigint,
      recovery_code_hashes text[] not null default '{}',
      updated_at timestamptz not null default now()
    );
    create unique index account_protection_email on account_protection (email);
    create table sign_in_failures (
      key text not null,
      at timestamptz not null default now()
    );
    create index sign_in_failures_key on sign_in_failures (key, at);
  `,
});

/**
 * Invitations as Settings → Members lists them and as their link shows them to a visitor (docs/decisions/firms-and-visibility.md):
 * who sent each, and whether it was withdrawn (InvitationRevoked on the firm's stream).
 */
authMigrations.push({
  name: 'auth/005-invitation-details',
  sql: `
    alter table firm_invites add column invited_by uuid, add column revoked_at timestamptz;
    create index firm_invites_firm on firm_invites (firm_id);
  `,
});

/**
 * Profile photos (docs/behaviour/settings.md, "Profile photo"): the resized photo's bytes beside the account, as
 * documents keep theirs beside the events (their ProfilePhotoChanged event records the id and SHA-256). Only the
 * current photo is kept; deleting the account deletes it.
 */
authMigrations.push({
  name: 'auth/006-profile-photos',
  sql: `
    create table profile_photos (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      content_type text not null,
      sha256 text not null,
      bytes bytea not null,
      created_at timestamptz not null default now()
    );
    create index profile_photos_user on profile_photos (user_id);
    alter table users add column photo_id uuid;
  `,
});
