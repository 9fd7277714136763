import { Alert, Button, Card, H4 } from '@blueprintjs/core';
import { USER_MESSAGES, type ConversationView, type MessageView } from '@pf/events';
import { useState, type RefObject } from 'react';
import { useLocation } from 'wouter';

interface Props {
  conversation: ConversationView;
  messages: MessageView[];
  threadRef: RefObject<HTMLElement | null>;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  onToggle: () => void;
  seedButton: React.ReactNode;
}

/** Spec §9: quick actions wait 0.5 s (after the scroll) before acting. */
const QUICK_ACTION_DELAY_MS = 500;

/** Export: the conversation and its real messages, as conversation-{id}.json. */
function exportConversation(conversation: ConversationView, messages: MessageView[]) {
  const body = { ...conversation, messages, exportedAt: new Date().toISOString() };
  const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `conversation-${conversation.id}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function QuickActions({ conversation, messages, threadRef, inputRef, onToggle, seedButton }: Props) {
  const [, navigate] = useLocation();
  const [alerting, setAlerting] = useState(false);
  return (
    <Card className="pf-quick-actions">
      <H4>Quick Actions</H4>
      <div className="pf-quick-buttons">
        {seedButton}
        <Button
          icon="swap-horizontal"
          text="Toggle Mode"
          onClick={() => {
            threadRef.current?.scrollIntoView({ behavior: 'smooth' });
            setTimeout(onToggle, QUICK_ACTION_DELAY_MS);
          }}
        />
        <Button
          icon="send-message"
          text="Send Message"
          onClick={() =>
            setTimeout(() => {
              if (inputRef.current) inputRef.current.focus();
              else setAlerting(true);
            }, QUICK_ACTION_DELAY_MS)
          }
        />
        <Button icon="people" text="View Agents" onClick={() => navigate('/agents')} />
        <Button icon="export" text="Export" onClick={() => exportConversation(conversation, messages)} />
      </div>
      <Alert isOpen={alerting} onClose={() => setAlerting(false)} confirmButtonText="OK" icon="hand">
        <p>{USER_MESSAGES.switchToManualFirst}</p>
      </Alert>
    </Card>
  );
}
