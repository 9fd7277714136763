import { Button, Callout, Intent, Tag } from '@blueprintjs/core';
import type { ConversationView, SideControl } from '@pf/events';
import type { ControlRequest } from '../../../lib/live/presence';
import { useNow } from '../../../lib/use-now';

/** "for 4 min": how long a side has been taken over, in whole minutes (under one: "just now"). */
function heldFor(since: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(since)) / 60_000);
  return minutes < 1 ? 'just now' : `for ${minutes} min`;
}

/** Who controls a side, as a sentence: "Taken over by Bob Jones for 4 min", "Automatic: Wessex negotiates". */
function describeSide(side: SideControl, agents: string, mySessionId: string | undefined, now: number): string {
  if (!side.isManual) return `Automatic: ${agents} ${side.agentIds.length > 1 ? 'negotiate' : 'negotiates'}`;
  const named = side.controllerName ? ` (${side.controllerName})` : '';
  const who = side.isMine
    ? side.sessionId === mySessionId
      ? 'you, here'
      : `you, in another session${named}`
    : (side.controllerName ?? 'their operator');
  return `Taken over by ${who} ${side.since ? heldFor(side.since, now) : ''}`.trim();
}

/**
 * Two sessions of one account: the one without control asks for it; the one holding it is asked, by name,
 * and hands over with one click (its side goes back to automatic and the asking session takes it).
 */
export interface Collision {
  /** A request from another session, shown while this session holds the side. */
  request: ControlRequest | null;
  /** This session asked and waits for the hand-over. */
  requested: boolean;
  onRequest: () => void;
  onHandOver: () => void;
}

/** Control per side: each side of the conversation, who has it and since when. */
export function ControlPanel({
  conversation,
  mySessionId,
  collision,
}: {
  conversation: ConversationView;
  mySessionId: string | undefined;
  collision: Collision;
}) {
  const now = useNow(15_000);
  const nameOf = (id: number) => conversation.participants.find((p) => p.agentId === id)?.name ?? `Agent ${id}`;
  const mine = conversation.control.find((side) => side.isMine);
  const elsewhere = mine?.isManual && mine.sessionId !== mySessionId;
  const holdingHere = mine?.isManual && mine.sessionId === mySessionId;
  return (
    <div className="pf-control-sides" data-testid="control-panel">
      {conversation.control.map((side) => (
        <div key={side.agentIds.join('-')} data-testid="side-control">
          <Tag minimal intent={side.isManual ? Intent.WARNING : Intent.NONE}>
            {side.isMine ? 'Your side' : 'Their side'}
          </Tag>{' '}
          <strong>{side.agentIds.map(nameOf).join(', ')}</strong> ·{' '}
          {describeSide(side, side.agentIds.map(nameOf).join(', '), mySessionId, now)}
        </div>
      ))}
      {elsewhere ? (
        <Callout intent={Intent.WARNING} data-testid="control-elsewhere">
          You have control of your side in another session{mine.controllerName ? ` (signed in as ${mine.controllerName})` : ''}. Hand it
          back there, or request control to speak from here.{' '}
          {collision.requested ? (
            <span data-testid="control-requested">Control requested: waiting for the other session to hand over.</span>
          ) : (
            <Button small intent={Intent.PRIMARY} icon="hand" text="Request control" onClick={collision.onRequest} />
          )}
        </Callout>
      ) : null}
      {holdingHere && collision.request ? (
        <Callout intent={Intent.PRIMARY} data-testid="control-request">
          {collision.request.byName} asks for control of your side from another session.{' '}
          <Button small intent={Intent.PRIMARY} icon="swap-horizontal" text="Hand over" onClick={collision.onHandOver} />
        </Callout>
      ) : null}
    </div>
  );
}
