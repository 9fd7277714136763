import type { ConversationView } from '@pf/events';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLive } from '../../../lib/live/live-provider';
import {
  clearControlDecline,
  clearControlRequest,
  controlDeclinesIn,
  controlRequestsIn,
  subscribePresence,
  type ControlDecline,
  type ControlRequest,
} from '../../../lib/live/presence';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { capitalised } from '@pf/events';
import { heldByMe, heldHereBy, sideLabel, type Me } from './use-mode-switch';

/**
 * Requests for control of a side (docs/decisions/per-side-control.md): a person of the side's firm asks whoever
 * holds it (a colleague, or themself in another session); the gateway tells only the holding session, by name;
 * the holder hands over (the side is the asker's, in the asking session: one command, decided by the
 * conversation's decider) or declines (the asker is told). Nobody takes a side another person holds.
 */
export interface Collision {
  /** Requests for sides this session holds. */
  requests: readonly ControlRequest[];
  /** This session's requests still waiting, by the side's agent. */
  requested: ReadonlySet<number>;
  /** Answers "no" to this session's requests, by side. */
  declines: readonly ControlDecline[];
  onRequest: (agentId: number) => void;
  onHandOver: (request: ControlRequest) => void;
  onDecline: (request: ControlRequest) => void;
}

export function useCollision(conversation: ConversationView, me: Me): Collision {
  const live = useLive();
  const requests = useSyncExternalStore(subscribePresence, () => controlRequestsIn(conversation.id));
  const declines = useSyncExternalStore(subscribePresence, () => controlDeclinesIn(conversation.id));
  const [requested, setRequested] = useState<ReadonlySet<number>>(new Set());
  const heldHere = conversation.control.filter((side) => side.isMine && heldHereBy(side, me)).map((side) => side.agentId);
  const heldKey = heldHere.join(',');

  // A request is about this session's hold: once it has let go of a side (handed over, handed back), it is moot.
  const held = useRef<number[]>(heldHere);
  useEffect(() => {
    const now = heldKey ? heldKey.split(',').map(Number) : [];
    for (const agentId of held.current) if (!now.includes(agentId)) clearControlRequest(conversation.id, agentId);
    held.current = now;
  }, [heldKey, conversation.id]);

  // Asked, and answered: handed over (the side is held here now) or declined (the holder's words come as a push).
  useEffect(() => {
    const settled = [...requested].filter(
      (agentId) => heldKey.split(',').includes(String(agentId)) || declines.some((d) => d.agentId === agentId),
    );
    if (settled.length === 0) return;
    for (const agentId of settled) {
      const declined = declines.find((d) => d.agentId === agentId);
      if (declined) toastError(`${declined.byName} declined to hand over ${sideLabel(conversation, agentId)}`);
      else toastSuccess(`${capitalised(sideLabel(conversation, agentId))} was handed over: you hold it here`);
    }
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the request ends on a push (a hand-over or a decline), which only this effect sees
    setRequested((before) => new Set([...before].filter((agentId) => !settled.includes(agentId))));
  }, [requested, heldKey, declines, conversation]);

  return {
    requests,
    requested,
    declines,
    onRequest: (agentId) => {
      clearControlDecline(conversation.id, agentId);
      const holder = conversation.control.find((side) => side.agentId === agentId);
      live
        .request({ type: 'request_control', conversationId: conversation.id, agentId })
        .then(() => {
          setRequested((before) => new Set([...before, agentId]));
          const who = holder && heldByMe(holder, me) ? 'your other session' : (holder?.controllerName ?? 'the person holding it');
          toastSuccess(`Asked ${who} to hand over ${sideLabel(conversation, agentId)}`);
        })
        .catch((error: Error) => toastError(error.message));
    },
    onHandOver: (request) => {
      live
        .request({ type: 'hand_over', conversationId: conversation.id, agentId: request.agentId, toSessionId: request.bySessionId })
        .then(() => {
          clearControlRequest(conversation.id, request.agentId);
          toastSuccess(
            `Handed ${sideLabel(conversation, request.agentId)} over to ${request.isYou ? 'your other session' : request.byName}`,
          );
        })
        .catch((error: Error) => toastError(error.message));
    },
    onDecline: (request) => {
      live
        .request({ type: 'decline_control', conversationId: conversation.id, agentId: request.agentId, toSessionId: request.bySessionId })
        .then(() => {
          clearControlRequest(conversation.id, request.agentId, request.bySessionId);
          toastSuccess(
            `Declined: ${request.isYou ? 'your other session' : request.byName} was told you keep ${sideLabel(conversation, request.agentId)}`,
          );
        })
        .catch((error: Error) => toastError(error.message));
    },
  };
}
