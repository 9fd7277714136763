import { dealDetailView, dealList, dealPage, dealPageQuery, dealStatsView, errorAnswers, SIGNED_IN_ERRORS, uuidParams } from '@pf/events';
import { NotFound, sessionViewer, type FastifyPluginAsyncZod } from '@pf/infra';
import type { ReadModelRouteOptions } from '../../projection-kit/read-model-routes';
import { dealStats, findDeal, listDeals, pageDeals } from './queries';

export const dealReadRoutes: FastifyPluginAsyncZod<ReadModelRouteOptions> = async (app, { pool, cache }) => {
  const errors = errorAnswers(...SIGNED_IN_ERRORS, 503);
  app.get('/api/deals', { schema: { summary: 'Your deals, newest first', response: { 200: dealList, ...errors } } }, async (request) => {
    const { firmId: id } = sessionViewer(request);
    return cache.read(id, request.url, () => listDeals(pool, id));
  });

  app.get(
    '/api/deals/page',
    {
      schema: {
        summary:
          'One page of your deals, newest first, searched by property address or borrower name (q) and filtered by status; pass nextCursor as cursor for the next',
        querystring: dealPageQuery,
        response: { 200: dealPage, ...errorAnswers(400, ...SIGNED_IN_ERRORS, 503) },
      },
    },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => pageDeals(pool, id, request.query));
    },
  );

  app.get(
    '/api/deals/stats',
    { schema: { summary: 'The four figures of Deals & Transactions', response: { 200: dealStatsView, ...errors } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => dealStats(pool, id));
    },
  );

  app.get(
    '/api/deals/:id',
    {
      schema: {
        summary: 'One deal with its timeline',
        params: uuidParams('Deal'),
        response: { 200: dealDetailView, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 503) },
      },
    },
    async (request) => {
      const user = sessionViewer(request);
      const deal = await findDeal(pool, user.firmId, request.params.id);
      if (!deal) throw new NotFound(`Deal ${request.params.id} not found`);
      return deal;
    },
  );
};
