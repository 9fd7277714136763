import { seedDemoView } from '@pf/events';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * Seed-demo then the page reloads. Refetching every query gives the same result without
 * throwing away the live socket; the read waits for the seed's position, so the lists show it.
 */
export function useSeedDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/seed-demo', seedDemoView),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
