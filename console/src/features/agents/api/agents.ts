import {
  agentDefaultsView,
  agentPage,
  agentView,
  deletedAgentView,
  type AgentPageQuery,
  type CreateAgentInput,
  type UpdateAgentInput,
} from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { searchParams } from '../../../lib/use-cursor-pages';

/** One page of the firm's agents, searched and filtered on the server. */
export const fetchAgentPage = (params: AgentPageQuery) => api.get(`/api/agents/page?${searchParams(params)}`, agentPage);
export const agentPageKey = [...queryKeys.agents, 'page'] as const;

/** On success the agents and stats lists are refreshed. */
export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAgentInput) => api.post('/api/agents', agentView, input),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.agents }),
        queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
      ]);
    },
  });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UpdateAgentInput }) => api.put(`/api/agents/${id}`, agentView, input),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.agents }),
        queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
      ]);
    },
  });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/agents/${id}`, deletedAgentView),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.agents }),
        queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
      ]);
    },
  });
}

/** The user's agent defaults (Settings → Agent Defaults), which pre-fill Create Agent. */
export function useAgentDefaults() {
  return useQuery({ queryKey: queryKeys.agentDefaults, queryFn: () => api.get('/api/auth/agent-defaults', agentDefaultsView) });
}
