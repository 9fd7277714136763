import { analyticsSourceMigrations, type Migration } from '@pf/infra';

/**
 * Facts for Analytics & Reports and Market Intelligence, one row per deal, negotiation, lead (borrower agent)
 * and offer, each with the times its steps happened; the screens' figures are computed from these rows for the
 * period asked (queries.ts), so any period can be asked without keeping a table per period.
 */
export const analyticsMigrations: Migration[] = [
  // The consumer's own tables (its deduplication and checkpoint), so `npm run rebuild` finds them on any database.
  ...analyticsSourceMigrations,
  {
    name: 'query-service/analytics/001',
    sql: `
      create table if not exists rm_an_deals (
        deal_id text primary key,
        conversation_id bigint,
        agreed_at timestamptz not null,
        borrower_agent_id bigint not null,
        lender_agent_id bigint not null,
        broker_agent_id bigint,
        region text,
        loan_type text not null,
        property_value bigint not null,
        loan_amount bigint not null,
        interest_rate numeric not null,
        arrangement_fee bigint not null,
        status text not null,
        stage text,
        stage_times jsonb not null default '{}',
        completed_at timestamptz
      );
      create index if not exists rm_an_deals_agreed on rm_an_deals (agreed_at);
      create table if not exists rm_an_negotiations (
        conversation_id bigint primary key,
        started_at timestamptz not null,
        borrower_agent_id bigint,
        lender_agent_id bigint,
        broker_agent_id bigint,
        first_offer_at timestamptz,
        completed_at timestamptz,
        outcome text
      );
      create index if not exists rm_an_negotiations_completed on rm_an_negotiations (completed_at);
      create table if not exists rm_an_leads (
        agent_id bigint primary key,
        created_at timestamptz not null,
        qualified_at timestamptz,
        proposed_at timestamptz,
        agreed_at timestamptz,
        completed_at timestamptz
      );
      create index if not exists rm_an_leads_created on rm_an_leads (created_at);
      create table if not exists rm_an_offers (
        offer_id text primary key,
        conversation_id bigint not null,
        at timestamptz not null,
        interest_rate numeric not null,
        region text
      );
      create index if not exists rm_an_offers_at on rm_an_offers (at);
    `,
  },
  {
    // The facts move from the projector to the analytics consumer, which starts from the beginning of the
    // stream: it rebuilds them from scratch, with the criteria it now keeps itself (rm_an_agents).
    name: 'query-service/analytics/002-consumer',
    sql: `
      create table if not exists rm_an_agents (
        agent_id bigint primary key,
        type text not null,
        name text not null,
        criteria jsonb
      );
      -- Every version of an agent's criteria: a deal or offer is classified by the one in force at its time,
      -- whichever order the agent's stream and the deal's arrive in.
      create table if not exists rm_an_criteria (
        agent_id bigint not null,
        at timestamptz not null,
        criteria jsonb,
        primary key (agent_id, at)
      );
      -- A lead's row may be made by its first step before its AgentCreated is seen; it counts once that is.
      alter table rm_an_leads alter column created_at drop not null;
      alter table rm_an_offers add column if not exists borrower_agent_id bigint;
      create index if not exists rm_an_deals_borrower on rm_an_deals (borrower_agent_id);
      create index if not exists rm_an_offers_borrower on rm_an_offers (borrower_agent_id);
      truncate rm_an_deals, rm_an_negotiations, rm_an_leads, rm_an_offers;
    `,
  },
  {
    // Delete Account (account-deleted.ts): each agent's owner, so their agents' names and criteria can go.
    // Agents already here get theirs from the event store's AgentCreated when it is in this database.
    name: 'query-service/analytics/003-owners',
    sql: `
      alter table rm_an_agents add column if not exists owner_id text;
      create index if not exists rm_an_agents_owner on rm_an_agents (owner_id);
      do $$ begin
        if to_regclass('events') is not null then
          update rm_an_agents a set owner_id = e.data->>'ownerId'
          from events e where e.type = 'AgentCreated' and (e.data->>'agentId')::bigint = a.agent_id and a.owner_id is null;
        end if;
      end $$;
    `,
  },
  {
    // Firms (docs/decisions/firms-and-visibility.md): each agent's firm, for a firm's own Analytics and the
    // market's threshold of distinct firms; an agent from before firms is its owner's firm of one (firmOf).
    name: 'query-service/analytics/004-firms',
    sql: `
      alter table rm_an_agents add column if not exists firm_id text;
      update rm_an_agents set firm_id = owner_id where firm_id is null;
      create index if not exists rm_an_agents_firm on rm_an_agents (firm_id);
    `,
  },
  {
    // Commission (docs/behaviour/analytics.md): each deal's procuration fee as its DealAgreed records it. Deals already
    // here get theirs from the event store's DealAgreed when it is in this database (elsewhere `npm run rebuild` fills it).
    name: 'query-service/analytics/005-procuration-fee',
    sql: `
      alter table rm_an_deals add column if not exists procuration_fee bigint;
      do $$ begin
        if to_regclass('events') is not null then
          update rm_an_deals d set procuration_fee = (e.data->>'procurationFee')::bigint
          from events e
          where e.type = 'DealAgreed' and e.data->>'dealId' = d.deal_id and d.broker_agent_id is not null
            and e.data ? 'procurationFee' and d.procuration_fee is null;
        end if;
      end $$;
    `,
  },
];
