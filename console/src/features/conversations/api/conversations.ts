import { conversationListView, conversationView, messageListView, messageView } from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getConversationsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.conversations,
    queryFn: () => api.get('/api/conversations', conversationListView),
  });

export const getConversationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.conversation(id),
    queryFn: () => api.get(`/api/conversations/${id}`, conversationView),
  });

export const getMessagesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.messages(id),
    queryFn: () => api.get(`/api/conversations/${id}/messages`, messageListView),
  });

export function useConversations() {
  return useQuery(getConversationsQueryOptions());
}

/** Spec §7: no retry; runs only when the id is valid. */
export function useConversation(id: number | null) {
  return useQuery({ ...getConversationQueryOptions(id ?? 0), enabled: id !== null });
}

export function useMessages(id: number | null) {
  return useQuery({ ...getMessagesQueryOptions(id ?? 0), enabled: id !== null });
}

/** The conversation after the switch, and the position the switch was written at. */
export function setManualMode(id: number, isManualMode: boolean) {
  return api.patchPositioned(`/api/conversations/${id}`, conversationView, { isManualMode });
}

export function postMessage(id: number, content: string, fromAgentId?: number) {
  return api.post(`/api/conversations/${id}/messages`, messageView, { content, fromAgentId });
}
