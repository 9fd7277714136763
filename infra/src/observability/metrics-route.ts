import proxyAddr from '@fastify/proxy-addr';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import { lendMetrics, type MetricsSource } from './collected';
import { metricsRegistry } from './metrics';

export interface MetricsRouteOptions extends Omit<MetricsSource, 'lagCap'> {
  readonly config: Pick<Config, 'METRICS_ALLOW' | 'READY_MAX_LAG_EVENTS'>;
}

/**
 * GET /metrics: the process's metrics in Prometheus' text format, for the scrapers METRICS_ALLOW names (loopback
 * by default), judged by the connection's own address: a forwarded header could claim anything
 * (docs/operations/observability.md).
 */
export const metricsRoute: FastifyPluginAsync<MetricsRouteOptions> = async (app, options) => {
  const allowed = proxyAddr.compile([...options.config.METRICS_ALLOW]);
  const giveBack = lendMetrics({ ...options, lagCap: options.config.READY_MAX_LAG_EVENTS + 1 });
  app.addHook('onClose', async () => giveBack());
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const address = request.raw.socket.remoteAddress ?? '';
    if (!allowed(address, 0)) {
      return reply
        .status(403)
        .send({ message: `Metrics are for the scrapers METRICS_ALLOW names; ${address || 'this address'} is not one of them` });
    }
    return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
};
