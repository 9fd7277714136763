import { conversationView, type ConversationView } from '@pf/events';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { takeView } from './position';
import { queryKeys } from './query-keys';

/**
 * One conversation as the read side answers it, with the position the answer reflects (docs/architecture.md
 * "A read"): a push of a later state that reached the cache while this read was on its way stays, rather than
 * being overwritten by the older answer (position.ts takeView). Every screen that reads a conversation uses this.
 */
export const conversationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.conversation(id),
    queryFn: async ({ client }): Promise<ConversationView> => {
      const { data, position } = await api.getPositioned(`/api/conversations/${id}`, conversationView);
      if (takeView(`conversation:${id}`, position)) return data;
      return client.getQueryData<ConversationView>(queryKeys.conversation(id)) ?? data;
    },
  });
