import { errorAnswers, SIGNED_IN_ERRORS, systemView } from '@pf/events';
import { Forbidden, isPlatformAdmin, requireUser, SystemSummary, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';

/**
 * GET /api/admin/system: how this process is doing, for the console's System screen: rates and latency percentiles
 * over the last minute and every follower's lag, from the metrics GET /metrics serves (docs/operations/observability.md).
 * For the installation's administrators only, since it spans every firm.
 */
export const systemRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { config }) => {
  const summary = new SystemSummary();
  await summary.start();
  app.get(
    '/api/admin/system',
    {
      schema: {
        summary: "This process's rates, latencies and followers over the last minute",
        response: { 200: systemView, ...errorAnswers(...SIGNED_IN_ERRORS, 403) },
      },
    },
    async (request) => {
      if (!isPlatformAdmin(config, requireUser(request).id)) {
        throw new Forbidden("Only the installation's administrators (ADMIN_USER_IDS) may see the system's health");
      }
      return summary.read();
    },
  );
};
