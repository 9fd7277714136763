import { Alert, Button, ButtonGroup, Card, H2, HTMLTable, Icon, Intent, Tag } from '@blueprintjs/core';
import { criterionWords, CRITERIA_KEYS, unreadableCriteria, USER_MESSAGES, type AgentView } from '@pf/events';
import { useState } from 'react';
import { toastFailure, toastSuccess } from '../../../lib/toaster';
import { useDeleteAgent, useUpdateAgent } from '../api/agents';
import { CRITERIA_LABELS } from './agent-form';
import { AgentFormDialog } from './agent-form-dialog';
import { AGENT_TYPE_LOOK } from '../../../components/agent-type';
import { WritersOnly } from '../../../components/writers-only';
import { DemoBadge } from '../../../components/demo-badge';

/** One agent (docs/behaviour/agents.md): type look, badges, description fallback, criteria, pause/resume, edit, delete. */
export function AgentCard({ agent }: { agent: AgentView }) {
  const look = AGENT_TYPE_LOOK[agent.type];
  const update = useUpdateAgent();
  const remove = useDeleteAgent();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const criteria = CRITERIA_KEYS.filter((key) => agent.criteria?.[key]);
  // What the agents cannot read is said back here as "not understood", never silently ignored (docs/behaviour/agents.md).
  const notUnderstood = new Set(unreadableCriteria(agent.criteria));

  const toggle = () =>
    update.mutate(
      { id: agent.id, input: { isActive: !agent.isActive } },
      {
        onSuccess: () => toastSuccess(USER_MESSAGES.agentStatusUpdated),
        onError: (error) => toastFailure(USER_MESSAGES.agentStatusFailed, error),
      },
    );
  const confirmDelete = () => {
    setConfirming(false);
    remove.mutate(agent.id, {
      onSuccess: () => toastSuccess(USER_MESSAGES.agentDeleted),
      onError: (error) => toastFailure(USER_MESSAGES.agentDeleteFailed, error),
    });
  };

  return (
    <Card className="pf-agent-card" data-testid="agent-card">
      <div className="pf-card-head">
        <span className={`pf-type-icon pf-type-${agent.type}`}>
          <Icon icon={look.icon} intent={look.intent} size={20} />
        </span>
        <H2 className="pf-h4 pf-card-title">{agent.name}</H2>
      </div>
      <div className="pf-tags">
        <Tag intent={look.intent} minimal>
          {look.label}
        </Tag>
        <Tag intent={agent.isActive ? Intent.SUCCESS : Intent.NONE}>{agent.isActive ? 'Active' : 'Paused'}</Tag>
        <DemoBadge isDemo={agent.isDemo} />
      </div>
      <p className="pf-description">{agent.description || `AI agent specialized in ${agent.type} activities`}</p>
      {criteria.length > 0 ? (
        <div className="pf-criteria">
          <div className="pf-criteria-title">Criteria</div>
          <HTMLTable compact className="pf-criteria-table">
            <tbody>
              {criteria.map((key) => (
                <tr key={key}>
                  <td>{CRITERIA_LABELS[key]}</td>
                  <td>
                    {criterionWords(key, agent.criteria?.[key] ?? '')}
                    {notUnderstood.has(key) ? (
                      <Tag minimal intent={Intent.WARNING} className="pf-not-understood" title="The agents treat this as no limit">
                        Not understood
                      </Tag>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      ) : null}
      {/* Pause, Edit and Delete are writes: absent for an auditor (the API answers 403; RoleNotice says why). */}
      <WritersOnly>
        <ButtonGroup className="pf-card-actions">
          <Button
            icon={agent.isActive ? 'pause' : 'play'}
            text={agent.isActive ? 'Pause' : 'Resume'}
            loading={update.isPending}
            onClick={toggle}
          />
          <Button icon="edit" text="Edit" onClick={() => setEditing(true)} />
          <Button
            icon="trash"
            intent={Intent.DANGER}
            aria-label="Delete agent"
            loading={remove.isPending}
            onClick={() => setConfirming(true)}
          />
        </ButtonGroup>
      </WritersOnly>
      <AgentFormDialog isOpen={editing} onClose={() => setEditing(false)} agent={agent} />
      <Alert
        isOpen={confirming}
        intent={Intent.DANGER}
        icon="trash"
        cancelButtonText="Cancel"
        confirmButtonText="Delete"
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      >
        <p>{USER_MESSAGES.agentDeleteConfirm}</p>
      </Alert>
    </Card>
  );
}
