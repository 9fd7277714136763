import {
  analyticsReportQuery,
  analyticsReportView,
  errorAnswers,
  marketQuery,
  marketView,
  readHeaders,
  SIGNED_IN_ERRORS,
} from '@pf/events';
import { requireReader, sessionViewer, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { analyticsReadWait } from './read-wait';
import { readAnalyticsReport, readMarket } from './queries';

const READ_ERRORS = [...SIGNED_IN_ERRORS, 503] as const;

/**
 * Analytics & Reports (the firm's own) and Market Intelligence (across firms, above a threshold) from the analytics facts. The facts are
 * the analytics consumer's, not the projector's, so a read naming a position (read your writes) waits for the
 * consumer (read-wait.ts), bounded like every other read.
 */
export const analyticsReportRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, config, store }) => {
  app.addHook('preHandler', analyticsReadWait(pool, store, config));
  app.get(
    '/api/analytics/report',
    {
      config: { apiTokenScope: 'analytics:read' },
      schema: {
        summary: 'Analytics & Reports for a period: headline figures with their change, charts, agent leaderboard, deal analysis, funnel',
        querystring: analyticsReportQuery,
        headers: readHeaders,
        response: { 200: analyticsReportView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    async (request) => {
      // A job's token with analytics:read reads its own firm's figures, as a signed-in member does.
      return readAnalyticsReport(pool, request.query.period, requireReader(request).firmId);
    },
  );
  app.get(
    '/api/market',
    {
      schema: {
        summary: 'Market Intelligence for a region and period, from the platform’s own offers and agreed deals',
        querystring: marketQuery,
        headers: readHeaders,
        response: { 200: marketView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    async (request) => {
      return readMarket(pool, request.query.region, request.query.period, sessionViewer(request).firmId);
    },
  );
};
