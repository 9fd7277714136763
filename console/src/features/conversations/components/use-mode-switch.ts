import { USER_MESSAGES, withKnownMatch, type ConversationView, type SideControl } from '@pf/events';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { ApiError, failureReason } from '../../../lib/api-client';
import { takeView } from '../../../lib/position';
import { queryKeys } from '../../../lib/query-keys';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { setManualMode } from '../api/conversations';
import { modeMachine, showsManual, type SwitchAnswer, type SwitchRequest } from '../machines/mode-machine';

/** "the borrower side (Harriet Cole)": a side as people name it (the server's words use the same). */
export function sideLabel(conversation: ConversationView, agentId: number): string {
  const participant = conversation.participants.find((p) => p.agentId === agentId);
  return participant ? `the ${participant.type} side (${participant.name})` : `agent ${agentId}'s side`;
}

const listed = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The signed-in person and the session this console is. */
export interface Me {
  userId: string | undefined;
  sessionId: string | undefined;
  /** The person's name as their profile gives it (empty when they gave none). */
  name: string;
}

/** Whether the person holds a side (here or in another session of theirs). */
export const heldByMe = (side: SideControl, me: Me) => side.isManual && side.controllerId !== null && side.controllerId === me.userId;
/** Whether this session holds a side. */
export const heldHereBy = (side: SideControl, me: Me) => heldByMe(side, me) && side.sessionId === me.sessionId;

/** The sides this session holds, and those of the firm nobody holds (it may take them). */
function sidesOf(conversation: ConversationView, me: Me) {
  const control = conversation.control;
  const heldHere = control.filter((side) => side.isMine && heldHereBy(side, me));
  const free = control.filter((side) => side.isMine && !side.isManual);
  return { heldHere: heldHere.map((side) => side.agentId), free: free.map((side) => side.agentId) };
}

/** Who holds a side, as the server says: "manual by Ben Brooks", "automatic". */
function standing(side: SideControl | undefined, me: Me): string {
  if (!side?.isManual) return 'automatic';
  if (heldByMe(side, me)) return side.sessionId === me.sessionId ? 'yours, here' : 'yours, in another session';
  return `manual by ${side.controllerName ?? 'another person'}`;
}

/**
 * What the server's answer to a switch says (docs/behaviour/conversations.md, "Taking over"): as asked when every
 * side named is now held here (taking over) or by nobody here (handing back); the words name the sides and, when
 * the answer is otherwise, where each stands.
 */
function answerOf(request: SwitchRequest, answer: ConversationView, me: Me): SwitchAnswer {
  const holdsHere = sidesOf(answer, me).heldHere;
  const sides = request.agentIds.length > 0 ? request.agentIds : request.isManualMode ? holdsHere : [];
  const names = listed(sides.map((agentId) => sideLabel(answer, agentId)));
  const asAsked = request.isManualMode
    ? sides.length > 0 && sides.every((id) => holdsHere.includes(id))
    : !sides.some((id) => holdsHere.includes(id));
  if (asAsked) {
    const words = request.isManualMode
      ? `Switched to manual mode: you hold ${names} here`
      : `Switched to automatic mode: ${names || 'your side'} ${sides.length > 1 ? 'are' : 'is'} back with ${sides.length > 1 ? 'their agents' : 'its agent'}`;
    return { holdsHere: holdsHere.length > 0, asAsked, words };
  }
  const where = sides.map(
    (agentId) =>
      `${sideLabel(answer, agentId)} is ${standing(
        answer.control.find((s) => s.agentId === agentId),
        me,
      )}`,
  );
  return { holdsHere: holdsHere.length > 0, asAsked, words: `Not switched: ${listed(where)}` };
}

/**
 * The mode switch of one loaded conversation: the machine, wired to the PATCH and kept in step with the cache.
 * The switch is on while this session holds a side. With more than one side of the firm free, `choice` says which
 * the switch takes (one, or all of them: "Both sides").
 */
export function useModeSwitch(conversation: ConversationView, me: Me) {
  const queryClient = useQueryClient();
  // The machine is made once; the person and session may be known only after it was.
  const session = useRef(me);
  useEffect(() => {
    session.current = me;
  }, [me]);
  const { heldHere, free } = sidesOf(conversation, me);
  const [chosen, choose] = useState<'all' | number>(() => free[0] ?? 'all');
  // eslint-disable-next-line react-hooks/refs -- the ref is read when an actor runs (after a click), not while rendering
  const [machine] = useState(() =>
    modeMachine.provide({
      actors: {
        setMode: fromPromise(async ({ input }: { input: SwitchRequest }) => {
          const { data: updated, position } = await setManualMode(input.conversationId, input.isManualMode, input.agentIds);
          // A push of a later change may have come first (another session took the side at once): keep it.
          if (takeView(`conversation:${updated.id}`, position)) {
            queryClient.setQueryData<ConversationView>(queryKeys.conversation(updated.id), (known) => withKnownMatch(updated, known));
            queryClient.setQueryData<ConversationView[]>(queryKeys.conversations, (list) =>
              list?.map((entry) => (entry.id === updated.id ? withKnownMatch(updated, entry) : entry)),
            );
          }
          return answerOf(input, updated, session.current);
        }),
      },
      actions: {
        // A refusal the server explains (a colleague holds the side, another session has it, it is not yours) is
        // shown as it is; the refetch then shows who has control.
        notifyFailure: ({ event }) => {
          const error = (event as { error?: unknown }).error;
          const given = error instanceof ApiError && error.status < 500 ? failureReason(error) : USER_MESSAGES.manualToggleFailed;
          // Lost a race for the side to another session of one's own: say who won it, by the person's name (the
          // push that shows the hold there reaches the cache by itself; a read here could overtake it).
          const lostToSelf = error instanceof ApiError && error.status === 409 && given === USER_MESSAGES.sideTakenElsewhere;
          toastError(
            lostToSelf && session.current.name
              ? `${session.current.name} took control of your side in another session a moment earlier; request control there`
              : given,
          );
        },
        notifySuccess: (_, { words }) => toastSuccess(words, USER_MESSAGES.modeUpdatedTitle),
        notifyOtherwise: (_, { words }) => toastError(words, USER_MESSAGES.modeUpdatedTitle),
      },
    }),
  );
  const manual = heldHere.length > 0;
  const [snapshot, send] = useMachine(machine, { input: { conversationId: conversation.id, isManualMode: manual } });
  // Another person's switch, a hand-over, or a refetch reaches the cache first; the machine follows it.
  useEffect(() => {
    send({ type: 'SYNC', isManualMode: manual });
  }, [send, manual]);
  const choice = free.length > 1 ? { options: free, chosen: chosen === 'all' || free.includes(chosen) ? chosen : free[0]!, choose } : null;
  // Nothing of the firm's free: the sides held by others, so the server's refusal says who holds them.
  const held = conversation.control.filter((side) => side.isMine && side.isManual).map((side) => side.agentId);
  const takes = choice ? (choice.chosen === 'all' ? free : [choice.chosen]) : free.length > 0 ? free : held;
  return {
    manual: showsManual(snapshot),
    switching: snapshot.matches('switchingToManual') || snapshot.matches('switchingToAutomatic'),
    /** On: hand back every side held here. Off: take the side(s) chosen, else the firm's free side. */
    toggle: () => send({ type: 'TOGGLE', agentIds: manual ? heldHere : takes }),
    choice,
  };
}

export type ModeSwitch = ReturnType<typeof useModeSwitch>;
