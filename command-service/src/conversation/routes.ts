import type { FastifyPluginAsync } from 'fastify';
import { patchConversationInput, sendMessageInput, streams, type ConversationView, type MessageView } from '@pf/events';
import type { ServiceContext } from '@pf/infra';
import { handleCommand } from '../handle-command';
import { routeId, signedIn, withPosition } from '../http-helpers';
import { nextId } from '../ids';
import { conversationDecider, type ConversationState } from './conversation';

function view(state: ConversationState, userId: string, at: string): ConversationView {
  if (state.status === 'none') throw new Error('A conversation view needs a conversation');
  return {
    id: state.conversationId,
    title: state.title,
    status: state.status,
    outcome: null,
    isManualMode: state.isManualMode,
    participants: state.participants.map(({ agentId, name, type, ownerId }) => ({ agentId, name, type, isMine: ownerId === userId })),
    createdAt: at,
    updatedAt: at,
  };
}

export const conversationRoutes: FastifyPluginAsync<ServiceContext> = async (app, { pool, store }) => {
  app.patch<{ Params: { id: string } }>('/api/conversations/:id', async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const conversationId = routeId(request.params.id, 'Conversation');
    const { isManualMode } = patchConversationInput.parse(request.body ?? {});
    const { state, position } = await handleCommand(
      store,
      streams.conversation(conversationId),
      conversationDecider,
      { type: 'SetManualMode', conversationId, actorId: user.id, isManualMode },
      metadata,
    );
    return withPosition(reply, position).send(view(state, user.id, new Date().toISOString()));
  });

  /** The command behind the socket's send_message: the server decides which of the user's agents speaks. */
  app.post<{ Params: { id: string } }>('/api/conversations/:id/messages', async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const conversationId = routeId(request.params.id, 'Conversation');
    const input = sendMessageInput.parse({ ...(request.body as object | null), conversationId });
    const messageId = await nextId(pool, 'message_ids');
    const { events, state, position } = await handleCommand(
      store,
      streams.conversation(conversationId),
      conversationDecider,
      {
        type: 'SendMessage',
        conversationId,
        messageId,
        speaker: { kind: 'user', userId: user.id, preferredAgentId: input.fromAgentId },
        content: input.content,
      },
      metadata,
    );
    const sent = events[0];
    if (sent?.type !== 'MessageSent' || state.status === 'none') throw new Error('A message was expected');
    const sender = state.participants.find((p) => p.agentId === sent.data.fromAgentId)!;
    const message: MessageView = {
      id: sent.data.messageId,
      conversationId,
      fromAgentId: sent.data.fromAgentId,
      toAgentId: sent.data.toAgentId,
      fromAgentName: sender.name,
      fromAgentType: sender.type,
      content: sent.data.content,
      isAutomated: sent.data.isAutomated,
      createdAt: new Date().toISOString(),
    };
    return withPosition(reply, position).status(201).send(message);
  });
};
