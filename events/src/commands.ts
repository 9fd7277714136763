import { z } from 'zod';
import { agentType, criteria, responseTimeHours } from './agent';
import { conversationOutcome, participant } from './conversation';
import { matchFound } from './domain-events';
import { concessionStrategy, loanTerms } from './negotiation';
import { agentMove } from './offers/agent-move';
import { borrowerNeeds } from './products/needs';
import { productRange } from './products/product';
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
  /** The creator's firm (the agent is the firm's); absent, their firm of one. */
  firmId: z.string().optional(),
  /** Seed Demo Data: a sandbox agent (meets only demo agents of its own firm). */
  isDemo: z.literal(true).optional(),
  name: z.string(),
  agentType,
  description: z.string(),
  criteria: criteria.nullable(),
  strategy: concessionStrategy.optional(),
  autoNegotiate: z.boolean().optional(),
  responseTime: responseTimeHours.optional(),
  products: productRange.nullable().optional(),
  needs: borrowerNeeds.nullable().optional(),
});
/** Pause or resume (isActive) and edit; fields left out stay as they are. */
export const changeAgent = command('ChangeAgent', {
  agentId: id,
  actorId: userId,
  /** The actor's firm (their firm of one when they have no other): a firm changes its own agents only. */
  actorFirmId: z.string(),
  isActive: z.boolean().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  criteria: criteria.nullable().optional(),
  strategy: concessionStrategy.optional(),
  products: productRange.nullable().optional(),
  needs: borrowerNeeds.nullable().optional(),
});
export const deleteAgent = command('DeleteAgent', { agentId: id, actorId: userId, actorFirmId: z.string() });

export const agentCommand = z.discriminatedUnion('type', [createAgent, changeAgent, deleteAgent]);
export type AgentCommand = z.infer<typeof agentCommand>;

/** Who issues a conversation command: a signed-in person (must own a participant) or an automated agent. */
export const speaker = z.discriminatedUnion('kind', [
  /** A person, speaking for their firm's side (their firm of one when they have no other: docs/decisions/firms-and-visibility.md). */
  z.object({
    kind: z.literal('user'),
    userId,
    firmId: z.string(),
    sessionId: z.string().optional(),
    preferredAgentId: id.optional(),
  }),
  z.object({ kind: z.literal('agent'), agentId: id }),
]);
export type Speaker = z.infer<typeof speaker>;

export const startConversation = command('StartConversation', {
  conversationId: id,
  title: z.string(),
  participants: z.array(participant).min(2),
  matchId: z.string().nullable(),
  /** Owners whose side opens taken over by them (their agent was created with auto-negotiate off). */
  manualOwnerIds: z.array(userId).optional(),
});
/**
 * Take over (or hand back) sides of the actor's firm (docs/decisions/per-side-control.md). `agentIds` names the
 * sides, one participant each; left out, the actor's default side (see the decider). Another firm's agent is
 * refused, and so is a side a colleague holds (they hand it over). `sessionId` says where the takeover happened.
 */
export const setManualMode = command('SetManualMode', {
  conversationId: id,
  actorId: userId,
  /** The actor's firm (their firm of one when they have no other): they switch a side of their firm's agents. */
  actorFirmId: z.string(),
  sessionId: z.string().optional(),
  /** One side (older callers); `agentIds` names several. */
  agentId: id.optional(),
  agentIds: z.array(id).optional(),
  isManualMode: z.boolean(),
});
/**
 * The holder of a side gives it to a colleague who asked for it (never taken by force): decided only while the
 * actor holds the side from this session, and only to a person of the side's firm who may write.
 */
export const handOverSide = command('HandOverSide', {
  conversationId: id,
  agentId: id,
  actorId: userId,
  actorFirmId: z.string(),
  sessionId: z.string().optional(),
  to: z.object({ userId, firmId: z.string(), sessionId: z.string(), mayWrite: z.boolean() }),
});
/**
 * The borrower's need as its stream stood when the command was issued (docs/decisions/one-commitment-per-need.md):
 * a conversation's decider refuses offers and acceptances while it is committed to another conversation, and an
 * acceptance unless it is committed to this one.
 */
