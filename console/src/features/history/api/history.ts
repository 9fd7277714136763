import { conversationVerification, historyPage, historyState, type HistoryEvent, type HistoryPage } from '@pf/events';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const PAGE = 500;

/** Every event of the conversation's history, page by page (the API answers at most 500 at a time). */
async function fetchAllEvents(id: number): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let after: string | null = null;
  do {
    const page: HistoryPage = await api.get(`/api/conversations/${id}/history?limit=${PAGE}${after ? `&after=${after}` : ''}`, historyPage);
    events.push(...page.events);
    after = page.nextAfter;
  } while (after);
  return events;
}

export const getHistoryQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.history(id), queryFn: () => fetchAllEvents(id) });

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
