import type { MessageView } from '../conversation';
import type { DomainEvent } from '../domain-events';
import { participantOf, type Conversation } from './conversations';

/**
 * A message as it is listed and pushed. A message never changes once sent, so its fold is a single step
 * from nothing, and it needs the conversation as it stands (the view of who takes part):
 * - the sender's name and type are those of its participant entry (as when the conversation started);
 * - a message to a conversation never started, or from an agent that is not a participant, is not part of
 *   the conversation: null (not stored, not pushed), never shown under a made-up sender.
 */
export function messageOf(conversation: Conversation | null | undefined, event: DomainEvent, recordedAt: string): MessageView | null {
  if (event.type !== 'MessageSent' || !conversation || conversation.id !== event.data.conversationId) return null;
  const { messageId, conversationId, fromAgentId, toAgentId, content, isAutomated } = event.data;
  const sender = participantOf(conversation, fromAgentId);
  if (!sender) return null;
  return {
    id: messageId,
    conversationId,
    fromAgentId,
    toAgentId,
    fromAgentName: sender.name,
    fromAgentType: sender.type,
    content,
    isAutomated,
    ...(event.data.reading ? { isReading: true } : {}),
    createdAt: recordedAt,
  };
}
