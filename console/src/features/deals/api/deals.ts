import {
  dealChangedAnswer,
  dealCreatedAnswer,
  dealDetailView,
  dealList,
  dealStatsView,
  type ChangeDealInput,
  type NewDealInput,
} from '@pf/events';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// Under ['deals'], so a views_changed push naming "deals" refreshes every one of them.
const keys = {
  list: [...queryKeys.view('deals'), 'list'] as const,
  stats: [...queryKeys.view('deals'), 'stats'] as const,
  one: (id: string) => [...queryKeys.view('deals'), 'one', id] as const,
};

const getDealsQueryOptions = () => queryOptions({ queryKey: keys.list, queryFn: () => api.get('/api/deals', dealList) });

export function useDeals() {
  return useQuery(getDealsQueryOptions());
}

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
