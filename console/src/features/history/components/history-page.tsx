import { parseId } from '@pf/events';
import { ConversationNotShown } from '../../../components/conversation-not-shown';
import { useFollowConversation } from '../../../lib/live/live-provider';
import { useHistoryEvents } from '../api/history';
import { HistoryScreen } from './history-screen';

/** /conversations/:id/history: the same 404 as the conversation for anyone who may not see it. */
export function HistoryPage({ rawId }: { rawId: string | undefined }) {
  const id = parseId(rawId);
  const history = useHistoryEvents(id);
  // Following the conversation brings its pushes, which refetch the history (live arrivals).
  useFollowConversation(id);
  if (id === null || !history.isSuccess) {
    return <ConversationNotShown id={id} query={history} loading="Loading the history..." failed="Could not load the history" />;
  }
  return <HistoryScreen key={id} conversationId={id} all={history.data} />;
}
