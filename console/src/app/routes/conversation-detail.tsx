import { parseId } from '@pf/events';
import type { RouteComponentProps } from 'wouter';
import { ConversationDetailPage } from '../../features/conversations/components/conversation-detail-page';
import { AddDemoMessagesButton } from '../../features/dashboard/seed-demo-button';

/** Composes the conversation screen with the demo action it offers (Quick Actions: Add Demo Messages, to this conversation). */
export default function ConversationDetailRoute({ params }: RouteComponentProps) {
  const id = parseId(params.id);
  return <ConversationDetailPage rawId={params.id} seedButton={id === null ? null : <AddDemoMessagesButton conversationId={id} />} />;
}
