import { Icon } from '@blueprintjs/core';
import { useSyncExternalStore } from 'react';
import { namesOf, presenceIn, subscribePresence } from '../../../lib/live/presence';

/** Who else has the thread open and who is typing in it, by name (the socket's presence pushes). */
export function PresenceBar({ conversationId }: { conversationId: number }) {
  const { viewers, typers } = useSyncExternalStore(subscribePresence, () => presenceIn(conversationId));
  if (viewers.length === 0 && typers.length === 0) return null;
  const plural = (people: readonly unknown[]) => people.length > 1 || (people[0] as { isYou: boolean }).isYou;
  return (
    <div className="pf-presence pf-muted pf-small">
      {viewers.length > 0 ? (
        <span data-testid="presence-viewers">
          <Icon icon="eye-open" size={12} /> {capitalise(namesOf(viewers))} {plural(viewers) ? 'are' : 'is'} viewing
        </span>
      ) : null}
      {typers.length > 0 ? (
        <span data-testid="presence-typers">
          {viewers.length > 0 ? ' · ' : null}
          <Icon icon="edit" size={12} /> {capitalise(namesOf(typers))} {plural(typers) ? 'are' : 'is'} typing…
        </span>
      ) : null}
    </div>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
