import { apiTokenListView, createdApiTokenView, endedView as ended, type CreateApiTokenInput } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Settings → API tokens (docs/event-feed.md): the firm's tokens, created and revoked by its admins. */
const key = [...queryKeys.view('profile'), 'api-tokens'] as const;

export const useApiTokens = () => useQuery({ queryKey: key, queryFn: () => api.get('/api/auth/tokens', apiTokenListView), retry: false });

/** The answer carries the secret, which the tab shows once; the list never does. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) => api.post('/api/auth/tokens', createdApiTokenView, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/auth/tokens/${id}`, ended),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
