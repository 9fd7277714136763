import { documentList, documentPage, documentPageQuery, documentStatsView, errorAnswers, SIGNED_IN_ERRORS } from '@pf/events';
import { sessionViewer, type FastifyPluginAsyncZod } from '@pf/infra';
import type { ReadModelRouteOptions } from '../../projection-kit/read-model-routes';
import { documentStats, listDocuments, pageDocuments } from './queries';

export const documentReadRoutes: FastifyPluginAsyncZod<ReadModelRouteOptions> = async (app, { pool, cache }) => {
  const errors = errorAnswers(...SIGNED_IN_ERRORS, 503);
  app.get(
    '/api/documents',
    { schema: { summary: 'Documents of your deals, newest first', response: { 200: documentList, ...errors } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => listDocuments(pool, id));
    },
  );

  app.get(
    '/api/documents/page',
    {
      schema: {
        summary:
          'One page of the documents of your deals, newest first, searched by name or deal address (q) and filtered by type; pass nextCursor as cursor for the next',
        querystring: documentPageQuery,
        response: { 200: documentPage, ...errorAnswers(400, ...SIGNED_IN_ERRORS, 503) },
      },
    },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => pageDocuments(pool, id, request.query));
    },
  );

  app.get(
    '/api/documents/stats',
    { schema: { summary: 'The four figures of Documents', response: { 200: documentStatsView, ...errors } } },
    async (request) => {
      const { firmId: id } = sessionViewer(request);
      return cache.read(id, request.url, () => documentStats(pool, id));
    },
  );
};
