import { z } from 'zod';
import { agentType } from './agent';
import { matchExplanation } from './negotiation';
import { storableText } from './text';
import { MESSAGE_MAX_LENGTH, USER_MESSAGES } from './user-messages';

export const CONVERSATION_STATUSES = ['active', 'completed'] as const;
export const conversationStatus = z.enum(CONVERSATION_STATUSES);
export type ConversationStatus = z.infer<typeof conversationStatus>;

/** How a finished conversation ended: a deal, a deadline without one, or stopped (an agent paused or deleted). */
export const CONVERSATION_OUTCOMES = ['agreed', 'no_agreement', 'stopped'] as const;
export const conversationOutcome = z.enum(CONVERSATION_OUTCOMES);
export type ConversationOutcome = z.infer<typeof conversationOutcome>;

export const participant = z.object({
  agentId: z.number().int(),
  ownerId: z.string(),
  /** The agent's firm when the conversation started; absent before firms (then its owner's firm of one). */
  firmId: z.string().optional(),
  name: z.string(),
  type: agentType,
});
export type Participant = z.infer<typeof participant>;

/**
 * Who controls one side of a conversation (one participant's agent: docs/decisions/per-side-control.md): its
 * automated agent, or a person who took it over. `sessionId` is given only to the side's own firm, so its console
 * can tell "you, here" from "you, in another session" and from a colleague.
 */
export const sideControl = z.object({
  /** The side's agent (`agentIds` is the same agent, for consoles of before a side was one participant). */
  agentId: z.number().int(),
  agentIds: z.array(z.number().int()),
  /** Which side it is: the borrower's, the lender's or the broker's. */
  side: agentType,
  isMine: z.boolean(),
  isManual: z.boolean(),
  /**
   * The person holding a manual side, by user id, given (like sessionId) only to the side's own firm, so a console
   * can tell its person's own hold from a colleague's; the same for every person of the firm (pushes are per firm).
   */
  controllerId: z.string().nullable(),
  /** The person in control of a manual side, by name (null when unknown or their account was deleted). */
  controllerName: z.string().nullable(),
  sessionId: z.string().nullable(),
  /** When the side was taken over (null while automatic). */
  since: z.string().nullable(),
});
export type SideControl = z.infer<typeof sideControl>;

