import type { AgentFact, CriteriaVersion, DealFact, LeadFact, NegotiationFact, OfferFact } from './fact-state';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

// The analytics tables (schema.ts) as node-postgres returns them: bigint as number (infra/src/db/pool.ts), numeric
// as string, timestamptz as Date, jsonb parsed.

export interface DealRow {
  deal_id: string;
  conversation_id: number | null;
  agreed_at: Date;
  borrower_agent_id: number;
  lender_agent_id: number;
  broker_agent_id: number | null;
  region: string | null;
  loan_type: string;
  property_value: number;
  loan_amount: number;
  interest_rate: string;
  arrangement_fee: number;
  status: string;
  stage: string | null;
  stage_times: Record<string, string>;
  completed_at: Date | null;
  procuration_fee: number | null;
}

export interface NegotiationRow {
  conversation_id: number;
  started_at: Date;
  borrower_agent_id: number | null;
  lender_agent_id: number | null;
  broker_agent_id: number | null;
  first_offer_at: Date | null;
  completed_at: Date | null;
  outcome: string | null;
}

export interface LeadRow {
  agent_id: number;
  created_at: Date | null;
  qualified_at: Date | null;
  proposed_at: Date | null;
  agreed_at: Date | null;
  completed_at: Date | null;
}

export interface OfferRow {
  offer_id: string;
  conversation_id: number;
  at: Date;
  interest_rate: string;
  borrower_agent_id: number | null;
  region: string | null;
}

export interface AgentRow {
  agent_id: number;
  type: string;
  name: string;
  criteria: unknown;
  firm_id: string | null;
  owner_id: string | null;
}

export interface CriteriaRow {
  agent_id: number;
  at: Date;
  criteria: unknown;
}

export const dealOf = (r: DealRow): DealFact => ({
  dealId: r.deal_id,
  conversationId: r.conversation_id,
  agreedAt: r.agreed_at.toISOString(),
  borrowerAgentId: r.borrower_agent_id,
  lenderAgentId: r.lender_agent_id,
  brokerAgentId: r.broker_agent_id,
  region: r.region,
  loanType: r.loan_type,
  propertyValue: r.property_value,
  loanAmount: r.loan_amount,
  interestRate: Number(r.interest_rate),
  arrangementFee: r.arrangement_fee,
  status: r.status,
  stage: r.stage,
  stageTimes: r.stage_times,
  completedAt: iso(r.completed_at),
  procurationFee: r.procuration_fee === null ? null : Number(r.procuration_fee),
});

export const negotiationOf = (r: NegotiationRow): NegotiationFact => ({
  conversationId: r.conversation_id,
  startedAt: r.started_at.toISOString(),
  borrowerAgentId: r.borrower_agent_id,
  lenderAgentId: r.lender_agent_id,
  brokerAgentId: r.broker_agent_id,
  firstOfferAt: iso(r.first_offer_at),
  completedAt: iso(r.completed_at),
  outcome: r.outcome,
});

export const leadOf = (r: LeadRow): LeadFact => ({
  agentId: r.agent_id,
  createdAt: iso(r.created_at),
  qualifiedAt: iso(r.qualified_at),
  proposedAt: iso(r.proposed_at),
  agreedAt: iso(r.agreed_at),
  completedAt: iso(r.completed_at),
});

export const offerOf = (r: OfferRow): OfferFact => ({
  offerId: r.offer_id,
  conversationId: r.conversation_id,
  at: r.at.toISOString(),
  interestRate: Number(r.interest_rate),
  borrowerAgentId: r.borrower_agent_id,
  region: r.region,
});

export const agentOf = (r: AgentRow): AgentFact => ({
  agentId: r.agent_id,
  type: r.type,
  name: r.name,
  criteria: r.criteria,
  ownerId: r.owner_id,
  firmId: r.firm_id,
});

export const criteriaVersionOf = (r: CriteriaRow): CriteriaVersion => ({ at: r.at.toISOString(), criteria: r.criteria });
