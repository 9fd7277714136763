import { Button, Intent, Spinner } from '@blueprintjs/core';
import { AGENT_TYPES, PAGE_LIMIT_DEFAULT, type AgentType } from '@pf/events';
import { useDeferredValue, useState } from 'react';
import { WritersOnly } from '../../../components/writers-only';
import { PageHeader } from '../../../components/page-header';
import { PageNav } from '../../../components/page-nav';
import { Problem } from '../../../components/problem';
import { SearchFilterBar } from '../../../components/search-filter-bar';
import { useCursorPages } from '../../../lib/use-cursor-pages';
import { agentPageKey, fetchAgentPage } from '../api/agents';
import { AgentCard } from './agent-card';
import { AgentFormDialog } from './agent-form-dialog';

/** My Agents: one page of the firm's agents at a time, searched by name and filtered by type on the server. */
export function AgentsPage() {
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState('');
  const [type, setType] = useState<AgentType | 'all'>('all');
  const q = useDeferredValue(search.trim());
  const pages = useCursorPages(
    agentPageKey,
    { q: q || undefined, type: type === 'all' ? undefined : type, limit: PAGE_LIMIT_DEFAULT },
    fetchAgentPage,
  );
  const page = pages.query.data;
  const openCreate = () => setCreating(true);
  const filtered = q !== '' || type !== 'all';
  return (
    <>
      <PageHeader title="My Agents" subtitle="Create and manage the AI agents that work for you">
        <WritersOnly>
          <Button intent={Intent.PRIMARY} icon="plus" text="Create Agent" onClick={openCreate} />
        </WritersOnly>
      </PageHeader>
      <SearchFilterBar
        noun="agents"
        placeholder="Search agents by name…"
        search={search}
        onSearch={setSearch}
        filterLabel="Type filter"
        allLabel="All Types"
        options={AGENT_TYPES}
        value={type}
        onFilter={setType}
        className="pf-list-filters"
      />
      {pages.query.isPending ? (
        <Spinner />
      ) : pages.query.isError ? (
        <Problem icon="error" title="Could not load agents" description={pages.query.error.message} />
      ) : page!.total === 0 && !filtered ? (
        <Problem
          icon="predictive-analysis"
          title="No agents yet"
          description="Agents find matches and negotiate for you."
          action={<Button intent={Intent.PRIMARY} icon="plus" text="Create Your First Agent" onClick={openCreate} />}
        />
      ) : page!.total === 0 ? (
        <Problem icon="search" title="No agents match" description="Try another name or type." />
      ) : (
        <>
          <div className="pf-grid pf-grid-3">
            {page!.items.map((agent) => (
              <AgentCard key={agent.id} agent={agent} />
            ))}
          </div>
          <PageNav noun="agents" pager={pages} pageSize={PAGE_LIMIT_DEFAULT} shown={page!.items.length} total={page!.total} />
        </>
      )}
      <AgentFormDialog isOpen={creating} onClose={() => setCreating(false)} />
    </>
  );
}
