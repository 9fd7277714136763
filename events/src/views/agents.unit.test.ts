import { describe, expect, it } from 'vitest';
import { agentsView, agentViewOf, type Agent } from './agents';
import { GIVEN_AT, viewSpec, WHEN_AT } from './view-spec';
import { agentCreated } from '../testing/fixtures';

const created = agentCreated({ description: 'First home', criteria: { loanTermMax: '30 years' }, strategy: 'conceder' });
const agent: Agent = {
  id: 1,
  ownerId: 'alice',
  firmId: 'alice',
  name: 'Alice Borrower',
  type: 'borrower',
  description: 'First home',
  criteria: { loanTermMax: '30 years' },
  products: null,
  needs: null,
  strategy: 'conceder',
  isActive: true,
  isDeleted: false,
  createdAt: GIVEN_AT,
  updatedAt: GIVEN_AT,
};
const spec = viewSpec(agentsView);

describe('agents view', () => {
  it('creates an active agent at the time the event was recorded', () => {
    spec
      .given()
      .when(created)
      .then({ ...agent, createdAt: WHEN_AT, updatedAt: WHEN_AT });
  });

  it('keeps the first creation when an agent is created twice', () => {
    spec
      .given(created)
      .when({ ...created, data: { ...created.data, name: 'Other' } })
      .thenUnchanged();
  });

  it('edits name, description and criteria, and keeps the strategy when an update names none', () => {
    spec
      .given(created)
      .when({ type: 'AgentUpdated', data: { agentId: 1, name: 'Alice B', description: 'Second home', criteria: null } })
      .then({ ...agent, name: 'Alice B', description: 'Second home', criteria: null, updatedAt: WHEN_AT });
    spec
      .given(created)
      .when({ type: 'AgentUpdated', data: { agentId: 1, name: 'Alice', description: '', criteria: null, strategy: 'boulware' } })
      .then({ ...agent, name: 'Alice', description: '', criteria: null, strategy: 'boulware', updatedAt: WHEN_AT });
  });

  it('pauses and resumes', () => {
    spec
      .given(created)
      .when({ type: 'AgentPaused', data: { agentId: 1 } })
      .then({ ...agent, isActive: false, updatedAt: WHEN_AT });
    spec
      .given(created, { type: 'AgentPaused', data: { agentId: 1 } })
      .when({ type: 'AgentResumed', data: { agentId: 1 } })
      .then({ ...agent, updatedAt: WHEN_AT });
  });

  it('keeps a deleted agent (its owner still owns its conversations) but shows it as gone', () => {
    const deleted = spec.given(created).when({ type: 'AgentDeleted', data: { agentId: 1 } });
    deleted.then({ ...agent, isActive: false, isDeleted: true, updatedAt: WHEN_AT });
    expect(agentViewOf(deleted.state!)).toBeNull();
  });

  it('treats deletion as final: later events change nothing', () => {
    spec
      .given(created, { type: 'AgentDeleted', data: { agentId: 1 } })
      .when({ type: 'AgentResumed', data: { agentId: 1 } })
      .thenUnchanged();
  });

  it('ignores events about an agent it never saw, and events of other views', () => {
    spec
      .given()
      .when({ type: 'AgentPaused', data: { agentId: 9 } })
      .then(null);
    expect(agentsView.keyOf({ type: 'ManualModeChanged', data: { conversationId: 1, isManualMode: true } })).toBeNull();
  });

  it('shows what the read side serves, without the owner', () => {
    expect(agentViewOf(agent)).toEqual({
      id: 1,
      name: 'Alice Borrower',
      type: 'borrower',
      description: 'First home',
      criteria: { loanTermMax: '30 years' },
      products: null,
      needs: null,
      strategy: 'conceder',
      isActive: true,
      createdAt: GIVEN_AT,
      updatedAt: GIVEN_AT,
    });
  });
});
