import { Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { USER_MESSAGES } from '@pf/events';
import { Link } from 'wouter';
import { isNotFound } from '../lib/api-client';
import { Problem } from './problem';

const backLink = (
  <Link href="/conversations" className={Classes.BUTTON}>
    Back to Conversations
  </Link>
);

/**
 * What a page about one conversation (its thread, its history) shows until it can show it: an id that is not
 * one, the wait, or why it cannot be read. Not found is the same answer for anyone who may not see it.
 */
export function ConversationNotShown({
  id,
  query,
  loading,
  failed,
}: {
  id: number | null;
  query: { isPending: boolean; error: Error | null };
  /** "Loading the history..." */
  loading: string;
  /** "Could not load the history" */
  failed: string;
}) {
  if (id === null) return <Problem level={1} icon="error" title={USER_MESSAGES.invalidConversation} action={backLink} />;
  if (query.isPending || !query.error) return <NonIdealState icon={<Spinner />} description={loading} />;
  return isNotFound(query.error) ? (
    <Problem
      level={1}
      icon="search"
      title={USER_MESSAGES.conversationNotFound}
      description={USER_MESSAGES.conversationNotFoundHint}
      action={backLink}
    />
  ) : (
    <Problem level={1} icon="error" title={failed} description={query.error.message} action={backLink} />
  );
}
