import type { DomainEvent } from '../domain-events';
import type { View } from './view';

/** Terms agreed in a negotiation (DealAgreed), as rm_deals keeps them; the deal opened from them is deals.ts's. */
export interface AgreedDeal {
  dealId: string;
  conversationId: number;
  borrowerAgentId: number;
  lenderAgentId: number;
  brokerAgentId: number | null;
  propertyValue: number;
  loanAmount: number;
  ltv: number;
  interestRate: number;
  termYears: number;
  arrangementFee: number;
  createdAt: string;
}

/** Terms agreed are recorded once (DealAgreed) and never change; a second DealAgreed with its id changes nothing. */
export function evolveAgreedDeal(deal: AgreedDeal | null, event: DomainEvent, recordedAt: string): AgreedDeal | null {
  if (deal || event.type !== 'DealAgreed') return deal;
  return { ...event.data, createdAt: recordedAt };
}

export const dealsAgreedView: View<string, AgreedDeal> = {
  keyOf: (event) => (event.type === 'DealAgreed' ? event.data.dealId : null),
  evolve: evolveAgreedDeal,
};
