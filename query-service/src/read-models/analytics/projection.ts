import type pg from 'pg';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { json, recordedAtOf, writeRows } from '../../projection-kit/fold-batch';
import { forgetDeletedOwners } from './account-deleted';
import {
  agentOf,
  criteriaVersionOf,
  dealOf,
  leadOf,
  negotiationOf,
  offerOf,
  type AgentRow,
  type CriteriaRow,
  type DealRow,
  type LeadRow,
  type NegotiationRow,
  type OfferRow,
} from './rows';
import { keysOfBatch, type BatchKeys } from './batch-keys';
import type { AgentFact, CriteriaVersion, DealFact, FactsState, LeadFact, NegotiationFact, OfferFact, Touched } from './fact-state';
import { applyFact } from './facts';

/** The rows a batch may change: those it names, and every deal and offer of an agent whose criteria it changes. */
async function load(client: pg.ClientBase, keys: BatchKeys): Promise<FactsState> {
  const negotiations = new Map<number, NegotiationFact>();
  if (keys.conversations.length > 0) {
    const rows = await client.query<NegotiationRow>(`select * from rm_an_negotiations where conversation_id = any($1::bigint[])`, [
      keys.conversations,
    ]);
    for (const fact of rows.rows.map(negotiationOf)) negotiations.set(fact.conversationId, fact);
  }
  const deals = new Map<string, DealFact>();
  if (keys.deals.length + keys.reclassify.length > 0) {
    const rows = await client.query<DealRow>(
      `select * from rm_an_deals where deal_id = any($1::text[]) or borrower_agent_id = any($2::bigint[])`,
      [keys.deals, keys.reclassify],
    );
    for (const fact of rows.rows.map(dealOf)) deals.set(fact.dealId, fact);
  }
  const offers = new Map<string, OfferFact>();
  if (keys.offers.length + keys.reclassify.length > 0) {
    const rows = await client.query<OfferRow>(
      `select * from rm_an_offers where offer_id = any($1::text[]) or borrower_agent_id = any($2::bigint[])`,
      [keys.offers, keys.reclassify],
    );
    for (const fact of rows.rows.map(offerOf)) offers.set(fact.offerId, fact);
  }
  const agentIds = new Set(keys.agents);
  // A deal's completion is its borrower's Completion in the funnel.
  for (const d of deals.values()) agentIds.add(d.borrowerAgentId);
  for (const n of negotiations.values()) if (n.borrowerAgentId !== null) agentIds.add(n.borrowerAgentId);
  const leads = new Map<number, LeadFact>();
  const agents = new Map<number, AgentFact>();
  const versions = new Map<number, CriteriaVersion[]>();
  if (agentIds.size > 0) {
    const ids = [...agentIds];
    const leadRows = await client.query<LeadRow>(`select * from rm_an_leads where agent_id = any($1::bigint[])`, [ids]);
    for (const fact of leadRows.rows.map(leadOf)) leads.set(fact.agentId, fact);
    // The criteria as the fold last left them (the fold keeps its own copy: see FactsState).
    const agentRows = await client.query<AgentRow>(`select * from rm_an_agents where agent_id = any($1::bigint[])`, [ids]);
    for (const fact of agentRows.rows.map(agentOf)) agents.set(fact.agentId, fact);
    const versionRows = await client.query<CriteriaRow>(`select * from rm_an_criteria where agent_id = any($1::bigint[]) order by at`, [
      ids,
    ]);
    for (const r of versionRows.rows) {
      const id = Number(r.agent_id);
      versions.set(id, [...(versions.get(id) ?? []), criteriaVersionOf(r)]);
    }
  }
  return { deals, negotiations, leads, offers, agents, versions };
}

// Where each fact table's statement inserts (bulk-fill.ts: copied in while a live rebuild fills the tables).
const AN_AGENTS: BulkTarget = {
  table: 'rm_an_agents',
  columns: ['agent_id', 'type', 'name', 'criteria', 'owner_id', 'firm_id'],
  key: [0],
  whenStored: 'statement',
};
const AN_CRITERIA: BulkTarget = { table: 'rm_an_criteria', columns: ['agent_id', 'at', 'criteria'], key: [0, 1], whenStored: 'nothing' };
const AN_DEALS: BulkTarget = {
  table: 'rm_an_deals',
  columns: [
    'deal_id',
    'conversation_id',
    'agreed_at',
    'borrower_agent_id',
    'lender_agent_id',
    'broker_agent_id',
    'region',
    'loan_type',
    'property_value',
    'loan_amount',
    'interest_rate',
    'arrangement_fee',
    'status',
    'stage',
    'stage_times',
    'completed_at',
    'procuration_fee',
  ],
  key: [0],
  whenStored: 'statement',
};
const AN_NEGOTIATIONS: BulkTarget = {
  table: 'rm_an_negotiations',
  columns: [
    'conversation_id',
    'started_at',
    'borrower_agent_id',
    'lender_agent_id',
    'broker_agent_id',
    'first_offer_at',
    'completed_at',
    'outcome',
  ],
  key: [0],
  whenStored: 'statement',
};
const AN_LEADS: BulkTarget = {
  table: 'rm_an_leads',
  columns: ['agent_id', 'created_at', 'qualified_at', 'proposed_at', 'agreed_at', 'completed_at'],
  key: [0],
  whenStored: 'statement',
};
const AN_OFFERS: BulkTarget = {
  table: 'rm_an_offers',
  columns: ['offer_id', 'conversation_id', 'at', 'interest_rate', 'borrower_agent_id', 'region'],
  key: [0],
  whenStored: 'statement',
};

