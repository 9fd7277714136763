import { leadPage, matchingStatsView, matchPage, matchRequestAnswer, matchRunView, type AgentType, type MatchPageQuery } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { searchParams, type SearchedPageParams } from '../../../lib/use-cursor-pages';

// Under ['leads'] and ['matches'], so a views_changed push naming either refreshes the page shown.
export const leadPageKey = [...queryKeys.view('leads'), 'page'] as const;
export const matchPageKey = [...queryKeys.view('matches'), 'page'] as const;
/** One page of the firm's leads, searched by name or requirements and filtered by type on the server. */
export const fetchLeadPage = ({ filter, ...params }: SearchedPageParams<AgentType>) =>
  api.get(`/api/leads/page?${searchParams({ ...params, type: filter })}`, leadPage);
export const fetchMatchPage = (params: MatchPageQuery) => api.get(`/api/matches/page?${searchParams(params)}`, matchPage);
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
