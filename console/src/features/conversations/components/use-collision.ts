import type { ConversationView } from '@pf/events';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLive } from '../../../lib/live/live-provider';
import { clearControlRequest, controlRequestIn, subscribePresence } from '../../../lib/live/presence';
import { toastError, toastSuccess } from '../../../lib/toaster';
import type { Collision } from './control-panel';
import type { ModeSwitch } from './use-mode-switch';

/**
 * Two sessions of one account and one side: the session without control requests it (the gateway tells the
 * account's other sessions, by name); the holder hands over, which hands the side back; the asking session,
 * seeing its side automatic again, takes it over at once. Exactly one session holds it throughout: the
 * takeover is a command with the expected version, as any other.
 */
export function useCollision(conversation: ConversationView, mode: ModeSwitch, mySessionId: string | undefined): Collision {
  const live = useLive();
  const request = useSyncExternalStore(subscribePresence, () => controlRequestIn(conversation.id));
  const [requested, setRequested] = useState(false);
  const mine = conversation.control.find((side) => side.isMine);
  const holdingHere = Boolean(mine?.isManual && mine.sessionId === mySessionId);

  // A request is about this session's hold: once it has let go (handed over, or from elsewhere), it is moot.
  const held = useRef(holdingHere);
  useEffect(() => {
    if (held.current && !holdingHere) clearControlRequest(conversation.id);
    held.current = holdingHere;
  }, [holdingHere, conversation.id]);

  // Asked, and the side is free again: take it (useModeSwitch has already synced the switch to automatic).
  const { toggle } = mode;
  useEffect(() => {
    if (!requested || !mine) return;
    if (!mine.isManual) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the request ends on a push (the side is free), which only this effect sees
      setRequested(false);
      toggle();
    } else if (mine.sessionId === mySessionId) setRequested(false);
  }, [requested, mine, mySessionId, toggle]);

  return {
    request,
    requested,
    onRequest: () => {
      live
        .request({ type: 'request_control', conversationId: conversation.id })
        .then(() => {
          setRequested(true);
          toastSuccess('Asked the other session to hand over control');
        })
        .catch((error: Error) => toastError(error.message));
    },
    onHandOver: () => {
      clearControlRequest(conversation.id);
      toggle();
    },
  };
}
