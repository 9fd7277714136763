import { Button, Card, H2, Icon, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import { WritersOnly } from '../../components/writers-only';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { PageHeader } from '../../components/page-header';
import { useQuery } from '@tanstack/react-query';
import { agentPageKey, fetchAgentPage } from '../../features/agents/api/agents';
import { AgentFormDialog } from '../../features/agents/components/agent-form-dialog';
import { AGENT_TYPE_LOOK } from '../../components/agent-type';
import { perspectiveLabel, readRole } from '../../features/auth/role';
import { displayRole } from '../../features/auth/user-display';
import { useUser } from '../../lib/current-user';
import { conversationPageKey, fetchConversationPage } from '../../features/conversations/api/conversations';
import { ModeTag } from '../../features/conversations/components/mode-tag';
import { statusWords } from '../../features/conversations/components/status-words';
import { useStats } from '../../lib/stats';
import { NotificationBell } from '../../features/notifications/components/bell';
import { SeedDemoButton } from '../../features/dashboard/seed-demo-button';
import { StatCards } from '../../features/dashboard/stat-cards';

/** Dashboard. */
export default function DashboardRoute() {
  const stats = useStats();
  const user = useUser();
  // The three newest of each, read as one short page: the dashboard costs the same for 10 agents or 10,000.
  const agents = useQuery({
    queryKey: [...agentPageKey, 'dashboard'],
    queryFn: () => fetchAgentPage({ limit: 3 }),
    select: (page) => page.items,
  });
  const conversations = useQuery({
    queryKey: [...conversationPageKey, 'dashboard'],
    queryFn: () => fetchConversationPage({ limit: 3 }),
    select: (page) => page.items,
  });
  const [creating, setCreating] = useState(false);
  const [, navigate] = useLocation();
  const loading = stats.isPending || agents.isPending || conversations.isPending;

  return (
    <>
      <PageHeader title="Dashboard">
        {/* The firm role, in the sidebar's words; the welcome screen's choice is only a perspective and grants nothing. */}
        <Tag large minimal intent={Intent.PRIMARY} data-testid="role-badge" title="Your role in your firm">
          {displayRole(user.data)}
        </Tag>
        <Tag large minimal data-testid="perspective-badge" title="Chosen on the welcome screen; it changes nothing you may do">
          {perspectiveLabel(readRole())} perspective
        </Tag>
        <SeedDemoButton />
        <WritersOnly>
          <Button intent={Intent.PRIMARY} icon="plus" text="Create Agent" onClick={() => setCreating(true)} />
        </WritersOnly>
        <NotificationBell />
      </PageHeader>
      {loading ? (
        <p className="pf-loading">Loading...</p>
      ) : (
        <>
          <StatCards stats={stats.data} />
          <div className="pf-grid pf-grid-2 pf-section">
            <Card>
              <div className="pf-card-head pf-spread">
                <H2 className="pf-h4">My Agents</H2>
                <Button variant="minimal" text="View All" endIcon="arrow-right" onClick={() => navigate('/agents')} />
              </div>
              {agents.data?.length ? (
                <ul className="pf-list">
                  {agents.data.slice(0, 3).map((agent) => (
                    <li key={agent.id} className="pf-list-row">
                      <Icon icon={AGENT_TYPE_LOOK[agent.type].icon} intent={AGENT_TYPE_LOOK[agent.type].intent} />
                      <span className="pf-grow">{agent.name}</span>
                      <Tag intent={agent.isActive ? Intent.SUCCESS : Intent.NONE}>{agent.isActive ? 'Active' : 'Paused'}</Tag>
                    </li>
                  ))}
                </ul>
              ) : (
                <NonIdealState
                  icon="predictive-analysis"
                  description="No agents yet"
                  action={
                    <WritersOnly>
                      <Button intent={Intent.PRIMARY} text="Create your first agent" onClick={() => setCreating(true)} />
                    </WritersOnly>
                  }
                />
              )}
            </Card>
            <Card>
              <div className="pf-card-head pf-spread">
                <H2 className="pf-h4">Recent Conversations</H2>
                <Button variant="minimal" text="View All" endIcon="arrow-right" onClick={() => navigate('/conversations')} />
              </div>
              {conversations.data?.length ? (
                <ul className="pf-list">
                  {conversations.data.slice(0, 3).map((conversation) => (
                    <li key={conversation.id} className="pf-list-row">
                      <Icon icon="chat" />
                      <Link href={`/conversations/${conversation.id}`} className="pf-grow">
                        <div>{conversation.title}</div>
                        <div className="pf-muted pf-small">{statusWords(conversation)}</div>
                      </Link>
                      <ModeTag manual={conversation.isManualMode} />
                    </li>
                  ))}
                </ul>
              ) : (
                <NonIdealState icon="chat" description="No conversations yet. Seed demo data or create agents to start." />
              )}
            </Card>
          </div>
        </>
      )}
      <AgentFormDialog isOpen={creating} onClose={() => setCreating(false)} />
    </>
  );
}
