import { z } from 'zod';
import { agentType, criteria, responseTimeHours } from './agent';
import { conversationOutcome, participant } from './conversation';
import {
  conversationCompleted,
  conversationStalled,
  conversationStarted,
  dealAgreed,
  manualModeChanged,
  matchFound,
  messageSent,
  offerAccepted,
  offerMade,
  offerRejected,
} from './domain-events';
import { concessionStrategy, loanTerms } from './negotiation';
import { agentDefaultsInput, notificationPreferences, sealed, sessionTimeout } from './user';

/**
 * Commands: what a person or an automated agent asks an aggregate to do, imperative (`PauseAgent`), decided by
 * the aggregate's pure `decide` in command-service. The HTTP bodies (createAgentInput, ...) are what a client
 * sends; a route turns one into a command by adding what the server knows (ids, the signed-in actor).
 * Metadata (actor, correlation) travels beside a command, as it does beside an event.
 */

const id = z.number().int().positive();
const userId = z.string();

function command<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), ...shape });
}

export const createAgent = command('CreateAgent', {
  agentId: id,
  ownerId: userId,
  name: z.string(),
  agentType,
  description: z.string(),
  criteria: criteria.nullable(),
  strategy: concessionStrategy.optional(),
  autoNegotiate: z.boolean().optional(),
  responseTime: responseTimeHours.optional(),
});
/** Pause or resume (isActive) and edit; fields left out stay as they are. */
export const changeAgent = command('ChangeAgent', {
  agentId: id,
  actorId: userId,
  isActive: z.boolean().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  criteria: criteria.nullable().optional(),
  strategy: concessionStrategy.optional(),
});
export const deleteAgent = command('DeleteAgent', { agentId: id, actorId: userId });

export const agentCommand = z.discriminatedUnion('type', [createAgent, changeAgent, deleteAgent]);
export type AgentCommand = z.infer<typeof agentCommand>;

/** Who issues a conversation command: a signed-in person (must own a participant) or an automated agent. */
export const speaker = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId, sessionId: z.string().optional(), preferredAgentId: id.optional() }),
  z.object({ kind: z.literal('agent'), agentId: id }),
]);
export type Speaker = z.infer<typeof speaker>;

/** The events an automated agent's turn may record in its conversation. */
export const conversationEvent = z.discriminatedUnion('type', [
  conversationStarted,
  manualModeChanged,
  messageSent,
  conversationCompleted,
  conversationStalled,
  offerMade,
  offerAccepted,
  offerRejected,
  dealAgreed,
]);
export type ConversationEvent = z.infer<typeof conversationEvent>;

export const startConversation = command('StartConversation', {
  conversationId: id,
  title: z.string(),
  participants: z.array(participant).min(2),
  matchId: z.string().nullable(),
  /** Owners whose side opens taken over by them (their agent was created with auto-negotiate off). */
  manualOwnerIds: z.array(userId).optional(),
});
/**
 * Take over (or hand back) the actor's own side. `agentId` names the side by one of its agents; another
 * owner's agent is refused (control per side). `sessionId` says where the takeover happened.
 */
export const setManualMode = command('SetManualMode', {
  conversationId: id,
  actorId: userId,
  sessionId: z.string().optional(),
  agentId: id.optional(),
  isManualMode: z.boolean(),
});
export const sendMessage = command('SendMessage', {
  conversationId: id,
  messageId: id,
  speaker,
  content: z.string(),
  toAgentId: id.optional(),
});
export const makeOffer = command('MakeOffer', {
  conversationId: id,
  offerId: z.string(),
  round: z.number().int().nonnegative(),
  fromAgentId: id,
  toAgentId: id,
  terms: loanTerms,
});
export const acceptOffer = command('AcceptOffer', { conversationId: id, offerId: z.string(), byAgentId: id, terms: loanTerms });
export const rejectOffer = command('RejectOffer', { conversationId: id, offerId: z.string(), byAgentId: id });
export const completeConversation = command('CompleteConversation', { conversationId: id, outcome: conversationOutcome, reason: z.string() });
/** The automated agents could not make their move (the negotiator's, after a run of failures). */
export const recordStall = command('RecordStall', { conversationId: id, agentId: id.nullable(), reason: z.string() });
/** An automated agent's turn: its message and the negotiation events the engine decided, all or nothing. */
export const recordAgentTurn = command('RecordAgentTurn', { conversationId: id, agentId: id, events: z.array(conversationEvent) });

export const conversationCommand = z.discriminatedUnion('type', [
  startConversation,
  setManualMode,
  sendMessage,
  makeOffer,
  acceptOffer,
  rejectOffer,
  completeConversation,
  recordStall,
  recordAgentTurn,
]);
export type ConversationCommand = z.infer<typeof conversationCommand>;

/** A match is recorded once (the matcher's command; the match's data is the MatchFound event's). */
export const recordMatch = z.object({ type: z.literal('RecordMatch'), ...matchFound.shape.data.shape });
export type RecordMatch = z.infer<typeof recordMatch>;


/** Settings: what a person changes about their own account (user-{id} stream). The profile arrives sealed. */
export const changeProfile = command('ChangeProfile', { userId, profile: sealed });
export const changePreferences = command('ChangePreferences', { userId, notifications: notificationPreferences, sessionTimeout });
export const changeAgentDefaults = command('ChangeAgentDefaults', { userId, defaults: agentDefaultsInput });
export const deleteAccount = command('DeleteAccount', { userId });
export const userCommand = z.discriminatedUnion('type', [changeProfile, changePreferences, changeAgentDefaults, deleteAccount]);
export type UserCommand = z.infer<typeof userCommand>;
