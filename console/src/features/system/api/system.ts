import { notReadyAnswer, readinessView, rebuildStatusView, systemView } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, ApiError } from '../../../lib/api-client';

/** How often the System screen reads again: live enough to watch load arrive, light on the server. */
const POLL_MS = 2000;

const keys = {
  system: ['system'] as const,
  readiness: ['system', 'readiness'] as const,
  rebuild: ['system', 'rebuild'] as const,
};

export type Readiness = z.infer<typeof readinessView>;

/** GET /readyz: its details whether it answers 200 or 503 (not ready, with the reasons in its message). */
async function getReadiness(): Promise<Readiness & { message?: string }> {
  try {
    return await api.get('/readyz', readinessView);
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) {
      const parsed = notReadyAnswer.safeParse(JSON.parse(error.body));
      if (parsed.success) return parsed.data;
    }
    throw error;
  }
}

export const useSystem = () =>
  useQuery({ queryKey: keys.system, queryFn: () => api.get('/api/admin/system', systemView), refetchInterval: POLL_MS, retry: false });

export const useReadiness = () => useQuery({ queryKey: keys.readiness, queryFn: getReadiness, refetchInterval: POLL_MS, retry: false });

/** The live rebuild's state, read every poll while it runs and every few polls otherwise. */
export const useRebuild = () =>
  useQuery({
    queryKey: keys.rebuild,
    queryFn: () => api.get('/api/admin/rebuild', rebuildStatusView),
    refetchInterval: (query) => (query.state.data?.running ? 500 : POLL_MS * 5),
    retry: false,
  });

export function useStartRebuild() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/admin/rebuild', rebuildStatusView),
    onSuccess: (status) => queryClient.setQueryData(keys.rebuild, status),
  });
}
