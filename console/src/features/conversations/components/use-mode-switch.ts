import { USER_MESSAGES, withKnownMatch, type ConversationView } from '@pf/events';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { ApiError, failureReason } from '../../../lib/api-client';
import { takeView } from '../../../lib/position';
import { queryKeys } from '../../../lib/query-keys';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { getConversationQueryOptions, setManualMode } from '../api/conversations';
import { modeMachine, showsManual } from '../machines/mode-machine';

/** The mode switch of one loaded conversation: the machine, wired to the PATCH and kept in step with the cache. */
export function useModeSwitch(conversation: ConversationView, mySessionId: string | undefined) {
  const queryClient = useQueryClient();
  // The machine is made once; the session may be known only after it was.
  const session = useRef(mySessionId);
  useEffect(() => {
    session.current = mySessionId;
  }, [mySessionId]);
  // eslint-disable-next-line react-hooks/refs -- the ref is read when an actor runs (after a click), not while rendering
  const [machine] = useState(() =>
    modeMachine.provide({
      actors: {
        setMode: fromPromise(async ({ input }: { input: { conversationId: number; isManualMode: boolean } }) => {
          const { data: updated, position } = await setManualMode(input.conversationId, input.isManualMode);
          // A push of a later change may have come first (another session took the side at once): keep it.
          if (!takeView(`conversation:${updated.id}`, position)) return;
          queryClient.setQueryData<ConversationView>(queryKeys.conversation(updated.id), (known) => withKnownMatch(updated, known));
          queryClient.setQueryData<ConversationView[]>(queryKeys.conversations, (list) =>
            list?.map((entry) => (entry.id === updated.id ? withKnownMatch(updated, entry) : entry)),
          );
        }),
      },
      actions: {
        // A refusal the server explains (another session has your side, or it is not yours) is shown as it is;
        // the refetch then shows who has control.
        notifyFailure: ({ event }) => {
          const error = (event as { error?: unknown }).error;
          const given = error instanceof ApiError && error.status < 500 ? failureReason(error) : USER_MESSAGES.manualToggleFailed;
          void queryClient
            .fetchQuery({ ...getConversationQueryOptions(conversation.id), staleTime: 0 })
            .then((fresh) => {
              // Lost a race for the side (two sessions at once): say who won it rather than "changed by someone else".
              const side = fresh.control.find((entry) => entry.isMine);
              const heldElsewhere =
                error instanceof ApiError && error.status === 409 && side?.isManual && side.sessionId !== session.current;
              toastError(
                heldElsewhere
                  ? `${side.controllerName ?? 'You'} took control of your side in another session a moment earlier; request control there`
                  : given,
              );
            })
            .catch(() => toastError(given));
        },
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