export const needStatus = z.object({
  /** `conversationId` null: committed to a deal made by hand (New Deal), which no conversation agreed. */
  committed: z.object({ conversationId: id.nullable(), dealId: z.string(), lenderAgentId: id, lenderName: z.string() }).nullable(),
});
export type NeedStatus = z.infer<typeof needStatus>;

/**
 * What reading a person's message as their side's offer needs, looked up where the command is issued: the note's
 * message id, the offer's id, the borrower's need as it stands and the case's terms at list price (null when there is
 * nothing to price), which complete the figures not typed when neither side has offered yet.
 */
export const messageReading = z.object({
  noteMessageId: id,
  offerId: z.string(),
  need: needStatus,
  listTerms: loanTerms.nullable(),
});
export type MessageReading = z.infer<typeof messageReading>;
/**
 * A message. A person's message on a borrower's or lender's side is read as that side's offer in the same decision
 * (docs/decisions/one-commitment-per-need.md, "Operators' offers"), when `reading` is given: the message, the thread's
 * note on how it was read and the offer are recorded together.
 */
export const sendMessage = command('SendMessage', {
  conversationId: id,
  messageId: id,
  speaker,
  content: z.string(),
  toAgentId: id.optional(),
  reading: messageReading.optional(),
});
/**
 * A person's offer on the side they hold (the structured Make offer, or a message read as one): the decider
 * numbers its round and rejects the other side's open offer. `note` is the line the thread shows on how the
 * operator's message was read ("Read as an offer: …"), said by the side's own agent.
 */
export const makeOffer = command('MakeOffer', {
  conversationId: id,
  offerId: z.string(),
  speaker,
  terms: loanTerms,
  need: needStatus,
  note: z.object({ messageId: id, content: z.string() }).optional(),
});
/** The automated agent of a side leaves a conversation whose borrower's need is committed to another agreement. */
export const endForCommitment = command('EndForCommitment', {
  conversationId: id,
  byAgentId: id,
  need: needStatus,
  message: z.object({ messageId: id, content: z.string() }),
});
/** A side held by hand and left unanswered past its response time goes back to its agent, which says so. */
export const returnSideToAgent = command('ReturnSideToAgent', {
  conversationId: id,
  ownerId: userId,
  /** The speech left unanswered: the side goes back only if it is still that one. */
  unansweredKey: z.string(),
  message: z.object({ messageId: id, content: z.string() }),
});
export const acceptOffer = command('AcceptOffer', { conversationId: id, offerId: z.string(), byAgentId: id, terms: loanTerms });
export const rejectOffer = command('RejectOffer', { conversationId: id, offerId: z.string(), byAgentId: id });
export const completeConversation = command('CompleteConversation', {
  conversationId: id,
  outcome: conversationOutcome,
  reason: z.string(),
});
/** The automated agents could not make their move (the negotiator's, after a run of failures). */
export const recordStall = command('RecordStall', { conversationId: id, agentId: id.nullable(), reason: z.string() });
/**
 * An automated agent's turn, all or nothing: its words, and its move as an intent (offer, accept, walk away) from
 * which the conversation decides the offer events (decideAgentMove): the conversation is the only author of offers.
 * A principal's words go to the other side; a broker's to the conversation.
 */
export const recordAgentTurn = command('RecordAgentTurn', {
  conversationId: id,
  agentId: id,
  message: z.object({ messageId: id, content: z.string() }).optional(),
  move: agentMove.optional(),
  /** Required for a turn that offers or agrees: the need as it stood (an acceptance needs it committed here). */
  need: needStatus.optional(),
});

export const conversationCommand = z.discriminatedUnion('type', [
  startConversation,
  setManualMode,
  handOverSide,
  sendMessage,
  makeOffer,
  acceptOffer,
  rejectOffer,
  completeConversation,
  recordStall,
  recordAgentTurn,
  endForCommitment,
  returnSideToAgent,
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
