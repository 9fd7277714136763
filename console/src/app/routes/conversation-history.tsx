import { HistoryPage } from '../../features/history/components/history-page';

export default function ConversationHistoryRoute({ rawId }: { rawId: string | undefined }) {
  return <HistoryPage rawId={rawId} />;
}
