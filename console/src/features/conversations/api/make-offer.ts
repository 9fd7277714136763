import {
  agentView,
  domainEvent,
  evolveOfferBook,
  emptyOfferBook,
  historyPage,
  offerMadeView,
  type HistoryPage,
  type LoanTerms,
  type MakeOfferInput,
} from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The last offer made in a conversation (its history folded by the one offer book), to pre-fill Make offer; null before any. */
async function lastOffer(conversationId: number): Promise<LoanTerms | null> {
  let book = emptyOfferBook;
  let after: string | null = null;
  do {
    const page: HistoryPage = await api.get(
      `/api/conversations/${conversationId}/history?limit=500${after ? `&after=${after}` : ''}`,
      historyPage,
    );
    for (const event of page.events) {
      const parsed = domainEvent.safeParse({ type: event.type, data: event.data });
      if (parsed.success) book = evolveOfferBook(book, parsed.data);
    }
    after = page.nextAfter;
  } while (after);
  return book.offers.at(-1)?.terms ?? null;
}

const getLastOfferQueryOptions = (conversationId: number) =>
  queryOptions({ queryKey: [...queryKeys.history(conversationId), 'last-offer'], queryFn: () => lastOffer(conversationId) });

export function useLastOffer(conversationId: number) {
  return useQuery(getLastOfferQueryOptions(conversationId));
}

/** The agent a person offers for, for the limits its side states (its criteria): that one agent, not the firm's list. */
export function useOfferingAgent(agentId: number | undefined) {
  return useQuery({
    queryKey: [...queryKeys.agents, 'one', agentId],
    queryFn: () => api.get(`/api/agents/${agentId}`, agentView),
    enabled: agentId !== undefined,
  });
}

export function makeOffer(conversationId: number, input: MakeOfferInput) {
  return api.post(`/api/conversations/${conversationId}/offers`, offerMadeView, input);
}