/** A conversation as the read side serves it (docs/behaviour/conversations.md), with who takes part. */
export const conversationView = z.object({
  id: z.number().int(),
  title: z.string(),
  status: conversationStatus,
  outcome: conversationOutcome.nullable(),
  /** True when the viewer's own side is manual (control is per side: DESIGN.md "Control per side"). */
  isManualMode: z.boolean(),
  /** Who controls each side, one entry per participant. */
  control: z.array(sideControl),
  participants: z.array(
    z.object({
      agentId: z.number().int(),
      name: z.string(),
      type: agentType,
      /** Whether the agent is the viewer's firm's (titles and lists say which side is yours). */
      isMine: z.boolean(),
      /** The agent's firm by name, when known (inside a shared conversation each side sees the other's firm). */
      firmName: z.string().nullable().optional(),
    }),
  ),
  /**
   * Why the matcher paired them (docs/behaviour/matching.md, "How agents are matched"), per criterion (pass / warn / fail); null when no match opened it.
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
  /** A note on how the side's person was read (an offer, chat, or why not), not something anyone said. */
  isReading: z.boolean().optional(),
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

const sideAgentId = z.number({ error: 'agentId must be a whole number' }).int().positive();
export const patchConversationInput = z.strictObject({
  isManualMode: z.boolean({ error: 'isManualMode must be true or false' }),
  /**
   * The side to switch, named by its agent (your firm's only). Left out (API clients of before sides were named;
   * the console always names them): on taking over, the sides of your own agents, else your firm's first; on
   * handing back, every side you hold.
   */
  agentId: sideAgentId.optional(),
  /** Several sides at once (both sides of a conversation between two of your firm's agents). */
  agentIds: z
    .array(sideAgentId, { error: 'agentIds must be a list of agent ids' })
    .min(1, { error: 'agentIds names at least one side' })
    .max(10, { error: 'agentIds names at most 10 sides' })
    .optional(),
});
export type PatchConversationInput = z.infer<typeof patchConversationInput>;

/** POST /api/conversations/:id/hand-over: the holder of a side gives it to the session that asked for it. */
export const handOverInput = z.strictObject({
  agentId: sideAgentId,
  /** The asking session (the request's `bySessionId`): the side is theirs, in that session, once handed over. */
  toSessionId: z
    .string({ error: 'toSessionId must be the asking session' })
    .min(1)
    .max(100, { error: 'toSessionId is at most 100 characters' }),
});
export type HandOverInput = z.infer<typeof handOverInput>;

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

const weekOnWeek = z.object({ thisWeek: z.number().int().nonnegative(), lastWeek: z.number().int().nonnegative() });
export const weeklyTrends = z.object({
  agentsCreated: weekOnWeek,
  conversationsStarted: weekOnWeek,
  matchesFound: weekOnWeek,
});
export type WeeklyTrends = z.infer<typeof weeklyTrends>;
/** POST /api/conversations/:id/offers: the structured Make offer of the side the signed-in person holds. */
export const makeOfferInput = z.object({
  /** Which of the person's agents offers (their side's borrower or lender); the server picks when left out. */
  fromAgentId: z.number().int().positive().optional(),
  loanAmount: z
    .number({ error: 'loanAmount must be a number of pounds' })
    .int('loanAmount must be whole pounds')
    .positive('loanAmount must be more than £0')
    .max(1e9, 'loanAmount must be at most £1,000,000,000'),
  interestRate: z
    .number({ error: 'interestRate must be a number' })
    .gt(0, 'interestRate must be more than 0%')
    .lt(100, 'interestRate must be under 100%'),
  termYears: z
    .number({ error: 'termYears must be a number' })
    .int('termYears must be whole years')
    .min(1, 'termYears must be at least 1')
    .max(50, 'termYears must be at most 50'),
  arrangementFee: z
    .number({ error: 'arrangementFee must be a number of pounds' })
    .int('arrangementFee must be whole pounds')
    .min(0, 'arrangementFee must be £0 or more')
    .max(1e7, 'arrangementFee must be at most £10,000,000'),
});
export type MakeOfferInput = z.infer<typeof makeOfferInput>;
/** The answer to Make offer: the offer as recorded. */
export const offerMadeView = z.object({
  offerId: z.string(),
  round: z.number().int(),
  fromAgentId: z.number().int(),
  toAgentId: z.number().int(),
  terms: z.object({ loanAmount: z.number(), interestRate: z.number(), termYears: z.number(), arrangementFee: z.number() }),
});
export type OfferMadeView = z.infer<typeof offerMadeView>;

export const statsView = z.object({
  activeAgents: z.number().int(),
  activeConversations: z.number().int(),
  matchesFound: z.number().int(),
  /** The one success rate (success-rate.ts): agreed ÷ negotiations ended, whole percent; null while none has ended. */
  successRate: z.number().nullable(),
  /** This week (the seven days up to the answer) against the seven days before, counted from the read models' times. */
  trends: weeklyTrends.optional(),
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
  /** The person's firm and role in it (docs/decisions/firms-and-visibility.md). */
  firmId: z.string().optional(),
  firmName: z.string().optional(),
  role: z.enum(['admin', 'operator', 'auditor']).optional(),
  /** One of the installation's administrators (ADMIN_USER_IDS): may see the System screen and rebuild; not a firm role. */
  isPlatformAdmin: z.boolean().optional(),
  /** Their profile photo (GET /api/auth/photos/:photoId), or null without one (docs/behaviour/settings.md). */
  photoId: z.string().nullable().optional(),
});
export type CurrentUserView = z.infer<typeof currentUserView>;

/** Route id parsing shared by the console and the services: a positive whole number or nothing. */
export function parseId(raw: string | undefined | null): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}
