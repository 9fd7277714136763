import { Button, Callout, Card, H2, Icon, Intent, Spinner } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { CONVERSATION_STATUSES, PAGE_LIMIT_DEFAULT, wholeNumber, type ConversationStatus, type ConversationView } from '@pf/events';
import { useDeferredValue, useState } from 'react';
import { useLocation } from 'wouter';
import { PageHeader } from '../../../components/page-header';
import { conversationPageKey, fetchConversationPage, useConversationCount } from '../api/conversations';
import { useStats } from '../../../lib/stats';
import { SuccessRateTitle, successRateText } from '../../../components/success-rate';
import { PageNav } from '../../../components/page-nav';
import { SearchFilterBar } from '../../../components/search-filter-bar';
import { useCursorPages } from '../../../lib/use-cursor-pages';
import { ModeTag, StatusTag } from './mode-tag';
import { formatDateTime } from '../../../lib/display';

function Summary() {
  const stats = useStats();
  const total = useConversationCount({});
  const active = useConversationCount({ status: 'active' });
  const manual = useConversationCount({ mode: 'manual' });
  const figures = [
    { title: 'Total Conversations', value: total.data, icon: 'chat' as const },
    { title: 'Active Now', value: active.data, icon: 'pulse' as const },
    { title: 'Manual Mode', value: manual.data, icon: 'hand' as const },
    // The one success rate, the dashboard's (events/src/success-rate.ts), with its definition as a tooltip.
    { title: 'Success Rate', value: successRateText(stats.data?.successRate), icon: 'trending-up' as const },
  ];
  return (
    <div className="pf-grid pf-grid-4">
      {figures.map((figure) => (
        <Card
          key={figure.title}
          className="pf-stat-card"
          data-testid={figure.title === 'Success Rate' ? 'conversations-success-rate' : undefined}
        >
          <div className="pf-stat-head">
            {figure.title === 'Success Rate' ? <SuccessRateTitle /> : <span>{figure.title}</span>}
            <Icon icon={figure.icon} />
          </div>
          <div className="pf-stat-value">
            {figure.value === undefined ? '–' : typeof figure.value === 'number' ? wholeNumber(figure.value) : figure.value}
          </div>
        </Card>
      ))}
    </div>
  );
}

/** Which side is yours, and whose the other side is (its firm, inside a conversation the two firms share). */
function SidesLine({ conversation }: { conversation: ConversationView }) {
  const yours = conversation.participants.filter((p) => p.isMine);
  const theirs = conversation.participants.filter((p) => !p.isMine);
  return (
    <p className="pf-small" data-testid="conversation-sides">
      Yours: {yours.map((p) => p.name).join(', ') || '–'}
      {theirs.length > 0 ? ` · Other side: ${theirs.map((p) => `${p.name}${p.firmName ? ` (${p.firmName})` : ''}`).join(', ')}` : ''}
    </p>
  );
}

/** Conversations: one page at a time, searched by title and filtered by status on the server. */
export function ConversationsPage() {
  const [, navigate] = useLocation();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<ConversationStatus | 'all'>('all');
  const q = useDeferredValue(search.trim());
  const pages = useCursorPages(
    conversationPageKey,
    { q: q || undefined, status: status === 'all' ? undefined : status, limit: PAGE_LIMIT_DEFAULT },
    fetchConversationPage,
  );
  const page = pages.query.data;
  const filtered = q !== '' || status !== 'all';
  return (
    <>
      <PageHeader title="Conversations" subtitle="Watch your agents negotiate, and take over whenever you like" />
      {pages.query.isPending ? (
        <Spinner />
      ) : pages.query.isError ? (
        <Problem icon="error" title="Could not load conversations" description={pages.query.error.message} />
      ) : (
        <>
          <Summary />
          <SearchFilterBar
            noun="conversations"
            placeholder="Search conversations by title…"
            search={search}
            onSearch={setSearch}
            filterLabel="Status filter"
            allLabel="All Statuses"
            options={CONVERSATION_STATUSES}
            value={status}
            onFilter={setStatus}
            className="pf-section"
          />
          {page!.total === 0 ? (
            filtered ? (
              <Problem className="pf-section" icon="search" title="No conversations match" description="Try another title or status." />
            ) : (
              <Problem
                className="pf-section"
                icon="chat"
                title="No conversations yet"
                description="Conversations start when your agents find a match. Seed demo data from the dashboard to see some."
              />
            )
          ) : (
            <>
              <div className="pf-grid pf-grid-3 pf-section">
                {page!.items.map((conversation) => (
                  <Card
                    key={conversation.id}
                    interactive
                    className="pf-conversation-card"
                    data-testid="conversation-card"
                    onClick={() => navigate(`/conversations/${conversation.id}`)}
                  >
                    <H2 className="pf-h4 pf-card-title">{conversation.title}</H2>
                    <SidesLine conversation={conversation} />
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
              <PageNav noun="conversations" pager={pages} pageSize={PAGE_LIMIT_DEFAULT} shown={page!.items.length} total={page!.total} />
            </>
          )}
          <Callout className="pf-section" intent={Intent.PRIMARY} icon="info-sign">
            <h2 className="bp6-heading pf-callout-title">How conversations work</h2>
            Your agents talk to other agents on their own. Open a conversation to follow it live; switch on Manual Mode to speak as your
            agent yourself, and switch it off to hand the conversation back.
          </Callout>
        </>
      )}
    </>
  );
}
