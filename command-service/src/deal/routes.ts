import { randomUUID } from 'node:crypto';
import {
  changeDealInput,
  dealChangedAnswer,
  dealCreatedAnswer,
  errorAnswers,
  newDealInput,
  SIGNED_IN_ERRORS,
  streams,
  uuidParams,
  canSeeAgent,
  type AgentType,
  type DealParty,
  type EventMetadata,
  type Position,
} from '@pf/events';
import { Invalid, NotFound, type EventStore, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { dealDecider } from './deal';
import { NeedCommittedElsewhere, needDecider } from '../need/need';
import { readNeed } from '../need/read-need';

/** A party of a New Deal must be one of the firm's own agents (visibility.ts: canSeeAgent), of the right type. */
async function ownAgent(store: EventStore, field: string, agentId: number, type: AgentType, firmId: string): Promise<DealParty> {
  const agent = foldEvents(agentDecider, await store.readStream(streams.agent(agentId)));
  if (agent.status === 'none' || agent.status === 'deleted' || !canSeeAgent(agent, firmId)) {
    throw new Invalid(`${field}: agent ${agentId} is not one of your firm's agents`);
  }
  if (agent.type !== type) throw new Invalid(`${field}: ${agent.name} is a ${agent.type} agent, not a ${type}`);
  return { agentId, ownerId: agent.ownerId, firmId: agent.firmId, name: agent.name, type };
}

/**
 * New Deal commits the borrower's need to it first (docs/decisions/one-commitment-per-need.md), as an agreement
 * does: two New Deals at once both try, and only one append stands. Answers the need as it stands afterwards,
 * which the deal decider checks (a need committed to another deal refuses the second deal, naming the first).
 */
async function commitNeedByHand(store: EventStore, borrower: DealParty, lender: DealParty, dealId: string, metadata: EventMetadata) {
  try {
    await handleCommand(
      store,
      streams.need(borrower.agentId),
      needDecider,
      {
        type: 'CommitNeed',
        borrowerAgentId: borrower.agentId,
        borrowerName: borrower.name,
        commitment: { conversationId: null, dealId, lenderAgentId: lender.agentId, lenderName: lender.name },
      },
      metadata,
    );
  } catch (error) {
    // Committed to another deal already: the deal decider refuses this one with the reason in words.
    if (!(error instanceof NeedCommittedElsewhere)) throw error;
  }
  return readNeed(store, borrower.agentId);
}

/** New Deal, and changes of status, stage, address and target date (PATCH). */
export const dealRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { store }) => {
  app.post(
    '/api/deals',
    {
      schema: {
        summary: 'New Deal: a deal between your own agents',
        body: newDealInput,
        response: { 201: dealCreatedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const input = request.body;
      const borrower = await ownAgent(store, 'borrowerAgentId', input.borrowerAgentId, 'borrower', user.firmId);
      const lender = await ownAgent(store, 'lenderAgentId', input.lenderAgentId, 'lender', user.firmId);
      const broker = input.brokerAgentId ? await ownAgent(store, 'brokerAgentId', input.brokerAgentId, 'broker', user.firmId) : null;
      const dealId = randomUUID();
      const need = await commitNeedByHand(store, borrower, lender, dealId, metadata);
      let opened: { position: Position | null };
      try {
        opened = await handleCommand(
          store,
          streams.deal(dealId),
          dealDecider,
          {
            type: 'OpenDeal',
            need,
            deal: {
              dealId,
              source: 'manual',
              agreedInConversationId: null,
              borrower,
              lender,
              broker,
              propertyAddress: input.propertyAddress,
              propertyValue: input.propertyValue,
              loanAmount: input.loanAmount,
              ltv: Math.round((input.loanAmount / input.propertyValue) * 10_000) / 100,
              interestRate: input.interestRate,
              termYears: input.termYears,
              arrangementFee: input.arrangementFee,
              targetCompletion: input.targetCompletion ?? null,
            },
          },
          metadata,
        );
      } catch (error) {
        // Not opened: the commitment made for it is given up at once (only if it is still this deal's).
        if (need.committed?.dealId === dealId) {
          await handleCommand(
            store,
            streams.need(borrower.agentId),
            needDecider,
            { type: 'ReopenNeed', borrowerAgentId: borrower.agentId, reason: 'the deal made by hand was not opened', onlyIfDealId: dealId },
            metadata,
          );
        }
        throw error;
      }
      return withPosition(reply, opened.position).status(201).send({ id: dealId });
    },
  );

  app.patch(
    '/api/deals/:id',
    {
      schema: {
        summary: 'Change a deal: status, stage (completion only from underwriting; cancelled is final), address, target date',
        params: uuidParams('Deal'),
        body: changeDealInput,
        response: { 200: dealChangedAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const dealId = request.params.id;
      const changes = request.body;
      const { state, position } = await handleCommand(
        store,
        streams.deal(dealId),
        dealDecider,
        { type: 'ChangeDeal', dealId, firmId: user.firmId, ...changes },
        metadata,
      );
      if (state.status === 'none') throw new NotFound(`Deal ${dealId} not found`);
      return withPosition(reply, position).send({ id: dealId, status: state.status, stage: state.stage });
    },
  );
};
