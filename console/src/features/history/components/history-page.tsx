import { Classes, NonIdealState, Spinner } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { parseId, USER_MESSAGES } from '@pf/events';
import { Link } from 'wouter';
import { isNotFound } from '../../../lib/api-client';
import { useFollowConversation } from '../../../lib/live/live-provider';
import { useHistoryEvents } from '../api/history';
import { HistoryScreen } from './history-screen';

const backLink = (
  <Link href="/conversations" className={Classes.BUTTON}>
    Back to Conversations
  </Link>
);

/** /conversations/:id/history: the same 404 as the conversation for anyone who may not see it. */
export function HistoryPage({ rawId }: { rawId: string | undefined }) {
  const id = parseId(rawId);
  const history = useHistoryEvents(id);
  // Following the conversation brings its pushes, which refetch the history (live arrivals).
  useFollowConversation(id);
  if (id === null) return <Problem level={1} icon="error" title={USER_MESSAGES.invalidConversation} action={backLink} />;
  if (history.isPending) return <NonIdealState icon={<Spinner />} description="Loading the history..." />;
  if (history.isError) {
    return isNotFound(history.error) ? (
      <Problem
        level={1}
        icon="search"
        title={USER_MESSAGES.conversationNotFound}
        description={USER_MESSAGES.conversationNotFoundHint}
        action={backLink}
      />
    ) : (
      <Problem level={1} icon="error" title="Could not load the history" description={history.error.message} action={backLink} />
    );
  }
  return <HistoryScreen key={id} conversationId={id} all={history.data} />;
}
