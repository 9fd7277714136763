import { Button, Intent } from '@blueprintjs/core';
import type { AgentType } from '@pf/events';
import { useState } from 'react';
import { AGENT_TYPE_FILTER } from '../../../components/agent-type';
import { WritersOnly } from '../../../components/writers-only';
import { DemoSandboxNotice } from '../../../components/demo-badge';
import { PageHeader } from '../../../components/page-header';
import { PagedList } from '../../../components/paged-list';
import { Problem } from '../../../components/problem';
import { SearchFilterBar } from '../../../components/search-filter-bar';
import { useSearchedPages, type SearchedPageParams } from '../../../lib/use-cursor-pages';
import { agentPageKey, fetchAgentPage } from '../api/agents';
import { AgentCard } from './agent-card';
import { AgentFormDialog } from './agent-form-dialog';

/** My Agents: one page of the firm's agents at a time, searched by name and filtered by type on the server. */
export function AgentsPage() {
  const [creating, setCreating] = useState(false);
  const { pages, bar, filtered } = useSearchedPages(agentPageKey, ({ filter, ...params }: SearchedPageParams<AgentType>) =>
    fetchAgentPage({ ...params, type: filter }),
  );
  const openCreate = () => setCreating(true);
  return (
    <>
      <PageHeader title="My Agents" subtitle="Create and manage the AI agents that work for you">
        <WritersOnly>
          <Button intent={Intent.PRIMARY} icon="plus" text="Create Agent" onClick={openCreate} />
        </WritersOnly>
      </PageHeader>
      <SearchFilterBar noun="agents" placeholder="Search agents by name…" {...AGENT_TYPE_FILTER} {...bar} className="pf-list-filters" />
      <PagedList
        pages={pages}
        noun="agents"
        filtered={filtered}
        errorTitle="Could not load agents"
        empty={
          <Problem
            icon="predictive-analysis"
            title="No agents yet"
            description="Agents find matches and negotiate for you."
            action={
              <WritersOnly>
                <Button intent={Intent.PRIMARY} icon="plus" text="Create Your First Agent" onClick={openCreate} />
              </WritersOnly>
            }
          />
        }
        noMatch={<Problem icon="search" title="No agents match" description="Try another name or type." />}
      >
        {(agents) => (
          <>
            <DemoSandboxNotice shown={agents.some((agent) => agent.isDemo)} />
            <div className="pf-grid pf-grid-3">
              {agents.map((agent) => (
                <AgentCard key={agent.id} agent={agent} />
              ))}
            </div>
          </>
        )}
      </PagedList>
      <AgentFormDialog isOpen={creating} onClose={() => setCreating(false)} />
    </>
  );
}
