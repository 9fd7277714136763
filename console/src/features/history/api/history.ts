import { conversationVerification, historyState } from '@pf/events';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getHistoryQueryOptions } from '../../../lib/history-events';
import { queryKeys } from '../../../lib/query-keys';

/** The history; refetched when the live socket reports a change to the conversation (apply-push). */
export function useHistoryEvents(id: number | null) {
  return useQuery({ ...getHistoryQueryOptions(id ?? 0), enabled: id !== null, retry: false });
}

/** The conversation as it stood at a position: a moment in the past never changes, so it is kept. */
export function useHistoryAt(id: number | null, position: string | null) {
  return useQuery({
    queryKey: [...queryKeys.history(id ?? 0), 'at', position],
    queryFn: () => api.get(`/api/conversations/${id}/history?at=${position}`, historyState),
    enabled: id !== null && position !== null,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function verifyHistory(id: number) {
  return api.get(`/api/conversations/${id}/verify`, conversationVerification);
}
