import { Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { parseId, USER_MESSAGES } from '@pf/events';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { isNotFound } from '../../../lib/api-client';
import { useFollowConversation } from '../../../lib/live/live-provider';
import { useConversation, useMessages } from '../api/conversations';
import { ConversationScreen } from './conversation-screen';

const backLink = (
  <Link href="/conversations" className={Classes.BUTTON}>
    Back to Conversations
  </Link>
);

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

  if (id === null) {
    return <Problem level={1} icon="error" title={USER_MESSAGES.invalidConversation} action={backLink} />;
  }
  if (conversation.isPending) {
    return <NonIdealState icon={<Spinner />} description="Loading conversation..." />;
  }
  if (conversation.isError) {
    return isNotFound(conversation.error) ? (
      <Problem
        level={1}
        icon="search"
        title={USER_MESSAGES.conversationNotFound}
        description={USER_MESSAGES.conversationNotFoundHint}
        action={backLink}
      />
    ) : (
      <Problem level={1} icon="error" title="Could not load the conversation" description={conversation.error.message} action={backLink} />
    );
  }
  return <ConversationScreen key={id} conversation={conversation.data} messages={messages.data} seedButton={seedButton} />;
}
