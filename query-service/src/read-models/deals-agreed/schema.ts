import type { Migration } from '@pf/infra';

/** `if not exists`: databases made before read models were folders already have it (from query-service/001-read-models). */
export const dealsAgreedMigrations: Migration[] = [
  {
    name: 'query-service/deals-agreed/001',
    sql: `
      create table if not exists rm_deals (
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
];
