import { seedDemoView, statsView } from '@pf/events';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getStatsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.stats, queryFn: () => api.get('/api/stats', statsView) });

export function useStats() {
  return useQuery(getStatsQueryOptions());
}

/**
 * Spec §7: seed-demo then the page reloads. Refetching every query gives the same result without
 * throwing away the live socket; the read waits for the seed's position, so the lists show it.
 */
export function useSeedDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/seed-demo', seedDemoView),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
