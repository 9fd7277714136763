import { z } from 'zod';
import { agentView } from './agent';
import { conversationView, messageContent, messageView } from './conversation';
import { positionToken } from './position';
import { storableText } from './text';

const requestId = storableText().max(100, { error: 'requestId is at most 100 characters' }).optional();
const conversationId = z.number({ error: 'conversationId must be a whole number' }).int().positive();

/** Messages a browser sends on /ws (sending, manual override, following and resuming: docs/architecture.md, "A push"). */
export const clientMessage = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('send_message'),
      requestId,
      conversationId,
      fromAgentId: z.number().int().positive().optional(),
      toAgentId: z.number().int().positive().optional(),
      content: messageContent,
      isAutomated: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('manual_override'),
      requestId,
      conversationId,
      enabled: z.boolean({ error: 'enabled must be true or false' }),
    }),
    z.object({ type: z.literal('subscribe'), requestId, conversationId }),
    z.object({ type: z.literal('unsubscribe'), requestId, conversationId }),
    z.object({ type: z.literal('resume'), requestId, afterPosition: positionToken }),
    // A person is typing in the composer of a conversation they follow (sent at most every few seconds).
    z.object({ type: z.literal('typing'), requestId, conversationId }),
    // Asks the session that holds control of your side to hand it over (it is told live, by name).
    z.object({ type: z.literal('request_control'), requestId, conversationId }),
  ],
  {
    error: 'Unknown message type; expected send_message, manual_override, subscribe, unsubscribe, resume, typing or request_control',
  },
);
export type ClientMessage = z.infer<typeof clientMessage>;

/**
 * Every push of an event carries its position and the position of the previous push on this socket.
 * One event may give several pushes (agent_updated then stats_changed): they share its position, and
 * the later ones have previousPosition equal to their own position, so they are not duplicates.
 */
const pushed = { position: positionToken, previousPosition: positionToken.nullable() };

/**
 * Screens whose data an event may change. A `views_changed` push names them; the console refetches their
 * queries (keyed by the same names, with the push's position, so the read already includes the change).
 */
export const liveView = z.enum(['deals', 'documents', 'leads', 'matches', 'analytics', 'market', 'notifications', 'profile']);
export type LiveView = z.infer<typeof liveView>;

/**
 * A person with the conversation open (or typing in it), as another viewer is shown them: by name, and
 * `isYou` when it is the viewer's own account in another session. Never the viewer's own session.
 */
export const presentPerson = z.object({ name: z.string(), isYou: z.boolean() });
export type PresentPerson = z.infer<typeof presentPerson>;

export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ack'), requestId: z.string(), position: positionToken.nullable() }),
  z.object({
    type: z.literal('error'),
    requestId: z.string().nullable(),
    message: z.string(),
    /** The HTTP status the same request answers (403: the person's role may not do it), when there is one. */
    status: z.number().int().optional(),
  }),
  z.object({ type: z.literal('message_created'), ...pushed, conversationId, message: messageView }),
  z.object({ type: z.literal('conversation_updated'), ...pushed, conversation: conversationView }),
  z.object({
    type: z.literal('agent_updated'),
    ...pushed,
    agentId: z.number().int(),
    agent: agentView.nullable(),
  }),
  z.object({ type: z.literal('stats_changed'), ...pushed }),
  z.object({ type: z.literal('views_changed'), ...pushed, views: z.array(liveView).min(1) }),
  z.object({ type: z.literal('typing'), conversationId, agentId: z.number().int(), agentName: z.string() }),
  // Who else has the conversation open and who is typing; sent on following it and whenever either changes.
  z.object({ type: z.literal('presence'), conversationId, viewers: z.array(presentPerson), typers: z.array(presentPerson) }),
  // Another session of your account asks for control of your side (sent to your sessions following it).
  z.object({ type: z.literal('control_requested'), conversationId, byName: z.string(), bySessionId: z.string(), at: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
export type ServerPush = Extract<ServerMessage, { position: string }>;

/**
 * Presence across realtime-gateway copies (not a browser message): each copy NOTIFYs what its sockets do on
 * one PostgreSQL channel and LISTENs to every copy's, its own included. Passing signals, never events: who has
 * a conversation open is not a fact of the conversation.
 */
const signalPerson = { userId: z.string().max(100), sessionId: z.string().max(100), name: z.string().max(300) };
export const viewingEntry = z.object({ socket: z.string().max(100), conversationId, ...signalPerson });
export type ViewingEntry = z.infer<typeof viewingEntry>;

export const presenceSignal = z.discriminatedUnion('kind', [
  // Sockets following conversations, for ttlMs from when it is received (each copy re-announces its own).
  z.object({ kind: z.literal('viewing'), ttlMs: z.number().int().positive(), entries: z.array(viewingEntry) }),
  z.object({ kind: z.literal('left'), socket: z.string().max(100), conversationId }),
  z.object({ kind: z.literal('typing'), conversationId, ...signalPerson }),
  z.object({ kind: z.literal('stopped_typing'), conversationId, ...signalPerson }),
  // A session asks the other sessions of the same account for control of its side.
  z.object({ kind: z.literal('control_request'), conversationId, ...signalPerson, at: z.string() }),
]);
export type PresenceSignal = z.infer<typeof presenceSignal>;
