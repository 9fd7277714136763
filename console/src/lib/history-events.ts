import { historyPage, type HistoryEvent, type HistoryPage } from '@pf/events';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

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

/**
 * A conversation's recorded events, read by the History screen and by the thread (its offer cards and who
 * wrote each manual message); one cache entry, refetched when the live socket reports a change (apply-push).
 */
export const getHistoryQueryOptions = (id: number) => queryOptions({ queryKey: queryKeys.history(id), queryFn: () => fetchAllEvents(id) });
