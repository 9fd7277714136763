import { z } from 'zod';
import { agentType } from './agent';
import { matchExplanation } from './negotiation';
import { storableText } from './text';
import { MESSAGE_MAX_LENGTH, USER_MESSAGES } from './user-messages';

export const CONVERSATION_STATUSES = ['active', 'completed'] as const;
export const conversationStatus = z.enum(CONVERSATION_STATUSES);

/** How a finished conversation ended: a deal, a deadline without one, or stopped (an agent paused or deleted). */
export const CONVERSATION_OUTCOMES = ['agreed', 'no_agreement', 'stopped'] as const;
export const conversationOutcome = z.enum(CONVERSATION_OUTCOMES);
export type ConversationOutcome = z.infer<typeof conversationOutcome>;

export const participant = z.object({
  agentId: z.number().int(),
  ownerId: z.string(),
  name: z.string(),
  type: agentType,
});
export type Participant = z.infer<typeof participant>;

/**
 * Who controls one side of a conversation (the agents of one owner): their automated agent, or a person who
 * took it over. `sessionId` is given only to the side's own owner, so their console can tell "you, here" from
 * "you, in another session".
 */
export const sideControl = z.object({
  agentIds: z.array(z.number().int()),
  isMine: z.boolean(),
  isManual: z.boolean(),
  /** The person in control of a manual side, by name (null when unknown or their account was deleted). */
  controllerName: z.string().nullable(),
  sessionId: z.string().nullable(),
  /** When the side was taken over (null while automatic). */
  since: z.string().nullable(),
});
export type SideControl = z.infer<typeof sideControl>;

/** A conversation as the read side serves it (spec §3, plus who takes part). */
export const conversationView = z.object({
  id: z.number().int(),
  title: z.string(),
  status: conversationStatus,
  outcome: conversationOutcome.nullable(),
  /** True when the viewer's own side is manual (control is per side: DESIGN.md "Control per side"). */
  isManualMode: z.boolean(),
  /** Who controls each side, one entry per owner of agents in it. */
  control: z.array(sideControl),
  participants: z.array(
    z.object({ agentId: z.number().int(), name: z.string(), type: agentType, isMine: z.boolean() }),
  ),
  /**
   * Issue 16: why the matcher paired them, per criterion (pass / warn / fail); null when no match opened it.
   * Absent from views built without the read model (a command's answer, a live push): keep the one known.
   */
  match: z.object({ score: z.number(), explanation: matchExplanation }).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConversationView = z.infer<typeof conversationView>;

/** A newer view of a conversation, keeping the match explanation an earlier one carried when it has none. */
export function withKnownMatch(next: ConversationView, previous: ConversationView | undefined): ConversationView {
  return next.match !== undefined || previous?.match === undefined ? next : { ...next, match: previous.match };
}

/** A message as the read side serves it: the real sender, and whether a person or the agent wrote it. */
export const messageView = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  fromAgentId: z.number().int(),
  toAgentId: z.number().int().nullable(),
  fromAgentName: z.string(),
  fromAgentType: agentType,
  content: z.string(),
  isAutomated: z.boolean(),
  createdAt: z.string(),
});
export type MessageView = z.infer<typeof messageView>;

/** GET /api/conversations/:id/status: where it stands, and whether its automated agents are stuck (and why). */
export const conversationStatusView = z.object({
  conversationId: z.number().int(),
  status: conversationStatus,
  outcome: conversationOutcome.nullable(),
  isManualMode: z.boolean(),
  stalled: z.object({ agentId: z.number().int().nullable(), reason: z.string(), since: z.string() }).nullable(),
});
export type ConversationStatusView = z.infer<typeof conversationStatusView>;
export const conversationListView = z.array(conversationView);
export const messageListView = z.array(messageView);

export const patchConversationInput = z.strictObject({
  isManualMode: z.boolean({ error: 'isManualMode must be true or false' }),
  /** The side to switch, named by one of its agents; by default the caller's own. Only your own agents. */
  agentId: z.number({ error: 'agentId must be a whole number' }).int().positive().optional(),
});
export type PatchConversationInput = z.infer<typeof patchConversationInput>;

export const messageContent = storableText({ error: USER_MESSAGES.messageEmpty })
  .trim()
  .min(1, { error: USER_MESSAGES.messageEmpty })
  .max(MESSAGE_MAX_LENGTH, { error: USER_MESSAGES.messageTooLong });

/** The command behind sending a message; the server decides who speaks (fromAgentId is a preference). */
export const sendMessageInput = z.object({
  conversationId: z.number({ error: 'conversationId must be a whole number' }).int().positive(),
  fromAgentId: z.number().int().positive().optional(),
  toAgentId: z.number().int().positive().optional(),
  content: messageContent,
  isAutomated: z.boolean().optional(),
});
export type SendMessageInput = z.input<typeof sendMessageInput>;

export const statsView = z.object({
  activeAgents: z.number().int(),
  activeConversations: z.number().int(),
  matchesFound: z.number().int(),
  /** Agreed over finished negotiations, as a whole percentage. */
  successRate: z.number(),
});
export type StatsView = z.infer<typeof statsView>;

export const currentUserView = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  userType: z.string().nullable(),
  /** The session this browser signed in with (its takeovers are "here", others "in another session"). */
  sessionId: z.string().optional(),
});
export type CurrentUserView = z.infer<typeof currentUserView>;

/** Route id parsing shared by the console and the services: a positive whole number or nothing. */
export function parseId(raw: string | undefined | null): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}
