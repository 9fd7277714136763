import { Alert, Button, Card, H2 } from '@blueprintjs/core';
import { USER_MESSAGES, type ConversationView, type MessageView } from '@pf/events';
import { useState, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { downloadConversationHistory, saveBlob } from '../../../lib/download';
import { toastError } from '../../../lib/toaster';
import { WritersOnly } from '../../../components/writers-only';

interface Props {
  conversation: ConversationView;
  messages: MessageView[];
  threadRef: RefObject<HTMLElement | null>;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  onToggle: () => void;
  seedButton: React.ReactNode;
}

/** Quick actions wait 0.5 s (after the scroll) before acting. */
const QUICK_ACTION_DELAY_MS = 500;

/** Export: the conversation and its real messages, as conversation-{id}.json. */
function exportConversation(conversation: ConversationView, messages: MessageView[]) {
  const body = { ...conversation, messages, exportedAt: new Date().toISOString() };
  saveBlob(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }), `conversation-${conversation.id}.json`);
}

export function QuickActions({ conversation, messages, threadRef, inputRef, onToggle, seedButton }: Props) {
  const [, navigate] = useLocation();
  const [alerting, setAlerting] = useState(false);
  return (
    <Card className="pf-quick-actions">
      <H2 className="pf-h4">Quick Actions</H2>
      <div className="pf-quick-buttons">
        {seedButton}
        {/* Taking over and sending are writes: absent for an auditor (the API and the socket answer 403; RoleNotice says why). */}
        <WritersOnly>
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
        </WritersOnly>
        <Button icon="people" text="View Agents" onClick={() => navigate('/agents')} />
        <Button icon="export" text="Export" onClick={() => exportConversation(conversation, messages)} />
        {/* For auditors: the full history from the event store, with its hashes, or the messages and offers as CSV. */}
        <Button
          icon="history"
          text="Export full history"
          onClick={() => void downloadConversationHistory(conversation.id, 'json').catch((error: Error) => toastError(error.message))}
        />
        <Button
          icon="th"
          text="Export messages and offers (CSV)"
          onClick={() => void downloadConversationHistory(conversation.id, 'csv').catch((error: Error) => toastError(error.message))}
        />
      </div>
      <Alert isOpen={alerting} onClose={() => setAlerting(false)} confirmButtonText="OK" icon="hand">
        <p>{USER_MESSAGES.switchToManualFirst}</p>
      </Alert>
    </Card>
  );
}
