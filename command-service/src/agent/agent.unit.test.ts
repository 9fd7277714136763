import { describe, it } from 'vitest';
import { Invalid, NotFound } from '@pf/infra';
import { DEMO_NEEDS, DEMO_RANGES } from '../seed-demo/demo-products';
import { deciderSpec } from '../testing/decider-spec';
import { agentDecider, type AgentEvent } from './agent';

const spec = deciderSpec(agentDecider);
const owner = 'user-1';
const created: AgentEvent = {
  type: 'AgentCreated',
  data: { agentId: 7, ownerId: owner, name: 'Amelia', type: 'borrower', description: '', criteria: null },
};

describe('agent decider', () => {
  it('creates an agent', () => {
    spec
      .given([])
      .when({ type: 'CreateAgent', agentId: 7, ownerId: owner, name: 'Amelia', agentType: 'borrower', description: '', criteria: null })
      .then([created]);
  });

  it('records the response time it was created with (hours), and none when none is given', () => {
    spec
      .given([])
      .when({
        type: 'CreateAgent',
        agentId: 7,
        ownerId: owner,
        name: 'Amelia',
        agentType: 'borrower',
        description: '',
        criteria: null,
        responseTime: 4,
      })
      .then([{ ...created, data: { ...created.data, responseTime: 4 } }]);
  });

  it('pauses an active agent and resumes a paused one', () => {
    spec
      .given([created])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, isActive: false })
      .then([{ type: 'AgentPaused', data: { agentId: 7 } }]);
    spec
      .given([created, { type: 'AgentPaused', data: { agentId: 7 } }])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, isActive: true })
      .then([{ type: 'AgentResumed', data: { agentId: 7 } }]);
  });

  it('records nothing when the agent already is as asked', () => {
    spec
      .given([created])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, isActive: true, name: 'Amelia' })
      .then([]);
  });

  it('edits name, description and criteria in one event, keeping what was not sent', () => {
    spec
      .given([created])
      .when({
        type: 'ChangeAgent',
        agentId: 7,
        actorId: owner,
        actorFirmId: owner,
        description: 'First-time buyer',
        criteria: { loanTermMax: '30 years' },
      })
      .then([
        {
          type: 'AgentUpdated',
          data: { agentId: 7, name: 'Amelia', description: 'First-time buyer', criteria: { loanTermMax: '30 years' } },
        },
      ]);
  });

  it("answers not found for someone else's agent, a deleted one and a missing one", () => {
    spec
      .given([created])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: 'intruder', actorFirmId: 'intruder', isActive: false })
      .thenThrows(NotFound, 'Agent 7 not found');
    spec
      .given([created, { type: 'AgentDeleted', data: { agentId: 7 } }])
      .when({ type: 'DeleteAgent', agentId: 7, actorId: owner, actorFirmId: owner })
      .thenThrows(NotFound);
    spec.given([]).when({ type: 'DeleteAgent', agentId: 7, actorId: owner, actorFirmId: owner }).thenThrows(NotFound);
  });

  it('records a chosen negotiation strategy, and nothing when it is already the one in use', () => {
    spec
      .given([created])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, strategy: 'linear' })
      .then([{ type: 'AgentUpdated', data: { agentId: 7, name: 'Amelia', description: '', criteria: null, strategy: 'linear' } }]);
    spec
      .given([created, { type: 'AgentUpdated', data: { agentId: 7, name: 'Amelia', description: '', criteria: null, strategy: 'linear' } }])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, strategy: 'linear' })
      .then([]);
  });

  it('folds with the agents view’s rules: deletion is final, and a second creation changes nothing', () => {
    const resumedAfterDeletion: AgentEvent[] = [
      created,
      { type: 'AgentDeleted', data: { agentId: 7 } },
      { type: 'AgentResumed', data: { agentId: 7 } },
    ];
    spec
      .given(resumedAfterDeletion)
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, name: 'Back' })
      .thenThrows(NotFound);
    const createdAgain: AgentEvent = { ...created, data: { ...created.data, ownerId: 'intruder' } };
    spec
      .given([created, createdAgain])
      .when({ type: 'DeleteAgent', agentId: 7, actorId: 'intruder', actorFirmId: 'intruder' })
      .thenThrows(NotFound);
  });

  it('deletes an agent of its owner', () => {
    spec
      .given([created])
      .when({ type: 'DeleteAgent', agentId: 7, actorId: owner, actorFirmId: owner })
      .then([{ type: 'AgentDeleted', data: { agentId: 7 } }]);
  });

  it('records a lender’s range with its creation and a borrower’s needs with their edit, and refuses them on the other type', () => {
    const range = DEMO_RANGES.pennine!;
    const needs = DEMO_NEEDS.amelia!;
    spec
      .given([])
      .when({
        type: 'CreateAgent',
        agentId: 8,
        ownerId: owner,
        name: 'Pennine',
        agentType: 'lender',
        description: '',
        criteria: null,
        products: range,
      })
      .then([
        {
          type: 'AgentCreated',
          data: { agentId: 8, ownerId: owner, name: 'Pennine', type: 'lender', description: '', criteria: null, products: range },
        },
      ]);
    spec
      .given([created])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, needs })
      .then([{ type: 'AgentUpdated', data: { agentId: 7, name: 'Amelia', description: '', criteria: null, needs } }]);
    spec
      .given([created])
      .when({ type: 'ChangeAgent', agentId: 7, actorId: owner, actorFirmId: owner, products: range })
      .thenThrows(Invalid, 'products: only a lender has products');
  });
});
