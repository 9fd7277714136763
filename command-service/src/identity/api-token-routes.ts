import {
  apiTokenListView,
  apiTokenParams,
  createApiTokenInput,
  createdApiTokenView,
  endedView as ended,
  errorAnswers,
  SIGNED_IN_ERRORS,
} from '@pf/events';
import { ApiTokenStore, tokenFirmOf, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { signedIn } from '../http-helpers';

const ERRORS = [...SIGNED_IN_ERRORS, 403] as const;

/**
 * Settings → API tokens (docs/event-feed.md "Tokens"): a firm's admin creates a named token with scopes (its
 * secret answered once), lists the firm's tokens with their last use, and revokes one at once. Managing tokens
 * needs a signed-in person; a token itself opens none of these.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool }) => {
  const tokens = new ApiTokenStore(pool);

  app.get(
    '/api/auth/tokens',
    {
      schema: {
        summary: "Your firm's API tokens, with their scopes and last use (never their secrets)",
        response: { 200: apiTokenListView, ...errorAnswers(...ERRORS) },
      },
    },
    async (request) => tokens.list(tokenFirmOf(signedIn(request).user)),
  );

  app.post(
    '/api/auth/tokens',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Create an API token for a job: its secret is in this answer only',
        body: createApiTokenInput,
        response: { 201: createdApiTokenView, ...errorAnswers(...ERRORS) },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      const created = await tokens.create(tokenFirmOf(user), user.id, request.body.name, request.body.scopes);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete(
    '/api/auth/tokens/:id',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Revoke an API token: refused from the next request on',
        params: apiTokenParams,
        response: { 200: ended, ...errorAnswers(...ERRORS, 404) },
      },
    },
    async (request) => {
      await tokens.revoke(tokenFirmOf(signedIn(request).user), request.params.id);
      return { id: request.params.id };
    },
  );
};
