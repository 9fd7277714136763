import { z } from 'zod';
import { agentView } from './agent';
import { conversationView, messageContent, messageView } from './conversation';
import { positionToken } from './position';

const requestId = z.string().max(100).optional();
const conversationId = z.number({ error: 'conversationId must be a whole number' }).int().positive();

/** Messages a browser sends on /ws (spec §7, plus following and resuming). */
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
  ],
  { error: 'Unknown message type; expected send_message, manual_override, subscribe, unsubscribe or resume' },
);
export type ClientMessage = z.infer<typeof clientMessage>;

/**
 * Every push of an event carries its position and the position of the previous push on this socket.
 * One event may give several pushes (agent_updated then stats_changed): they share its position, and
 * the later ones have previousPosition equal to their own position, so they are not duplicates.
 */
const pushed = { position: positionToken, previousPosition: positionToken.nullable() };

export const serverMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ack'), requestId: z.string(), position: positionToken.nullable() }),
  z.object({ type: z.literal('error'), requestId: z.string().nullable(), message: z.string() }),
  z.object({ type: z.literal('message_created'), ...pushed, conversationId, message: messageView }),
  z.object({ type: z.literal('conversation_updated'), ...pushed, conversation: conversationView }),
  z.object({
    type: z.literal('agent_updated'),
    ...pushed,
    agentId: z.number().int(),
    agent: agentView.nullable(),
  }),
  z.object({ type: z.literal('stats_changed'), ...pushed }),
  z.object({ type: z.literal('typing'), conversationId, agentId: z.number().int(), agentName: z.string() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
export type ServerPush = Extract<ServerMessage, { position: string }>;
