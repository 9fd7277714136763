import { dailyAnalyticsQuery, dailyAnalyticsView, errorAnswers, readHeaders, SIGNED_IN_ERRORS } from '@pf/events';
import { requireReader, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { readDailyAnalytics } from './daily-analytics';
import { analyticsReadWait } from '../read-models/analytics/read-wait';
import type { ReadModelProgress } from '../projection-kit/progress';
import { afterPosition, waitUntilApplied } from '../read-wait';

export const analyticsRoutes: FastifyPluginAsyncZod<ServiceContext & { progress: ReadModelProgress }> = async (
  app,
  { pool, store, config, progress },
) => {
  // Read your writes: a read naming a position waits for the daily consumer to have applied it, and for the
  // read models to know the streams' firms (rm_feed_streams, which the counts are joined with).
  app.addHook('preHandler', analyticsReadWait(pool, store, config, 'daily'));
  app.addHook('preHandler', async (request) => {
    const after = afterPosition(request);
    if (after) await waitUntilApplied(progress, store, after, config.READ_WAIT_TIMEOUT_MS);
  });
  app.get(
    '/api/analytics/daily',
    {
      config: { apiTokenScope: 'analytics:read' },
      schema: {
        summary: "Your firm's events per type per day and the deals it agreed per day (its agents' conversations and deals)",
        querystring: dailyAnalyticsQuery,
        headers: readHeaders,
        response: { 200: dailyAnalyticsView, ...errorAnswers(...SIGNED_IN_ERRORS, 503) },
      },
    },
    async (request) => readDailyAnalytics(pool, request.query.days, requireReader(request).firmId),
  );
};
