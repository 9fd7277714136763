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
];
