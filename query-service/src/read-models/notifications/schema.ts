import type { Migration } from '@pf/infra';

export const notificationsMigrations: Migration[] = [
  {
    name: 'query-service/notifications/001',
    sql: `
      create table if not exists rm_notifications (
        id text primary key,
        user_id text not null,
        kind text not null,
        type text not null,
        title text not null,
        message text not null,
        priority text not null,
        link text,
        created_at timestamptz not null,
        read_at timestamptz
      );
      create index if not exists rm_notifications_user on rm_notifications (user_id, created_at desc);
      create table if not exists rm_notification_subjects (
        id text primary key,
        title text not null,
        owner_ids text[] not null,
        uploader_id text
      );
      create table if not exists rm_notification_preferences (
        user_id text primary key,
        preferences jsonb not null
      );
    `,
  },
  {
    // Firms (docs/decisions/firms-and-visibility.md): a notification is its firm's, seen by every member. Rows kept
    // under a user id are that person's firm of one, whose id is theirs, and the fold addresses a firm of one by the
    // same id (its notification id derives from it), so a rebuild gives the rows this migration leaves.
    name: 'query-service/notifications/002-firms',
    sql: `
      alter table rm_notifications rename column user_id to firm_id;
      drop index if exists rm_notifications_user;
      create index if not exists rm_notifications_firm on rm_notifications (firm_id, created_at desc);
    `,
  },
  {
    // Reading is each person's (docs/decisions/firms-and-visibility.md): one member's Mark All Read no longer reads
    // the firm's notifications for its other members. Who read a row under the shared mark is not known here, so the
    // marks start empty; `npm run rebuild -- --only notifications` folds each person's own reads from their events.
    name: 'query-service/notifications/003-read-per-person',
    sql: `
      create table if not exists rm_notification_reads (
        notification_id text not null,
        user_id text not null,
        read_at timestamptz not null,
        primary key (notification_id, user_id)
      );
      create index if not exists rm_notification_reads_user on rm_notification_reads (user_id);
      alter table rm_notifications drop column if exists read_at;
    `,
  },
];
