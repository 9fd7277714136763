import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { $ZodType } from 'zod/v4/core';
import { SESSION_COOKIE } from '../auth/session-store';

export type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';

/** Where the OpenAPI document is served: the UI at /docs, the JSON at /docs/json. */
export const DOCS_PREFIX = '/docs';

/**
 * An absent body is validated as an empty object, as the routes did by hand before (`body ?? {}`), so a
 * POST without a body is told which fields are required rather than that the body is not an object.
 */
const validateRequest: FastifySchemaCompiler<$ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
};

/** Answers shared between requests and never changed once kept (the query side's read cache holds them). */
const sharedAnswers = new WeakSet<object>();

/**
 * Marks an answer as shared and unchanging, so each route checks and serialises it once and sends the same
 * text again while it is kept. Checking a 50-agent list with zod on every GET took half the API's busy time
 * (profile of the api-read benchmark, 2026-11-23); a kept answer cannot change, so its text cannot either.
 */
export function shareAnswer<T>(body: T): T {
  if (typeof body === 'object' && body !== null) sharedAnswers.add(body);
  return body;
}

/** zod's check-then-JSON.stringify, once per shared answer and route (other answers every time, as before). */
const serializeAnswer: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  const texts = new WeakMap<object, string>();
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null || !sharedAnswers.has(data)) return serialize(data);
    let text = texts.get(data);
    if (text === undefined) {
      text = serialize(data);
      texts.set(data, text);
    }
    return text;
  };
};

/** A route as it was added, for checking that /docs describes every one (see single-node's docs test). */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  readonly schema: (FastifySchema & { hide?: boolean }) | undefined;
}

const catalogues = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route added to this server so far, in the order they were added (HEAD twins left out). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return catalogues.get(app) ?? [];
}

/**
 * Routes declare their params, querystring, body and answers as zod schemas (from `@pf/events`): the same
 * schema validates the request, checks and serialises the answer, and documents the route at /docs.
 * Registered before any route, since @fastify/swagger collects routes as they are added.
 */
export async function useZodContract(app: FastifyInstance, title: string): Promise<void> {
  const catalogue: RegisteredRoute[] = [];
  catalogues.set(app, catalogue);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') catalogue.push({ method, url: route.url, schema: route.schema });
    }
  });
  app.setValidatorCompiler(validateRequest);
  app.setSerializerCompiler(serializeAnswer);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title, version: '1.0.0', description: 'Property-finance agent platform API; every error answers {"message"}.' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          apiToken: { type: 'http', scheme: 'bearer', description: 'An API token of a firm (Settings → API tokens; docs/event-feed.md)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { validatorUrl: null } });
}
