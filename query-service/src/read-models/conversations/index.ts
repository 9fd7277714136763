import type { ReadModel } from '../../projection-kit/read-model';
import { projectConversations } from './projection';
import { conversationsMigrations } from './schema';

export { findConversation, findConversationWithVersion, listConversations, listMessages, pageConversations } from './queries';

/**
 * Conversations with who takes part and what they said (docs/behaviour/conversations.md): one module, since a message's sender is
 * read from the participants and a message moves its conversation's updatedAt (the shared conversations view).
 */
export const conversationsReadModel: ReadModel = {
  name: 'conversations',
  tables: ['rm_conversations', 'rm_participants', 'rm_messages'],
  migrations: conversationsMigrations,
  project: projectConversations,
};
