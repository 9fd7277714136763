import { agentView, demoMessagesView, seedDemoView } from '@pf/events';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { conversationQueryOptions } from '../../../lib/conversation-query';
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

/**
 * Whether a conversation is between the firm's own demo agents, the only ones Add Demo Messages may write into (the
 * sandbox rule, docs/decisions/firms-and-visibility.md "Demo data is a sandbox"): every participant the firm's and
 * badged demo. Undefined while it is not known yet.
 */
export function useIsOwnDemoConversation(conversationId: number): boolean | undefined {
  const conversation = useQuery(conversationQueryOptions(conversationId));
  const participants = conversation.data?.participants ?? [];
  const ours = participants.every((participant) => participant.isMine);
  const agents = useQueries({
    queries: (ours ? participants : []).map((participant) => ({
      queryKey: [...queryKeys.agents, 'one', participant.agentId],
      queryFn: () => api.get(`/api/agents/${participant.agentId}`, agentView),
    })),
  });
  if (!conversation.data) return undefined;
  if (!ours) return false;
  if (agents.some((agent) => agent.isError)) return false;
  if (agents.some((agent) => !agent.data)) return undefined;
  return agents.every((agent) => agent.data?.isDemo === true);
}
