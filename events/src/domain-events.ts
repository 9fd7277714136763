import { z } from 'zod';
import { agentType, criteria } from './agent';
import { conversationOutcome, participant } from './conversation';
import { concessionStrategy, loanTerms, matchExplanation } from './negotiation';

const id = z.number().int().positive();

function event<T extends string, D extends z.ZodRawShape>(type: T, data: D) {
  return z.object({ type: z.literal(type), data: z.object(data) });
}

export const agentCreated = event('AgentCreated', {
  agentId: id,
  ownerId: z.string(),
  name: z.string(),
  type: agentType,
  description: z.string(),
  criteria: criteria.nullable(),
  strategy: concessionStrategy.optional(),
});
export const agentUpdated = event('AgentUpdated', {
  agentId: id,
  name: z.string(),
  description: z.string(),
  criteria: criteria.nullable(),
  strategy: concessionStrategy.optional(),
});
export const agentPaused = event('AgentPaused', { agentId: id });
export const agentResumed = event('AgentResumed', { agentId: id });
export const agentDeleted = event('AgentDeleted', { agentId: id });

export const conversationStarted = event('ConversationStarted', {
  conversationId: id,
  title: z.string(),
  participants: z.array(participant).min(2),
  matchId: z.string().nullable(),
});
export const manualModeChanged = event('ManualModeChanged', {
  conversationId: id,
  isManualMode: z.boolean(),
});
export const messageSent = event('MessageSent', {
  conversationId: id,
  messageId: id,
  fromAgentId: id,
  toAgentId: id.nullable(),
  content: z.string(),
  isAutomated: z.boolean(),
});
export const conversationCompleted = event('ConversationCompleted', {
  conversationId: id,
  outcome: conversationOutcome,
  reason: z.string(),
});

export const offerMade = event('OfferMade', {
  conversationId: id,
  offerId: z.string(),
  round: z.number().int().nonnegative(),
  fromAgentId: id,
  toAgentId: id,
  terms: loanTerms,
});
export const offerAccepted = event('OfferAccepted', {
  conversationId: id,
  offerId: z.string(),
  byAgentId: id,
  terms: loanTerms,
});
export const offerRejected = event('OfferRejected', {
  conversationId: id,
  offerId: z.string(),
  byAgentId: id,
});

export const matchFound = event('MatchFound', {
  matchId: z.string(),
  borrowerAgentId: id,
  lenderAgentId: id,
  brokerAgentId: id.nullable(),
  score: z.number().min(0).max(100),
  explanation: matchExplanation,
});

export const dealAgreed = event('DealAgreed', {
  dealId: z.string(),
  conversationId: id,
  borrowerAgentId: id,
  lenderAgentId: id,
  brokerAgentId: id.nullable(),
  propertyValue: z.number().int(),
  loanAmount: z.number().int(),
  ltv: z.number(),
  interestRate: z.number(),
  termYears: z.number().int(),
  arrangementFee: z.number().int(),
});

export const domainEvent = z.discriminatedUnion('type', [
  agentCreated,
  agentUpdated,
  agentPaused,
  agentResumed,
  agentDeleted,
  conversationStarted,
  manualModeChanged,
  messageSent,
  conversationCompleted,
  offerMade,
  offerAccepted,
  offerRejected,
  matchFound,
  dealAgreed,
]);
export type DomainEvent = z.infer<typeof domainEvent>;
export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** Stream names: one stream per aggregate instance. */
export const streams = {
  agent: (agentId: number) => `agent-${agentId}`,
  conversation: (conversationId: number) => `conversation-${conversationId}`,
  match: (matchId: string) => `match-${matchId}`,
  deal: (dealId: string) => `deal-${dealId}`,
} as const;
