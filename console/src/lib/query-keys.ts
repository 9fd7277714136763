/**
 * Cache keys shared by the features and the live socket, which updates the cache in place from pushes.
 * Kept in one place so that a push and a mutation always name the same entry.
 */
import type { LiveView } from '@pf/events';

export const queryKeys = {
  user: ['auth', 'user'] as const,
  stats: ['stats'] as const,
  agents: ['agents'] as const,
  conversations: ['conversations'] as const,
  conversation: (id: number) => ['conversations', id] as const,
  messages: (id: number) => ['conversations', id, 'messages'] as const,
  /** A conversation's history from the event store (docs/behaviour/history.md); its `?at=` states hang under it. */
  history: (id: number) => ['history', id] as const,
  /** The root key of a screen's queries that `views_changed` pushes refresh: ['deals'], ['deals', 'stats'], ... */
  view: (view: LiveView) => [view] as const,
  /** Settings → Agent Defaults, read by Create Agent too; under the 'profile' view so a change elsewhere refreshes it. */
  agentDefaults: ['profile', 'agent-defaults'] as const,
};
