import { leadList, matchingStatsView, matchList, matchRequestAnswer, matchRunView } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const useLeads = () => useQuery({ queryKey: [...queryKeys.view('leads'), 'list'], queryFn: () => api.get('/api/leads', leadList) });
export const useMatches = () =>
  useQuery({ queryKey: [...queryKeys.view('matches'), 'list'], queryFn: () => api.get('/api/matches', matchList) });
export const useMatchingStats = () =>
  useQuery({ queryKey: [...queryKeys.view('matches'), 'stats'], queryFn: () => api.get('/api/matches/stats', matchingStatsView) });

/** Match: the matcher answers on the lead (lastMatchRun), which a views_changed push brings back. */
export function useRequestMatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (agentId: number) => api.post(`/api/leads/${agentId}/match`, matchRequestAnswer),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.view('leads') }),
  });
}

/** How often the card asks for the matcher's answer, and how long it waits before saying none came. */
const MATCH_POLL_MS = 1000;
export const MATCH_ANSWER_TIMEOUT_MS = 20_000;

/** One Match's outcome, asked until the matcher answers (the matcher runs asynchronously, or not at all with automation off). */
export function useMatchRun(agentId: number, requestId: string | null, gaveUp: boolean) {
  return useQuery({
    queryKey: [...queryKeys.view('leads'), 'match-run', agentId, requestId],
    queryFn: () => api.get(`/api/leads/${agentId}/match/${requestId}`, matchRunView),
    enabled: requestId !== null,
    refetchInterval: (query) => (gaveUp || query.state.data?.status === 'answered' ? false : MATCH_POLL_MS),
  });
}
