import type { DealFact } from './facts';

export const iso = (value: Date | null) => (value ? value.toISOString() : null);
export const num = (value: unknown) => (value === null ? null : Number(value));

export function dealOf(r: Record<string, unknown>): DealFact {
  return {
    dealId: r.deal_id as string,
    conversationId: num(r.conversation_id),
    agreedAt: iso(r.agreed_at as Date)!,
    borrowerAgentId: Number(r.borrower_agent_id),
    lenderAgentId: Number(r.lender_agent_id),
    brokerAgentId: num(r.broker_agent_id),
    region: r.region as string | null,
    loanType: r.loan_type as string,
    propertyValue: Number(r.property_value),
    loanAmount: Number(r.loan_amount),
    interestRate: Number(r.interest_rate),
    arrangementFee: Number(r.arrangement_fee),
    status: r.status as string,
    stage: r.stage as string | null,
    stageTimes: r.stage_times as Record<string, string>,
    completedAt: iso(r.completed_at as Date | null),
  };
}
