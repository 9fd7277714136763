/**
 * Cache keys shared by the features and the live socket, which updates the cache in place from pushes.
 * Kept in one place so that a push and a mutation always name the same entry.
 */
export const queryKeys = {
  user: ['auth', 'user'] as const,
  stats: ['stats'] as const,
  agents: ['agents'] as const,
  conversations: ['conversations'] as const,
  conversation: (id: number) => ['conversations', id] as const,
  messages: (id: number) => ['conversations', id, 'messages'] as const,
};
