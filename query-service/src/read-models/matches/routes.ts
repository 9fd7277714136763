import { errorAnswers, matchingStatsView, matchList, matchPage, matchPageQuery, SIGNED_IN_ERRORS } from '@pf/events';
import { sessionViewer, type FastifyPluginAsyncZod } from '@pf/infra';
import type { ReadModelRouteOptions } from '../../projection-kit/read-model-routes';
import { listMatches, matchingStats, pageMatches } from './queries';

export const matchReadRoutes: FastifyPluginAsyncZod<ReadModelRouteOptions> = async (app, { pool, cache }) => {
  const errors = errorAnswers(...SIGNED_IN_ERRORS, 503);
  app.get(
    '/api/matches',
    { schema: { summary: 'Matches your agents are in, with the matcher’s reasons', response: { 200: matchList, ...errors } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => listMatches(pool, id));
    },
  );

  app.get(
    '/api/matches/page',
    {
      schema: {
        summary: 'One page of the matches your agents are in, newest first; pass nextCursor as cursor for the next',
        querystring: matchPageQuery,
        response: { 200: matchPage, ...errorAnswers(400, ...SIGNED_IN_ERRORS, 503) },
      },
    },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => pageMatches(pool, id, request.query));
    },
  );

  app.get(
    '/api/matches/stats',
    { schema: { summary: 'The four figures of Matching & Leads', response: { 200: matchingStatsView, ...errors } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => matchingStats(pool, id));
    },
  );
};
