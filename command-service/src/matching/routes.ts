import { randomUUID } from 'node:crypto';
import {
  errorAnswers,
  idParams,
  matchRequestAnswer,
  matchRunParams,
  matchRunView,
  SIGNED_IN_ERRORS,
  streams,
  type MatchRunView,
} from '@pf/events';
import {
  NotFound,
  requireUser,
  signedInBeforeValidation,
  type FastifyPluginAsyncZod,
  type RecordedEvent,
  type ServiceContext,
} from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { matchRunDecider } from './match-run';

export const matchRequestRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { store }) => {
  app.post(
    '/api/leads/:id/match',
    {
      schema: {
        summary: 'Match: ask the matcher to look for this lead now (it answers on the lead, asynchronously)',
        params: idParams('Agent'),
        response: { 202: matchRequestAnswer, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const agentId = request.params.id;
      const agent = foldEvents(agentDecider, await store.readStream(streams.agent(agentId)));
      const requestId = randomUUID();
      const { position } = await handleCommand(
        store,
        streams.matchRun(requestId),
        matchRunDecider,
        { type: 'RequestMatch', requestId, agent, agentId, actorId: user.id, actorFirmId: user.firmId },
        metadata,
      );
      return withPosition(reply, position).status(202).send({ requestId });
    },
  );

  /**
   * Where one Match stands: the 202's outcome, read from the run's own stream, so the console can show the
   * matcher's answer (and its note when it found none) or say that no answer came. The asker's only: the
   * request names its owner.
   */
  app.get(
    '/api/leads/:id/match/:requestId',
    {
      preValidation: signedInBeforeValidation,
      schema: {
        summary: "One Match request's outcome: still waiting for the matcher, or its answer (new matches, or why none)",
        params: matchRunParams,
        response: { 200: matchRunView, ...errorAnswers(...SIGNED_IN_ERRORS, 404) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { id, requestId } = request.params;
      const run = answerOf(await store.readStream(streams.matchRun(requestId)));
      if (!run || run.agentId !== id || run.ownerId !== user.id) throw new NotFound(`Match request ${requestId} not found`);
      const { ownerId: _owner, ...view } = run;
      return view;
    },
  );
};

function answerOf(events: readonly RecordedEvent[]): (MatchRunView & { ownerId: string }) | null {
  const asked = events.find((e) => e.type === 'MatchRequested');
  if (!asked) return null;
  const request = asked.data;
  const answer = events.find((e) => e.type === 'MatchRunCompleted');
  const answered = answer?.data;
  return {
    requestId: request.requestId,
    agentId: request.agentId,
    ownerId: request.ownerId,
    status: answer ? 'answered' : 'requested',
    requestedAt: asked.recordedAt.toISOString(),
    answeredAt: answer ? answer.recordedAt.toISOString() : null,
    newMatches: answered ? answered.matchIds.length : null,
    note: answered?.note ?? null,
  };
}
