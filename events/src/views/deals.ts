import type { DealStage, DealStatus } from '../deal';
import type { OfferedProduct } from '../offers/offer';
import type { DomainEvent, EventOf } from '../domain-events';
import type { View } from './view';
import { dealFirmsOf } from '../visibility';

type Opened = EventOf<'DealOpened'>['data'];

/**
 * A deal's facts (Deals & Transactions), as every fold of it keeps them: the views below and the deal's
 * decider on the command side. Named as the read side serves them (DealView), plus who may see it.
 */
export interface DealFacts {
  id: string;
  source: Opened['source'];
  /** The conversation whose agents agreed it; null for New Deal. */
  conversationId: number | null;
  propertyAddress: string;
  propertyValue: number;
  loanAmount: number;
  ltv: number;
  interestRate: number;
  term: number;
  arrangementFee: number;
  status: DealStatus;
  stage: DealStage;
  borrowerName: string;
  lenderName: string;
  brokerName: string | null;
  borrowerAgentId: number;
  lenderAgentId: number;
  brokerAgentId: number | null;
  owners: string[];
  targetCompletion: string | null;
  /** The product agreed (docs/behaviour/offers.md); null for deals made by hand and before products. */
  product: OfferedProduct | null;
  /** The lender's procuration fee to the introducing broker, pounds; null without a broker or before products. */
  procurationFee: number | null;
}

/** A deal as its views see it: its facts and when they were recorded. */
export interface Deal extends DealFacts {
  dateCreated: string;
  completedAt: string | null;
  updatedAt: string;
}

/** A deal as its DealOpened records it: active, at application. */
export function dealFromOpening(data: Opened): DealFacts {
  const { dealId, source, agreedInConversationId, borrower, lender, broker } = data;
  return {
    id: dealId,
    source,
    conversationId: agreedInConversationId,
    propertyAddress: data.propertyAddress,
    propertyValue: data.propertyValue,
    loanAmount: data.loanAmount,
    ltv: data.ltv,
    interestRate: data.interestRate,
    term: data.termYears,
    arrangementFee: data.arrangementFee,
    status: 'active',
    stage: 'application',
    borrowerName: borrower.name,
    lenderName: lender.name,
    brokerName: broker?.name ?? null,
    borrowerAgentId: borrower.agentId,
    lenderAgentId: lender.agentId,
    brokerAgentId: broker?.agentId ?? null,
    owners: dealFirmsOf(data),
    targetCompletion: data.targetCompletion,
    product: data.product ?? null,
    procurationFee: broker && data.procurationFee !== undefined ? data.procurationFee : null,
  };
}

/**
 * What an event changes in an opened deal, with no clock, so that every fold of a deal (the views here, the
 * decider's state, a match's deal) applies the same rules: status and stage as recorded (the decider checks the moves), an
 * edit sets the address and the target date. Always a new object for a deal's change (each is a moment on the
 * deal's timeline, even one that repeats a value); the same object for any other event.
 */
export function applyDealEvent<T extends Pick<DealFacts, 'status' | 'stage' | 'propertyAddress' | 'targetCompletion'>>(
  deal: T,
  event: DomainEvent,
): T {
  switch (event.type) {
    case 'DealStatusChanged':
      return { ...deal, status: event.data.status };
    case 'DealStageChanged':
      return { ...deal, stage: event.data.stage };
    case 'DealEdited':
      return { ...deal, propertyAddress: event.data.propertyAddress, targetCompletion: event.data.targetCompletion };
    default:
      return deal;
  }
}

function dealIdOf(event: DomainEvent): string | null {
  switch (event.type) {
    case 'DealOpened':
    case 'DealStatusChanged':
    case 'DealStageChanged':
    case 'DealEdited':
      return event.data.dealId;
    default:
      return null;
  }
}

/**
 * The deals view, the same for the deal board, the match board (a match's deal) and, through its facts, the
 * deal's decider:
 * - a deal exists from its first DealOpened; a second one changes nothing, and events about a deal never
 *   opened change nothing;
 * - every other change follows applyDealEvent and moves `updatedAt` to the event's recorded time; reaching the
 *   completed stage sets `completedAt`.
 */
export function evolveDeal<T extends Deal>(deal: T | null, event: DomainEvent, recordedAt: string): T | Deal | null {
  if (event.type === 'DealOpened')
    return deal ?? { ...dealFromOpening(event.data), dateCreated: recordedAt, completedAt: null, updatedAt: recordedAt };
  if (!deal) return null;
  const changed = applyDealEvent(deal, event);
  if (changed === deal) return deal;
  const completes = event.type === 'DealStageChanged' && event.data.stage === 'completed';
  return { ...changed, completedAt: completes ? recordedAt : deal.completedAt, updatedAt: recordedAt };
}

export const dealsView: View<string, Deal> = { keyOf: dealIdOf, evolve: evolveDeal };
