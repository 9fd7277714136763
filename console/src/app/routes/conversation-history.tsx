import type { RouteComponentProps } from 'wouter';
import { HistoryPage } from '../../features/history/components/history-page';

export default function ConversationHistoryRoute({ params }: RouteComponentProps) {
  return <HistoryPage rawId={params.id} />;
}
