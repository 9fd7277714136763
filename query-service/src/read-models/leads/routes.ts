import { errorAnswers, leadList, SIGNED_IN_ERRORS } from '@pf/events';
import { sessionViewer, type FastifyPluginAsyncZod } from '@pf/infra';
import type { ReadModelRouteOptions } from '../read-model-routes';
import { listLeads } from './queries';

export const leadReadRoutes: FastifyPluginAsyncZod<ReadModelRouteOptions> = async (app, { pool, cache }) => {
  app.get(
    '/api/leads',
    { schema: { summary: 'Your agents as leads', response: { 200: leadList, ...errorAnswers(...SIGNED_IN_ERRORS, 503) } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => listLeads(pool, id));
    },
  );
};
