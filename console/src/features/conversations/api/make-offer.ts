import { agentView, historyPage, offerMadeView, type HistoryPage, type LoanTerms, type MakeOfferInput } from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The last offer on the table in a conversation (from its history), to pre-fill Make offer; null before any. */
async function lastOffer(conversationId: number): Promise<LoanTerms | null> {
  let last: LoanTerms | null = null;
  let after: string | null = null;
  do {
    const page: HistoryPage = await api.get(
      `/api/conversations/${conversationId}/history?limit=500${after ? `&after=${after}` : ''}`,
      historyPage,
    );
    for (const event of page.events) if (event.type === 'OfferMade') last = (event.data as { terms: LoanTerms }).terms;
    after = page.nextAfter;
  } while (after);
  return last;
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
