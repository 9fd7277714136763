import { Button, Callout, HTMLSelect, Intent, Tag } from '@blueprintjs/core';
import type { ConversationView, SideControl } from '@pf/events';
import { useNow } from '../../../lib/use-now';
import type { Collision } from './use-collision';
import { capitalised } from '@pf/events';
import { heldByMe, heldHereBy, sideLabel, type Me, type ModeSwitch } from './use-mode-switch';

/** "for 4 min": how long a side has been taken over, in whole minutes (under one: "just now"). */
function heldFor(since: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(since)) / 60_000);
  return minutes < 1 ? 'just now' : `for ${minutes} min`;
}

/** Who controls a side, as a sentence: "Taken over by Bob Jones for 4 min", "Automatic: Wessex negotiates". */
function describeSide(side: SideControl, agent: string, me: Me, now: number): string {
  if (!side.isManual) return `Automatic: ${agent} negotiates`;
  const named = side.controllerName ? ` (${side.controllerName})` : '';
  const who = heldByMe(side, me)
    ? side.sessionId === me.sessionId
      ? 'you, here'
      : `you, in another session${named}`
    : (side.controllerName ?? (side.isMine ? 'a colleague' : 'their operator'));
  return `Taken over by ${who} ${side.since ? heldFor(side.since, now) : ''}`.trim();
}

const SIDE_WORDS = { borrower: 'Borrower', lender: 'Lender', broker: 'Broker' } as const;

/**
 * Control per side (docs/decisions/per-side-control.md): each side (one participant) of the conversation, who has
 * it and since when; for a side of the viewer's firm held elsewhere, Request control; for a side held here that
 * someone asks for, Hand over or Decline. `mayWrite`: an auditor is shown who holds what, and no buttons.
 */
export function ControlPanel({
  conversation,
  me,
  collision,
  mayWrite,
}: {
  conversation: ConversationView;
  me: Me;
  collision: Collision;
  mayWrite: boolean;
}) {
  const now = useNow(15_000);
  const nameOf = (id: number) => conversation.participants.find((p) => p.agentId === id)?.name ?? `Agent ${id}`;
  return (
    <div className="pf-control-sides" data-testid="control-panel">
      {conversation.control.map((side) => (
        <div key={side.agentId} data-testid="side-control" data-side={side.side}>
          <Tag minimal intent={side.isManual ? Intent.WARNING : Intent.NONE}>
            {side.isMine ? 'Your side' : 'Their side'}
          </Tag>{' '}
          <Tag minimal>{SIDE_WORDS[side.side]}</Tag> <strong>{nameOf(side.agentId)}</strong> ·{' '}
          {describeSide(side, nameOf(side.agentId), me, now)}
        </div>
      ))}
      {conversation.control.map((side) =>
        mayWrite && side.isMine && side.isManual && !heldHereBy(side, me) ? (
          <HeldElsewhere
            key={`held-${side.agentId}`}
            conversation={conversation}
            side={side}
            mine={heldByMe(side, me)}
            collision={collision}
          />
        ) : null,
      )}
      {collision.declines.map((declined) => (
        <Callout key={`declined-${declined.agentId}`} intent={Intent.DANGER} data-testid="control-declined">
          {declined.byName} declined to hand over {sideLabel(conversation, declined.agentId)}.
        </Callout>
      ))}
      {mayWrite
        ? collision.requests.map((request) => (
            <Callout key={`${request.agentId}-${request.bySessionId}`} intent={Intent.PRIMARY} data-testid="control-request">
              {request.isYou
                ? `${request.byName} asks for control of your side from another session.`
                : `${request.byName} asks for control of ${sideLabel(conversation, request.agentId)}.`}{' '}
              <Button small intent={Intent.PRIMARY} icon="swap-horizontal" text="Hand over" onClick={() => collision.onHandOver(request)} />{' '}
              <Button small text="Decline" onClick={() => collision.onDecline(request)} />
            </Callout>
          ))
        : null}
    </div>
  );
}

/** A side of the viewer's firm held by someone else (a colleague, or themself in another session): ask for it. */
function HeldElsewhere({
  conversation,
  side,
  mine,
  collision,
}: {
  conversation: ConversationView;
  side: SideControl;
  /** Held by the viewer themself, in another session. */
  mine: boolean;
  collision: Collision;
}) {
  const label = sideLabel(conversation, side.agentId);
  const asked = collision.requested.has(side.agentId);
  const action = asked ? (
    <span data-testid="control-requested">
      Control requested: waiting for {mine ? 'the other session' : (side.controllerName ?? 'the person holding it')} to hand over.
    </span>
  ) : (
    <Button small intent={Intent.PRIMARY} icon="hand" text="Request control" onClick={() => collision.onRequest(side.agentId)} />
  );
  if (mine) {
    return (
      <Callout intent={Intent.WARNING} data-testid="control-elsewhere">
        You have control of your side in another session{side.controllerName ? ` (signed in as ${side.controllerName})` : ''}. Hand it back
        there, or request control to speak from here. {action}
      </Callout>
    );
  }
  return (
    <Callout intent={Intent.WARNING} data-testid="control-colleague">
      {side.controllerName ?? 'A colleague'} holds {label}. Request control to take it: they can hand it over or decline. {action}
    </Callout>
  );
}

/** With more than one side of the firm free: which the Manual Mode switch takes over (one of them, or all). */
export function SideChooser({ conversation, mode }: { conversation: ConversationView; mode: ModeSwitch }) {
  const { choice } = mode;
  if (!choice || mode.manual) return null;
  const all = choice.options.length === 2 ? 'Both sides' : `All ${choice.options.length} sides`;
  return (
    <HTMLSelect
      aria-label="Sides to take over"
      data-testid="side-chooser"
      className="pf-side-chooser"
      minimal
      value={String(choice.chosen)}
      onChange={(event) => choice.choose(event.currentTarget.value === 'all' ? 'all' : Number(event.currentTarget.value))}
      options={[
        ...choice.options.map((agentId) => ({ value: String(agentId), label: capitalised(sideLabel(conversation, agentId)) })),
        { value: 'all', label: all },
      ]}
    />
  );
}
