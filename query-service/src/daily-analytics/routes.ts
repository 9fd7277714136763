import { dailyAnalyticsQuery, dailyAnalyticsView, errorAnswers, readHeaders, SIGNED_IN_ERRORS } from '@pf/events';
import { requireReader, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { readDailyAnalytics } from './daily-analytics';
import { analyticsReadWait } from '../read-models/analytics/read-wait';

export const analyticsRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, config }) => {
  // Read your writes: a read naming a position waits for the daily consumer to have applied it.
  app.addHook('preHandler', analyticsReadWait(pool, store, config, 'daily'));
  app.get(
    '/api/analytics/daily',
    {
      config: { apiTokenScope: 'analytics:read' },
      schema: {
        summary: 'Events per type per day and agreed deals per day, platform-wide',
        querystring: dailyAnalyticsQuery,
        headers: readHeaders,
        response: { 200: dailyAnalyticsView, ...errorAnswers(...SIGNED_IN_ERRORS, 503) },
      },
    },
    async (request) => {
      requireReader(request);
      return readDailyAnalytics(pool, request.query.days);
    },
  );
};
