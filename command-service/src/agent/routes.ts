import {
  agentView,
  createAgentInput,
  deletedAgentView,
  errorAnswers,
  idParams,
  SIGNED_IN_ERRORS,
  streams,
  updateAgentInput,
  writeHeaders,
  commandHeaders,
  type AgentCommand,
  type AgentView,
} from '@pf/events';
import type { FastifyPluginAsyncZod, ServiceContext } from '@pf/infra';
import type { FastifyRequest } from 'fastify';
import { handleCommand } from '../handle-command';
import { answered, expectedVersion, signedIn } from '../http-helpers';
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
    products: state.products,
    needs: state.needs,
    strategy: state.strategy,
    isActive: state.status === 'active',
    createdAt: at,
    updatedAt: at,
  };
}

/** A write on one agent: its own agents only (someone else's is 404), with If-Match naming the version. */
const oneAgent = { params: idParams('Agent'), headers: writeHeaders };
const WRITE_ERRORS = [...SIGNED_IN_ERRORS, 404, 409, 412] as const;

export const agentRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store }) => {
  /** A change to an existing agent by the signed-in person, decided on the version their If-Match names. */
  const changeAgent = (
    request: FastifyRequest & { headers: { 'if-match'?: string } },
    agentId: number,
    command: (actor: { actorId: string; actorFirmId: string }) => AgentCommand,
  ) => {
    const { user, metadata } = signedIn(request);
    return handleCommand(
      store,
      streams.agent(agentId),
      agentDecider,
      command({ actorId: user.id, actorFirmId: user.firmId }),
      metadata,
      expectedVersion(request.headers),
    );
  };

  app.post(
    '/api/agents',
    {
      schema: {
        summary: 'Create an agent (borrower, broker or lender) with criteria written as people write them',
        headers: commandHeaders,
        body: createAgentInput,
        response: { 201: agentView, ...errorAnswers(...SIGNED_IN_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const input = request.body;
      const agentId = await nextId(pool, 'agent_ids');
      const handled = await handleCommand(
        store,
        streams.agent(agentId),
        agentDecider,
        { ...input, type: 'CreateAgent', agentId, ownerId: user.id, firmId: user.firmId, agentType: input.type },
        metadata,
      );
      return answered(reply, handled).status(201).send(view(handled.state, new Date().toISOString()));
    },
  );

  app.put(
    '/api/agents/:id',
    {
      schema: {
        summary: 'Pause, resume or edit one of your agents',
        ...oneAgent,
        body: updateAgentInput,
        response: { 200: agentView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const agentId = request.params.id;
      const handled = await changeAgent(request, agentId, (actor) => ({ type: 'ChangeAgent', agentId, ...actor, ...request.body }));
      return answered(reply, handled).send(view(handled.state, new Date().toISOString()));
    },
  );

  app.delete(
    '/api/agents/:id',
    {
      schema: {
        summary: 'Delete one of your agents',
        ...oneAgent,
        response: { 200: deletedAgentView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const agentId = request.params.id;
      const handled = await changeAgent(request, agentId, (actor) => ({ type: 'DeleteAgent', agentId, ...actor }));
      return answered(reply, handled).send({ id: agentId });
    },
  );
};
