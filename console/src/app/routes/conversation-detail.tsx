import { ConversationDetailPage } from '../../features/conversations/components/conversation-detail-page';
import { SeedDemoButton } from '../../features/dashboard/seed-demo-button';

/** Composes the conversation screen with the seed action it offers (Quick Actions: Add Demo Messages). */
export default function ConversationDetailRoute({ rawId }: { rawId: string | undefined }) {
  return <ConversationDetailPage rawId={rawId} seedButton={<SeedDemoButton quiet />} />;
}
