import type { FastifyPluginAsync } from 'fastify';
import { createAgentInput, streams, updateAgentInput, type AgentView } from '@pf/events';
import type { ServiceContext } from '@pf/infra';
import { handleCommand } from '../handle-command';
import { routeId, signedIn, withPosition } from '../http-helpers';
import { nextId } from '../ids';
import { agentDecider, type AgentState } from './agent';

function view(state: AgentState, at: string): AgentView {
  if (state.status === 'none') throw new Error('An agent view needs an agent');
  return {
    id: state.agentId,
    name: state.name,
    type: state.type,
    description: state.description,
    criteria: state.criteria,
    strategy: state.strategy,
    isActive: state.status === 'active',
    createdAt: at,
    updatedAt: at,
  };
}

export const agentRoutes: FastifyPluginAsync<ServiceContext> = async (app, { pool, store }) => {
  app.post('/api/agents', async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const input = createAgentInput.parse(request.body ?? {});
    const agentId = await nextId(pool, 'agent_ids');
    const { state, position } = await handleCommand(
      store,
      streams.agent(agentId),
      agentDecider,
      { ...input, type: 'CreateAgent', agentId, ownerId: user.id, agentType: input.type },
      metadata,
    );
    return withPosition(reply, position).status(201).send(view(state, new Date().toISOString()));
  });

  app.put<{ Params: { id: string } }>('/api/agents/:id', async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const agentId = routeId(request.params.id, 'Agent');
    const changes = updateAgentInput.parse(request.body ?? {});
    const { state, position } = await handleCommand(
      store,
      streams.agent(agentId),
      agentDecider,
      { type: 'ChangeAgent', agentId, actorId: user.id, ...changes },
      metadata,
    );
    return withPosition(reply, position).send(view(state, new Date().toISOString()));
  });

  app.delete<{ Params: { id: string } }>('/api/agents/:id', async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const agentId = routeId(request.params.id, 'Agent');
    const { position } = await handleCommand(
      store,
      streams.agent(agentId),
      agentDecider,
      { type: 'DeleteAgent', agentId, actorId: user.id },
      metadata,
    );
    return withPosition(reply, position).send({ id: agentId });
  });
};
