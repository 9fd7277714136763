import { withKnownMatch, type AgentView, type ConversationView, type MessageView, type ServerPush } from '@pf/events';
import type { QueryClient } from '@tanstack/react-query';
import { takeView } from '../position';
import { queryKeys } from '../query-keys';

function byUpdatedDesc(a: { updatedAt: string }, b: { updatedAt: string }): number {
  return b.updatedAt.localeCompare(a.updatedAt);
}

function upsert<T extends { id: number }>(list: T[] | undefined, item: T): T[] | undefined {
  if (!list) return list;
  const index = list.findIndex((entry) => entry.id === item.id);
  if (index === -1) return [item, ...list];
  const copy = list.slice();
  copy[index] = item;
  return copy;
}

/** Writes one push into the query cache in place, so every screen showing it updates without a refetch. */
export function applyPush(queryClient: QueryClient, push: ServerPush): void {
  switch (push.type) {
    case 'message_created': {
      queryClient.setQueryData<MessageView[]>(queryKeys.messages(push.conversationId), (messages) =>
        messages && !messages.some((m) => m.id === push.message.id) ? [...messages, push.message] : messages,
      );
      // The history screen reads the event store itself; a new message means new events to fetch.
      void queryClient.invalidateQueries({ queryKey: queryKeys.history(push.conversationId), exact: true });
      return;
    }
    case 'conversation_updated': {
      const conversation = push.conversation;
      // Our own command's answer may already have shown a later state of it (position.ts takeView).
      if (!takeView(`conversation:${conversation.id}`, push.position)) return;
      queryClient.setQueryData<ConversationView>(queryKeys.conversation(conversation.id), (known) => withKnownMatch(conversation, known));
      void queryClient.invalidateQueries({ queryKey: queryKeys.history(conversation.id), exact: true });
      queryClient.setQueryData<ConversationView[]>(queryKeys.conversations, (list) =>
        upsert(
          list,
          withKnownMatch(
            conversation,
            list?.find((entry) => entry.id === conversation.id),
          ),
        )?.sort(byUpdatedDesc),
      );
      // A page read from the server (its order, its counts) is read again; only the pages on screen refetch.
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.conversations, 'page'] });
      return;
    }
    case 'agent_updated': {
      queryClient.setQueryData<AgentView[]>(queryKeys.agents, (list) =>
        push.agent ? upsert(list, push.agent) : list?.filter((agent) => agent.id !== push.agentId),
      );
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.agents, 'page'] });
      return;
    }
    case 'stats_changed': {
      // The push says only that the figures moved; the read waits for this position, so it sees the change.
      void queryClient.invalidateQueries({ queryKey: queryKeys.stats });
      return;
    }
    case 'views_changed': {
      // Each view's queries are keyed under its name (queryKeys.view); the refetch reads at this position.
      for (const view of push.views) void queryClient.invalidateQueries({ queryKey: queryKeys.view(view) });
      return;
    }
    default: {
      const unexpected: never = push;
      return unexpected;
    }
  }
}
