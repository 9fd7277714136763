import { errorAnswers, leadList, leadPage, leadPageQuery, SIGNED_IN_ERRORS } from '@pf/events';
import { sessionViewer, type FastifyPluginAsyncZod } from '@pf/infra';
import type { ReadModelRouteOptions } from '../../projection-kit/read-model-routes';
import { listLeads, pageLeads } from './queries';

export const leadReadRoutes: FastifyPluginAsyncZod<ReadModelRouteOptions> = async (app, { pool, cache }) => {
  app.get(
    '/api/leads',
    { schema: { summary: 'Your agents as leads', response: { 200: leadList, ...errorAnswers(...SIGNED_IN_ERRORS, 503) } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => listLeads(pool, id));
    },
  );

  app.get(
    '/api/leads/page',
    {
      schema: {
        summary:
          'One page of your agents as leads, newest first, searched by name or requirements (q) and filtered by type; pass nextCursor as cursor for the next',
        querystring: leadPageQuery,
        response: { 200: leadPage, ...errorAnswers(400, ...SIGNED_IN_ERRORS, 503) },
      },
    },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => pageLeads(pool, id, request.query));
    },
  );
};
