import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requireUser, type ServiceContext } from '@pf/infra';
import { readDailyAnalytics } from './daily-analytics';

const query = z.object({
  days: z.coerce.number({ error: 'days must be a whole number' }).int().min(1).max(366, { error: 'days is at most 366' }).default(30),
});

export const analyticsRoutes: FastifyPluginAsync<ServiceContext> = async (app, { pool }) => {
  app.get('/api/analytics/daily', async (request) => {
    requireUser(request);
    const { days } = query.parse(request.query);
    return readDailyAnalytics(pool, days);
  });
};
