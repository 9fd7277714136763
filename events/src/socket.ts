import { z } from 'zod';
import { agentView } from './agent';
import { conversationView, messageContent, messageView } from './conversation';
import { idempotencyKeyHeader } from './http';
import { positionToken } from './position';
import { storableText } from './text';

const requestId = storableText().max(100, { error: 'requestId is at most 100 characters' }).optional();
/**
 * A command's Idempotency-Key (docs/decisions/idempotency-keys.md), kept by the server per person rather than per
 * socket: a client that sends the command again on a new socket (after a reconnect) with the same key gets the
 * first answer, and the command is carried out once.
 */
const idempotencyKey = idempotencyKeyHeader.optional();
const conversationId = z.number({ error: 'conversationId must be a whole number' }).int().positive();
const sideAgentId = z.number({ error: 'agentId must be a whole number' }).int().positive();
const sessionId = z.string({ error: 'toSessionId must be the asking session' }).min(1).max(100);

/** Messages a browser sends on /ws (sending, manual override, following and resuming: docs/architecture.md, "A push"). */
export const clientMessage = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('send_message'),
      requestId,
      idempotencyKey,
      conversationId,
      fromAgentId: z.number().int().positive().optional(),
      toAgentId: z.number().int().positive().optional(),
      content: messageContent,
      isAutomated: z.boolean().optional(),
    }),
    z.object({
      type: z.literal('manual_override'),
      requestId,
      idempotencyKey,
      conversationId,
      enabled: z.boolean({ error: 'enabled must be true or false' }),
      /** The sides to switch, by their agents (your firm's); left out, as PATCH /api/conversations/:id decides. */
      agentIds: z.array(sideAgentId).min(1).max(10).optional(),
    }),
    z.object({ type: z.literal('subscribe'), requestId, conversationId }),
    z.object({ type: z.literal('unsubscribe'), requestId, conversationId }),
    z.object({ type: z.literal('resume'), requestId, afterPosition: positionToken }),
    // A person is typing in the composer of a conversation they follow (sent at most every few seconds).
    z.object({ type: z.literal('typing'), requestId, conversationId }),
    // Asks whoever holds a side of your firm (a colleague, or you in another session) to hand it over; they are
    // told live, by name (docs/decisions/per-side-control.md). Without agentId: your firm's side held elsewhere.
    z.object({ type: z.literal('request_control'), requestId, conversationId, agentId: sideAgentId.optional() }),
    // The holder answers a request: hands the side over to the asking session, or declines (the asker is told).
    z.object({ type: z.literal('hand_over'), requestId, idempotencyKey, conversationId, agentId: sideAgentId, toSessionId: sessionId }),
    z.object({ type: z.literal('decline_control'), requestId, conversationId, agentId: sideAgentId, toSessionId: sessionId }),
  ],
  {
    error:
      'Unknown message type; expected send_message, manual_override, subscribe, unsubscribe, resume, typing, request_control, hand_over or decline_control',
  },
);
export type ClientMessage = z.infer<typeof clientMessage>;

/** The socket's messages that change something; each stands for one HTTP command of the command-service. */
export type SocketWrite = Extract<ClientMessage, { type: 'send_message' | 'manual_override' | 'hand_over' }>;

/**
 * The HTTP command a socket write stands for: what the gateway forwards, and what a console without its socket
 * sends instead. One answer for both, so the console keys a write by it (docs/decisions/idempotency-keys.md) and a
 * write that reached the server on the socket, sent again over HTTP, is carried out once.
 */
export function httpCommandOf(message: SocketWrite): { method: 'POST' | 'PATCH'; url: string; body: Record<string, unknown> } {
  switch (message.type) {
    case 'send_message':
      // The server decides who speaks (a person's message is never automated): fromAgentId is a preference.
      return {
        method: 'POST',
        url: `/api/conversations/${message.conversationId}/messages`,
        body: { content: message.content, ...(message.fromAgentId ? { fromAgentId: message.fromAgentId } : {}) },
      };
    case 'manual_override':
      return {
        method: 'PATCH',
        url: `/api/conversations/${message.conversationId}`,
        body: { isManualMode: message.enabled, ...(message.agentIds ? { agentIds: message.agentIds } : {}) },
      };
    case 'hand_over':
      return {
        method: 'POST',
        url: `/api/conversations/${message.conversationId}/hand-over`,
        body: { agentId: message.agentId, toSessionId: message.toSessionId },
      };
  }
}

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
export const liveView = z.enum(['deals', 'documents', 'leads', 'matches', 'analytics', 'market', 'notifications', 'profile', 'billing']);
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
  // Someone of your firm (or you, in another session) asks for control of a side you hold: sent to the session
  // holding it, on whichever gateway copy it is.
  z.object({
    type: z.literal('control_requested'),
    conversationId,
    agentId: z.number().int(),
    byName: z.string(),
    bySessionId: z.string(),
    /** The asker is the holder themself, in another session. */
    isYou: z.boolean(),
    at: z.string(),
  }),
  // The holder declined your request: sent to the asking session.
  z.object({ type: z.literal('control_declined'), conversationId, agentId: z.number().int(), byName: z.string(), at: z.string() }),
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
  // A session asks the holder of a side for it: delivered only to `to` (the holding session; every session of the
  // holder when the takeover named none) if they are of the asker's firm.
  z.object({
    kind: z.literal('control_request'),
    conversationId,
    agentId: z.number().int(),
    ...signalPerson,
    firmId: z.string().max(100),
    to: z.object({ userId: z.string().max(100), sessionId: z.string().max(100).nullable() }),
    at: z.string(),
  }),
  // The holder declined: delivered only to the asking session, if it is of the decliner's firm.
  z.object({
    kind: z.literal('control_declined'),
    conversationId,
    agentId: z.number().int(),
    name: z.string().max(300),
    firmId: z.string().max(100),
    toSessionId: z.string().max(100),
    at: z.string(),
  }),
]);
export type PresenceSignal = z.infer<typeof presenceSignal>;