/** Folds a batch into the analytics facts (facts.ts) and writes back the rows it changed, one statement per table. */
export async function projectAnalytics(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const keys = keysOfBatch(batch);
  if (keys.conversations.length + keys.agents.length + keys.deals.length + keys.offers.length > 0) await projectFacts(client, batch, keys);
  await forgetDeletedOwners(client, batch);
}

async function projectFacts(client: pg.ClientBase, batch: readonly RecordedEvent[], keys: BatchKeys): Promise<void> {
  const state = await load(client, keys);
  const touched: Touched = {
    deals: new Set(),
    negotiations: new Set(),
    leads: new Set(),
    offers: new Set(),
    agents: new Set(),
    versions: new Set(),
  };
  for (const event of batch) applyFact(state, touched, event, recordedAtOf(event));

  await writeRows(
    client,
    [...touched.agents].map((id) => state.agents.get(id)!).map((a) => [a.agentId, a.type, a.name, json(a.criteria), a.ownerId, a.firmId]),
    ['bigint', 'text', 'text', 'jsonb', 'text', 'text'],
    (v) => `insert into rm_an_agents (${AN_AGENTS.columns.join(', ')}) select v1, v2, v3, v4, v5, v6 from ${v} order by ord
            on conflict (agent_id) do update set name = excluded.name, criteria = excluded.criteria,
              owner_id = coalesce(excluded.owner_id, rm_an_agents.owner_id), firm_id = coalesce(excluded.firm_id, rm_an_agents.firm_id)`,
    AN_AGENTS,
  );
  await writeRows(
    client,
    [...touched.versions].flatMap((id) => state.versions.get(id)!.map((v) => [id, v.at, json(v.criteria)])),
    ['bigint', 'timestamptz', 'jsonb'],
    (v) => `insert into rm_an_criteria (${AN_CRITERIA.columns.join(', ')}) select v1, v2, v3 from ${v} order by ord on conflict do nothing`,
    AN_CRITERIA,
  );
  const deals = [...touched.deals].map((id) => state.deals.get(id)!);
  await writeRows(
    client,
    deals.map((d) => [
      d.dealId,
      d.conversationId,
      d.agreedAt,
      d.borrowerAgentId,
      d.lenderAgentId,
      d.brokerAgentId,
      d.region,
      d.loanType,
      d.propertyValue,
      d.loanAmount,
      d.interestRate,
      d.arrangementFee,
      d.status,
      d.stage,
      JSON.stringify(d.stageTimes),
      d.completedAt,
      d.procurationFee,
    ]),
    [
      'text',
      'bigint',
      'timestamptz',
      'bigint',
      'bigint',
      'bigint',
      'text',
      'text',
      'bigint',
      'bigint',
      'numeric',
      'bigint',
      'text',
      'text',
      'jsonb',
      'timestamptz',
      'bigint',
    ],
    (v) => `insert into rm_an_deals (${AN_DEALS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17 from ${v} order by ord
            on conflict (deal_id) do update set conversation_id = excluded.conversation_id, agreed_at = excluded.agreed_at,
              borrower_agent_id = excluded.borrower_agent_id, lender_agent_id = excluded.lender_agent_id, broker_agent_id = excluded.broker_agent_id,
              region = excluded.region, loan_type = excluded.loan_type, property_value = excluded.property_value, loan_amount = excluded.loan_amount,
              interest_rate = excluded.interest_rate, arrangement_fee = excluded.arrangement_fee, status = excluded.status, stage = excluded.stage,
              stage_times = excluded.stage_times, completed_at = excluded.completed_at, procuration_fee = excluded.procuration_fee`,
    AN_DEALS,
  );
  const negotiations = [...touched.negotiations].map((id) => state.negotiations.get(id)!);
  await writeRows(
    client,
    negotiations.map((n) => [
      n.conversationId,
      n.startedAt,
      n.borrowerAgentId,
      n.lenderAgentId,
      n.brokerAgentId,
      n.firstOfferAt,
      n.completedAt,
      n.outcome,
    ]),
    ['bigint', 'timestamptz', 'bigint', 'bigint', 'bigint', 'timestamptz', 'timestamptz', 'text'],
    (v) => `insert into rm_an_negotiations (${AN_NEGOTIATIONS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6, v7, v8 from ${v} order by ord
            on conflict (conversation_id) do update set first_offer_at = excluded.first_offer_at, completed_at = excluded.completed_at, outcome = excluded.outcome`,
    AN_NEGOTIATIONS,
  );
  const leads = [...touched.leads].map((id) => state.leads.get(id)!);
  await writeRows(
    client,
    leads.map((l) => [l.agentId, l.createdAt, l.qualifiedAt, l.proposedAt, l.agreedAt, l.completedAt]),
    ['bigint', 'timestamptz', 'timestamptz', 'timestamptz', 'timestamptz', 'timestamptz'],
    (v) => `insert into rm_an_leads (${AN_LEADS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6 from ${v} order by ord
            on conflict (agent_id) do update set created_at = excluded.created_at, qualified_at = excluded.qualified_at, proposed_at = excluded.proposed_at,
              agreed_at = excluded.agreed_at, completed_at = excluded.completed_at`,
    AN_LEADS,
  );
  const offers = [...touched.offers].map((id) => state.offers.get(id)!);
  await writeRows(
    client,
    offers.map((o) => [o.offerId, o.conversationId, o.at, o.interestRate, o.borrowerAgentId, o.region]),
    ['text', 'bigint', 'timestamptz', 'numeric', 'bigint', 'text'],
    (v) => `insert into rm_an_offers (${AN_OFFERS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6 from ${v} order by ord on conflict (offer_id) do update set region = excluded.region`,
    AN_OFFERS,
  );
}
