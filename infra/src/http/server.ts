import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import helmet from 'helmet';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { useZodContract } from './contract';
import { serveAsyncApi } from './asyncapi';
import { refuseTokenWrites } from '../auth/api-tokens';
import { errorHandler, notFoundHandler } from './errors';
import { bodyTimeout } from './body-timeout';
import { hostGuard, originGuard, siteRules } from './origin';
import { metrics } from '../observability/metrics';
import { traceRequests } from '../observability/request-span';

export const BODY_LIMIT_BYTES = 64 * 1024;
const LIMITED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The HTTP shell every service is mounted in: body limit, JSON errors, security headers, cookies,
 * the Origin check on writes, rate limits, and the zod contract (validation, serialisation, OpenAPI at
 * /docs). The services add their routes as plugins.
 */
export interface HttpServerOptions {
  /** Answers unknown routes; the single node serves the console's index.html for page routes. */
  readonly notFound?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /** Names the API in its OpenAPI document. */
  readonly title?: string;
}

export async function createHttpServer(config: Config, log: Logger, options: HttpServerOptions = {}): Promise<FastifyInstance> {
  // Typed as Fastify's own logger, so that the instance is the FastifyInstance every route plugin is written for.
  const loggerInstance: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance,
    bodyLimit: BODY_LIMIT_BYTES,
    // A request must have arrived whole within REQUEST_TIMEOUT_MS (Node answers 408 and closes). Node reads it when
    // the server is made (set afterwards it is not enforced), so it goes to the server's own options too; Node
    // checks the open connections every connectionsCheckingInterval, a small share of the timeout.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(config.REQUEST_TIMEOUT_MS / 8))),
    },
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setErrorHandler(errorHandler);
  traceRequests(app);
  // Every answer's time by the route that answered (its template, not the path: ids would make a series each).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    metrics.httpDuration.observe(
      { http_request_method: request.method, http_route: route ?? '', http_response_status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.setNotFoundHandler(options.notFound ?? notFoundHandler);
  // The security headers are the same for every answer: Helmet works them out once, on a response that is never
  // sent, and each request's response gets them as they came out (its Fastify plugin made the middleware again for
  // each request, parsing the policy each time: about 4 % of the product's CPU in the round-trip benchmark; the
  // middleware made once still built the policy's text each time, another 2.5 %).
  const headers = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          // The payment provider's hosted card fields, in a frame of their own origin (docs/behaviour/billing.md);
          // without a provider, frames are default-src's: this site's own (a document's preview).
          ...(config.PAYMENT_PROVIDER_URL ? { frameSrc: ["'self'", new URL(config.PAYMENT_PROVIDER_URL).origin] } : {}),
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      // Served over plain http on localhost by default; HSTS belongs to the TLS terminator.
      strictTransportSecurity: false,
      // Nothing leaves for other sites (as with no-referrer), but a form posted by this site's own pages (Log out,
      // the sign-out confirmation) carries its Origin: under no-referrer the browser sends "Origin: null", which the
      // Origin check must refuse.
      referrerPolicy: { policy: 'same-origin' },
    }),
  );
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  await app.register(cookie);
  // Every cookie is Secure when the request came over https, directly or through a proxy TRUST_PROXY believes
  // (a cookie cleared at sign-out too): one rule here rather than an option at every setCookie.
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol !== 'https') return;
    const cookies = reply.getHeader('set-cookie');
    if (cookies === undefined) return;
    const secure = (cookie: string) => (/;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`);
    // reply.header appends to set-cookie rather than replacing it.
    reply.removeHeader('set-cookie');
    reply.header('set-cookie', Array.isArray(cookies) ? cookies.map(String).map(secure) : secure(String(cookies)));
  });
  await app.register(rateLimit, {
    // Reads are cheap and served from read models; writes and sign-ins are limited per person once signed in
    // (a firm behind one proxy shares an address, not a limit), per client address before.
    hook: 'preHandler',
    keyGenerator: (request) => (request.user ? `user:${request.user.id}` : `address:${request.ip}`),
    allowList: (request) => !LIMITED_METHODS.has(request.method) && !request.url.startsWith('/api/login'),
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests: at most ${context.max} a minute; try again in ${context.after}`,
    }),
  });
  const rules = siteRules(config);
  app.addHook('onRequest', hostGuard(rules));
  app.addHook('onRequest', bodyTimeout(config.BODY_TIMEOUT_MS));
  app.addHook('onRequest', originGuard(rules));
  app.addHook('onRequest', refuseTokenWrites);
  await useZodContract(app, options.title ?? 'Property-finance agent platform');
  await serveAsyncApi(app, config.KAFKA_TOPIC);
  return app;
}

/** The headers a Connect-style middleware sets on a response, worked out on one that is never sent. */
function headersSetBy(middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void) {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  // Helmet throws what goes wrong (a policy it cannot read) rather than passing it on.
  middleware(request, response, () => undefined);
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, value!] as const);
}
