import { Icon, Tag } from '@blueprintjs/core';
import type { ConversationView, MessageView } from '@pf/events';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { subscribeTyping, typingIn } from '../../../lib/live/typing';
import { AGENT_TYPE_LOOK } from '../../../components/agent-type';
import { formatTime } from '../../../lib/display';

interface Props {
  conversation: ConversationView;
  messages: MessageView[];
}

/** The thread: each message with its real sender, their type, and whether a person or the agent wrote it. */
export function MessageList({ conversation, messages }: Props) {
  const mine = new Set(conversation.participants.filter((p) => p.isMine).map((p) => p.agentId));
  const typing = useSyncExternalStore(subscribeTyping, () => typingIn(conversation.id));
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Block body on purpose: Chromium's scrollIntoView now returns a promise, which React would take for a clean-up.
    void end.current?.scrollIntoView({ block: 'nearest' });
  }, [messages.length, typing]);

  if (messages.length === 0 && !typing) {
    return <p className="pf-muted pf-empty-thread">No messages yet. Agents will start talking here.</p>;
  }
  return (
    <ol className="pf-messages" data-testid="message-list">
      {messages.map((message) => {
        const look = AGENT_TYPE_LOOK[message.fromAgentType];
        return (
          <li key={message.id} className={`pf-message ${mine.has(message.fromAgentId) ? 'pf-message-mine' : ''}`} data-testid="message">
            <div className="pf-message-meta">
              <Icon icon={look.icon} intent={look.intent} size={14} />
              <strong>{message.fromAgentName}</strong>
              <span className="pf-muted">{look.label}</span>
              <Tag minimal round icon={message.isAutomated ? 'predictive-analysis' : 'person'}>
                {message.isAutomated ? 'Agent' : 'Person'}
              </Tag>
              <time className="pf-muted pf-small" dateTime={message.createdAt}>
                {formatTime(message.createdAt)}
              </time>
            </div>
            <div className="pf-message-body">{message.content}</div>
          </li>
        );
      })}
      {typing ? <li className="pf-muted pf-typing">{typing} is typing…</li> : null}
      <div ref={end} />
    </ol>
  );
}
