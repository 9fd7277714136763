import { Icon, Tag } from '@blueprintjs/core';
import type { ConversationView, HistoryEvent, MessageView } from '@pf/events';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { subscribeTyping, typingIn } from '../../../lib/live/typing';
import { AGENT_TYPE_LOOK } from '../../../components/agent-type';
import { formatTime } from '../../../lib/display';
import { Avatar } from '../../../components/avatar';
import { OfferCard } from './offer-card';
import { sideOf, threadItems } from './thread-model';

interface Props {
  conversation: ConversationView;
  messages: MessageView[];
  /** The conversation's recorded events (offers, who wrote each manual message); empty until loaded. */
  events: readonly HistoryEvent[];
}

/**
 * The thread: each party on its own side and in its own colour (borrower and broker left, lender right),
 * every message and offer naming the agent, or the person who spoke as it, and offers as cards.
 */
export function MessageList({ conversation, messages, events }: Props) {
  const agents = useMemo(() => new Map(conversation.participants.map((p) => [p.agentId, p])), [conversation.participants]);
  const items = useMemo(() => threadItems(messages, events), [messages, events]);
  const typing = useSyncExternalStore(subscribeTyping, () => typingIn(conversation.id));
  const list = useRef<HTMLDivElement>(null);
  /** Whether the thread's box shows its latest message (it opens so); false once the reader scrolls up. */
  const atLatest = useRef(true);
  useEffect(() => {
    // The thread's own box follows the latest message; the page is left where it is (a conversation opens at the
    // top, docs/behaviour/conversations.md): scrollIntoView would scroll every ancestor, the page included.
    const box = list.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [items.length, typing]);
  const shown = items.length > 0 || typing !== null;
  useEffect(() => {
    // What lays out after the scroll (an offer card once the events load, a photo, a narrower screen) would leave
    // the latest message below the fold: while the reader is at the latest, the box stays there as it grows.
    const box = list.current;
    const content = box?.firstElementChild;
    if (!box || !content || typeof ResizeObserver === 'undefined') return;
    const onScroll = () => {
      atLatest.current = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
    };
    const observer = new ResizeObserver(() => {
      if (atLatest.current) box.scrollTop = box.scrollHeight;
    });
    box.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(content);
    observer.observe(box);
    return () => {
      box.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [shown]);

  if (items.length === 0 && !typing) {
    return <p className="pf-muted pf-empty-thread">No messages yet. Agents will start talking here.</p>;
  }
  return (
    <div className="pf-messages" tabIndex={0} role="region" aria-label="Messages and offers" ref={list}>
      <ol className="pf-message-items" data-testid="message-list">
        {items.map((item) => {
          const agentId = item.kind === 'message' ? item.message.fromAgentId : item.fromAgentId;
          const agent = agents.get(agentId);
          const type = item.kind === 'message' ? item.message.fromAgentType : (agent?.type ?? 'borrower');
          const name = item.kind === 'message' ? item.message.fromAgentName : (agent?.name ?? `Agent ${agentId}`);
          const look = AGENT_TYPE_LOOK[type];
          const byPerson = item.person !== null || (item.kind === 'message' && !item.message.isAutomated && !item.isNote);
          const isNote = item.kind === 'message' && item.isNote && item.person === null;
          return (
            <li
              key={item.key}
              className={`pf-message pf-side-${sideOf(type)} pf-party-${type}${byPerson ? ' pf-by-person' : ''}`}
              data-testid={item.kind === 'message' ? 'message' : 'offer'}
            >
              <div className="pf-message-meta">
                {item.personPhotoId ? (
                  <Avatar photoId={item.personPhotoId} initials="" className="pf-avatar-small" />
                ) : (
                  <Icon icon={look.icon} intent={look.intent} size={14} />
                )}
                <strong>{name}</strong>
                <span className="pf-muted">{look.label}</span>
                <Tag minimal round icon={byPerson ? 'person' : isNote ? 'annotation' : 'predictive-analysis'} data-testid="author">
                  {byPerson ? (item.person ? `Person: ${item.person}` : 'Person') : isNote ? 'Note' : 'Agent'}
                </Tag>
                <time className="pf-muted pf-small" dateTime={item.at}>
                  {formatTime(item.at)}
                </time>
              </div>
              {item.kind === 'message' ? (
                <div className="pf-message-body">{item.message.content}</div>
              ) : (
                <OfferCard offer={item} by={name} />
              )}
            </li>
          );
        })}
        {typing ? <li className="pf-muted pf-typing">{typing} is typing…</li> : null}
      </ol>
    </div>
  );
}
