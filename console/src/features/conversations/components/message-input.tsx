import { Button, Intent, TextArea } from '@blueprintjs/core';
import { USER_MESSAGES, type ConversationView } from '@pf/events';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent, type Ref } from 'react';
import { queryKeys } from '../../../lib/query-keys';
import { toastFailure } from '../../../lib/toaster';
import { useLive } from '../../../lib/live/live-provider';
import { postMessage } from '../api/conversations';

interface Props {
  conversation: ConversationView;
  inputRef: Ref<HTMLTextAreaElement>;
}

/** Send message: trimmed, empty not sent, Enter without Shift sends, disabled while empty or sending. */
export function MessageInput({ conversation, inputRef }: Props) {
  const live = useLive();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fromAgentId = conversation.participants.find((p) => p.isMine)?.agentId;

  const send = async () => {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    try {
      // The socket is the spec's path; without it the same command goes over HTTP.
      if (live.isOpen()) {
        await live.request({ type: 'send_message', conversationId: conversation.id, fromAgentId, content, isAutomated: false });
      } else {
        await postMessage(conversation.id, content, fromAgentId);
      }
      setText('');
      // The push normally brings the message; the read after our position makes sure of it.
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(conversation.id), exact: true });
    } catch (error) {
      toastFailure(USER_MESSAGES.messageSendFailed, error);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div className="pf-message-input">
      <TextArea
        inputRef={inputRef}
        fill
        autoResize
        aria-label="Message"
        placeholder="Type your message as your agent…"
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          // The others following the thread see who is typing (the connection sends it at most every 2 s).
          if (event.currentTarget.value.trim()) live.typing(conversation.id);
        }}
        onKeyDown={onKeyDown}
      />
      <Button
        intent={Intent.PRIMARY}
        icon="send-message"
        text="Send"
        disabled={!text.trim() || sending}
        loading={sending}
        onClick={() => void send()}
      />
    </div>
  );
}
