import type { RouteComponentProps } from 'wouter';
import { ConversationDetailPage } from '../../features/conversations/components/conversation-detail-page';
import { SeedDemoButton } from '../../features/dashboard/seed-demo-button';

/** Composes the conversation screen with the seed action it offers (Quick Actions: Add Demo Messages). */
export default function ConversationDetailRoute({ params }: RouteComponentProps) {
  return <ConversationDetailPage rawId={params.id} seedButton={<SeedDemoButton quiet />} />;
}
