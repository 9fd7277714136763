import { agentDefaultsView, endedView as ended, profileView, sessionListView, type AgentDefaults, type ProfileInput } from '@pf/events';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Settings are one live view ('profile'): a change from another console refetches all of them. */
const keys = {
  profile: [...queryKeys.view('profile'), 'profile'] as const,
  agentDefaults: queryKeys.agentDefaults,
  sessions: [...queryKeys.view('profile'), 'sessions'] as const,
};

const getAgentDefaultsQueryOptions = () =>
  queryOptions({ queryKey: keys.agentDefaults, queryFn: () => api.get('/api/auth/agent-defaults', agentDefaultsView) });

/** Read by every signed-in screen before it draws (DisplaySettings), so asked for as the console boots (app/routes/screens.ts). */
export const profileQueryOptions = () => queryOptions({ queryKey: keys.profile, queryFn: () => api.get('/api/auth/profile', profileView) });
export const useProfile = () => useQuery(profileQueryOptions());
export const useAgentDefaults = () => useQuery(getAgentDefaultsQueryOptions());
export const useSessions = () => useQuery({ queryKey: keys.sessions, queryFn: () => api.get('/api/auth/sessions', sessionListView) });

/** The sidebar shows the new name: the signed-in user is read again after a profile change. */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.put('/api/auth/profile', profileView, input),
    onSuccess: async (profile) => {
      queryClient.setQueryData(keys.profile, profile);
      await queryClient.invalidateQueries({ queryKey: queryKeys.user });
    },
  });
}

export function useSaveAgentDefaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AgentDefaults) => api.put('/api/auth/agent-defaults', agentDefaultsView, input),
    onSuccess: (saved) => queryClient.setQueryData(keys.agentDefaults, saved),
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/auth/sessions/${id}`, ended),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.sessions }),
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: () => api.request('DELETE', '/api/auth/account', ended, { confirm: 'DELETE' }) });
}
