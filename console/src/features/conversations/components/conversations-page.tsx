import { Button, Callout, Card, H4, Icon, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import type { ConversationView } from '@pf/events';
import { useLocation } from 'wouter';
import { PageHeader } from '../../../components/page-header';
import { useConversations } from '../api/conversations';
import { ModeTag, StatusTag } from './mode-tag';
import { formatDateTime } from '../../../lib/display';

function Summary({ conversations }: { conversations: ConversationView[] }) {
  const figures = [
    { title: 'Total Conversations', value: conversations.length, icon: 'chat' as const },
    { title: 'Active Now', value: conversations.filter((c) => c.status === 'active').length, icon: 'pulse' as const },
    { title: 'Manual Mode', value: conversations.filter((c) => c.isManualMode).length, icon: 'hand' as const },
    // Spec §9: a fixed figure on this screen.
    { title: 'Success Rate', value: '87%', icon: 'trending-up' as const },
  ];
  return (
    <div className="pf-grid pf-grid-4">
      {figures.map((figure) => (
        <Card key={figure.title} className="pf-stat-card">
          <div className="pf-stat-head">
            <span>{figure.title}</span>
            <Icon icon={figure.icon} />
          </div>
          <div className="pf-stat-value">{figure.value}</div>
        </Card>
      ))}
    </div>
  );
}

export function ConversationsPage() {
  const conversations = useConversations();
  const [, navigate] = useLocation();
  return (
    <>
      <PageHeader title="Conversations" subtitle="Watch your agents negotiate, and take over whenever you like" />
      {conversations.isPending ? (
        <Spinner />
      ) : conversations.isError ? (
        <NonIdealState icon="error" title="Could not load conversations" description={conversations.error.message} />
      ) : (
        <>
          <Summary conversations={conversations.data} />
          {conversations.data.length === 0 ? (
            <NonIdealState
              className="pf-section"
              icon="chat"
              title="No conversations yet"
              description="Conversations start when your agents find a match. Seed demo data from the dashboard to see some."
            />
          ) : (
            <div className="pf-grid pf-grid-3 pf-section">
              {conversations.data.map((conversation) => (
                <Card
                  key={conversation.id}
                  interactive
                  className="pf-conversation-card"
                  data-testid="conversation-card"
                  onClick={() => navigate(`/conversations/${conversation.id}`)}
                >
                  <H4 className="pf-card-title">{conversation.title}</H4>
                  <div className="pf-tags">
                    <StatusTag status={conversation.status} />
                    <ModeTag manual={conversation.isManualMode} />
                  </div>
                  <p className="pf-muted pf-small">Updated {formatDateTime(conversation.updatedAt)}</p>
                  <Button
                    intent={Intent.PRIMARY}
                    variant="outlined"
                    text="View Full"
                    endIcon="arrow-right"
                    onClick={(event) => {
                      event.stopPropagation();
                      navigate(`/conversations/${conversation.id}`);
                    }}
                  />
                </Card>
              ))}
            </div>
          )}
          <Callout className="pf-section" intent={Intent.PRIMARY} icon="info-sign" title="How conversations work">
            Your agents talk to other agents on their own. Open a conversation to follow it live; switch on Manual
            Mode to speak as your agent yourself, and switch it off to hand the conversation back.
          </Callout>
        </>
      )}
    </>
  );
}
