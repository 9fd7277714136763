import { USER_MESSAGES, type ConversationView } from '@pf/events';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { queryKeys } from '../../../lib/query-keys';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { setManualMode } from '../api/conversations';
import { modeMachine, showsManual } from '../machines/mode-machine';

/** The mode switch of one loaded conversation: the machine, wired to the PATCH and kept in step with the cache. */
export function useModeSwitch(conversation: ConversationView) {
  const queryClient = useQueryClient();
  const [machine] = useState(() =>
    modeMachine.provide({
      actors: {
        setMode: fromPromise(async ({ input }: { input: { conversationId: number; isManualMode: boolean } }) => {
          const updated = await setManualMode(input.conversationId, input.isManualMode);
          queryClient.setQueryData(queryKeys.conversation(updated.id), updated);
          queryClient.setQueryData<ConversationView[]>(queryKeys.conversations, (list) =>
            list?.map((entry) => (entry.id === updated.id ? updated : entry)),
          );
        }),
      },
      actions: {
        notifyFailure: () => toastError(USER_MESSAGES.manualToggleFailed),
        notifySuccess: (_, { isManualMode }) =>
          toastSuccess(`Switched to ${isManualMode ? 'manual' : 'automatic'} mode`, USER_MESSAGES.modeUpdatedTitle),
      },
    }),
  );
  const [snapshot, send] = useMachine(machine, {
    input: { conversationId: conversation.id, isManualMode: conversation.isManualMode },
  });
  // Another operator's switch, or a refetch, reaches the cache first; the machine follows it.
  useEffect(() => {
    send({ type: 'SYNC', isManualMode: conversation.isManualMode });
  }, [send, conversation.isManualMode]);
  return {
    manual: showsManual(snapshot),
    switching: snapshot.matches('switchingToManual') || snapshot.matches('switchingToAutomatic'),
    toggle: () => send({ type: 'TOGGLE' }),
  };
}

export type ModeSwitch = ReturnType<typeof useModeSwitch>;
