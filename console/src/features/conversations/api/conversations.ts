import { conversationPage, conversationView, messageListView, messageView, type ConversationPageQuery } from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { conversationQueryOptions } from '../../../lib/conversation-query';
import { getHistoryQueryOptions } from '../../../lib/history-events';
import { queryKeys } from '../../../lib/query-keys';
import { searchParams } from '../../../lib/use-cursor-pages';

const getMessagesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.messages(id),
    queryFn: () => api.get(`/api/conversations/${id}/messages`, messageListView),
  });

/** One page of the conversations the firm can see, searched and filtered on the server. */
export const fetchConversationPage = (params: ConversationPageQuery) =>
  api.get(`/api/conversations/page?${searchParams(params)}`, conversationPage);
export const conversationPageKey = [...queryKeys.conversations, 'page'] as const;

/** How many conversations match a filter (one row read, the total counted by the server). */
export function useConversationCount(params: Omit<ConversationPageQuery, 'cursor' | 'limit'>) {
  return useQuery({
    queryKey: [...conversationPageKey, 'count', params],
    queryFn: () => fetchConversationPage({ ...params, limit: 1 }),
    select: (page) => page.total,
  });
}

/** No retry; runs only when the id is valid. */
export function useConversation(id: number | null) {
  return useQuery({ ...conversationQueryOptions(id ?? 0), enabled: id !== null });
}

export function useMessages(id: number | null) {
  return useQuery({ ...getMessagesQueryOptions(id ?? 0), enabled: id !== null });
}

/** The conversation's recorded events: the thread draws its offers from them. */
export function useConversationEvents(id: number | null) {
  return useQuery({ ...getHistoryQueryOptions(id ?? 0), enabled: id !== null, retry: false });
}

/** The conversation after the switch of these sides (by their agents), and the position the switch was written at. */
export function setManualMode(id: number, isManualMode: boolean, agentIds: number[]) {
  return api.patchPositioned(`/api/conversations/${id}`, conversationView, { isManualMode, ...(agentIds.length > 0 ? { agentIds } : {}) });
}

export function postMessage(id: number, content: string, fromAgentId?: number) {
  return api.post(`/api/conversations/${id}/messages`, messageView, { content, fromAgentId });
}
