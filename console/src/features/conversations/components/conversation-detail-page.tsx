import { parseId } from '@pf/events';
import { useEffect, type ReactNode } from 'react';
import { ConversationNotShown } from '../../../components/conversation-not-shown';
import { useFollowConversation } from '../../../lib/live/live-provider';
import { useConversation, useMessages } from '../api/conversations';
import { ConversationScreen } from './conversation-screen';

/** The page scrolls to top 100 ms after load. */
const SCROLL_TOP_DELAY_MS = 100;

export function ConversationDetailPage({ rawId, seedButton }: { rawId: string | undefined; seedButton: ReactNode }) {
  const id = parseId(rawId);
  const conversation = useConversation(id);
  const messages = useMessages(id);
  useFollowConversation(id);
  useEffect(() => {
    const timer = setTimeout(() => window.scrollTo(0, 0), SCROLL_TOP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [id]);

  if (id === null || !conversation.isSuccess) {
    return <ConversationNotShown id={id} query={conversation} loading="Loading conversation..." failed="Could not load the conversation" />;
  }
  return <ConversationScreen key={id} conversation={conversation.data} messages={messages.data} seedButton={seedButton} />;
}
