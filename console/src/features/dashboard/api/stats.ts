import { demoMessagesView, seedDemoView } from '@pf/events';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

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

/** Add Demo Messages: a short exchange in this conversation (its messages and history read again at the answer's position). */
export function useAddDemoMessages(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`/api/conversations/${conversationId}/demo-messages`, demoMessagesView),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.conversation(conversationId) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.history(conversationId) });
    },
  });
}
