import { statsView } from '@pf/events';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** The person's figures (active agents, conversations, matches, the one success rate): the dashboard's and Conversations'. */
export function useStats() {
  return useQuery({ queryKey: queryKeys.stats, queryFn: () => api.get('/api/stats', statsView) });
}
