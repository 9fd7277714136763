import {
  dealChangedAnswer,
  dealCreatedAnswer,
  dealDetailView,
  dealPage,
  dealStatsView,
  type ChangeDealInput,
  type DealStatus,
  type NewDealInput,
} from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { searchParams, type SearchedPageParams } from '../../../lib/use-cursor-pages';

// Under ['deals'], so a views_changed push naming "deals" refreshes every one of them.
const keys = {
  stats: [...queryKeys.view('deals'), 'stats'] as const,
  one: (id: string) => [...queryKeys.view('deals'), 'one', id] as const,
};

export const dealPageKey = [...queryKeys.view('deals'), 'page'] as const;
/** One page of the firm's deals, searched by address or borrower and filtered by status on the server. */
export const fetchDealPage = ({ filter, ...params }: SearchedPageParams<DealStatus>) =>
  api.get(`/api/deals/page?${searchParams({ ...params, status: filter })}`, dealPage);

export function useDealStats() {
  return useQuery({ queryKey: keys.stats, queryFn: () => api.get('/api/deals/stats', dealStatsView) });
}

export function useDeal(id: string | null) {
  return useQuery({ queryKey: keys.one(id ?? ''), queryFn: () => api.get(`/api/deals/${id}`, dealDetailView), enabled: id !== null });
}

function useDealMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.view('deals') }),
  });
}

export const useCreateDeal = () => useDealMutation((input: NewDealInput) => api.post('/api/deals', dealCreatedAnswer, input));
export const useChangeDeal = () =>
  useDealMutation(({ id, changes }: { id: string; changes: ChangeDealInput }) => api.patch(`/api/deals/${id}`, dealChangedAnswer, changes));
