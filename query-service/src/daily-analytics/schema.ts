import type { Migration } from '@pf/infra';

export const analyticsMigrations: Migration[] = [
  {
    name: 'query-service/002-analytics',
    sql: `
      create table analytics_events_daily (
        day date not null,
        type text not null,
        count bigint not null,
        primary key (day, type)
      );
      create table analytics_deals_daily (
        day date primary key,
        deals bigint not null,
        total_loan_amount bigint not null
      );
    `,
  },
  {
    // Per stream, so a read counts only its firm's (the streams the event feed gives the firm, rm_feed_streams:
    // docs/decisions/firms-and-visibility.md). The platform-wide counts cannot be split by firm, so the consumer
    // starts again from the first event and counts them anew.
    name: 'query-service/daily-analytics/003-per-stream',
    sql: `
      drop table analytics_events_daily;
      drop table analytics_deals_daily;
      create table analytics_stream_daily (
        day date not null,
        stream text not null,
        type text not null,
        count bigint not null,
        deals bigint not null,
        total_loan_amount bigint not null,
        primary key (day, stream, type)
      );
      do $$ begin
        if to_regclass('checkpoints') is not null then delete from checkpoints where name = 'analytics:daily'; end if;
        if to_regclass('analytics_processed_events') is not null then
          delete from analytics_processed_events where consumer = 'daily';
          delete from analytics_applied_through where consumer = 'daily';
        end if;
      end $$;
    `,
  },
];
