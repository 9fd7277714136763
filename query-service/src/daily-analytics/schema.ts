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
];
