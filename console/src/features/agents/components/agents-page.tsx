import { Button, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { useAgents } from '../api/agents';
import { AgentCard } from './agent-card';
import { AgentFormDialog } from './agent-form-dialog';

export function AgentsPage() {
  const agents = useAgents();
  const [creating, setCreating] = useState(false);
  const openCreate = () => setCreating(true);
  return (
    <>
      <PageHeader title="My Agents" subtitle="Create and manage the AI agents that work for you">
        <Button intent={Intent.PRIMARY} icon="plus" text="Create Agent" onClick={openCreate} />
      </PageHeader>
      {agents.isPending ? (
        <Spinner />
      ) : agents.isError ? (
        <NonIdealState icon="error" title="Could not load agents" description={agents.error.message} />
      ) : agents.data.length === 0 ? (
        <NonIdealState
          icon="predictive-analysis"
          title="No agents yet"
          description="Agents find matches and negotiate for you."
          action={<Button intent={Intent.PRIMARY} icon="plus" text="Create Your First Agent" onClick={openCreate} />}
        />
      ) : (
        <div className="pf-grid pf-grid-3">
          {agents.data.map((agent) => (
            <AgentCard key={agent.id} agent={agent} />
          ))}
        </div>
      )}
      <AgentFormDialog isOpen={creating} onClose={() => setCreating(false)} />
    </>
  );
}
