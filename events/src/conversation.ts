import { z } from 'zod';
import { agentType } from './agent';
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

/** A conversation as the read side serves it (spec §3, plus who takes part). */
export const conversationView = z.object({
  id: z.number().int(),
  title: z.string(),
  status: conversationStatus,
  outcome: conversationOutcome.nullable(),
  isManualMode: z.boolean(),
  participants: z.array(
    z.object({ agentId: z.number().int(), name: z.string(), type: agentType, isMine: z.boolean() }),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConversationView = z.infer<typeof conversationView>;

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

export const patchConversationInput = z.strictObject({
  isManualMode: z.boolean({ error: 'isManualMode must be true or false' }),
});
export type PatchConversationInput = z.infer<typeof patchConversationInput>;

export const messageContent = z
  .string({ error: USER_MESSAGES.messageEmpty })
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
});
export type CurrentUserView = z.infer<typeof currentUserView>;

export const errorBody = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBody>;

/** Route id parsing shared by the console and the services: a positive whole number or nothing. */
export function parseId(raw: string | undefined | null): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}
