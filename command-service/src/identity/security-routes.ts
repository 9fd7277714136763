import { deleteAccountInput, endedView as ended, errorAnswers, SIGNED_IN_ERRORS, sessionListView, sessionParams } from '@pf/events';
import { DEVICE_COOKIE, NotFound, SESSION_COOKIE, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { signedIn, withPosition } from '../http-helpers';
import { deleteAccount } from './account-deletion';

/** Settings → Security: the sessions of the account (each revocable at once) and Delete Account. */
export const securityRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, sessions }) => {
  app.get(
    '/api/auth/sessions',
    {
      schema: {
        summary: 'Your active sessions, with device and last use',
        response: { 200: sessionListView, ...errorAnswers(...SIGNED_IN_ERRORS) },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      return sessions.listSessions(user.id, user.sessionId);
    },
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Revoke one of your sessions (refused at once from then on)',
        params: sessionParams,
        response: { 200: ended, ...errorAnswers(...SIGNED_IN_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { user } = signedIn(request);
      if (!(await sessions.revokeSession(user.id, request.params.id))) throw new NotFound(`Session ${request.params.id} not found`);
      if (request.params.id === user.sessionId) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.send({ id: request.params.id });
    },
  );

  /** Delete Account (account-deletion.ts: idempotent steps, the key deleted before anything is reported). */
  app.delete(
    '/api/auth/account',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Delete your account and make your personal data unreadable',
        body: deleteAccountInput,
        response: { 200: ended, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const handled = await deleteAccount({ pool, store, sessions }, user, metadata, request.body.successor);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      reply.clearCookie(DEVICE_COOKIE, { path: '/' });
      return withPosition(reply, handled.position).send({ id: user.id });
    },
  );
};
