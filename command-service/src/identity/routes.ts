import { currentUserView, errorAnswers, redirectAnswer } from '@pf/events';
import { DEVICE_COOKIE, requireUser, SESSION_COOKIE, type FastifyPluginAsyncZod, type SessionStore } from '@pf/infra';
import { setSignInCookies } from './cookies';

/**
 * Identity: GET /api/login signs a browser in without registration (no identity provider configured; with one,
 * oidc-routes.ts answers /api/login and /api/auth/callback instead): the
 * account its device cookie names, else a new one; a browser with a valid session keeps it. GET /api/logout
 * ends the session but keeps the device, so signing in again returns to the same account. GET /api/auth/user
 * answers who. Signing in writes a session, so it lives on the command side (the proxy sends /api/login,
 * /api/logout and /api/auth/* here); every service resolves the session cookie itself (infra's sessionPlugin).
 */
export const identityRoutes: FastifyPluginAsyncZod<{ sessions: SessionStore; ttlHours: number; guestSignIn: boolean }> = async (
  app,
  { sessions, ttlHours, guestSignIn },
) => {
  if (guestSignIn) {
    app.get(
      '/api/login',
      {
        schema: { summary: 'Sign in without registration (the account of this browser, else a new one)', response: { 302: redirectAnswer('/auth'), ...errorAnswers(429) } },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        if (!request.user) {
          const signedIn = await sessions.signInGuest(request.headers['user-agent'], request.cookies[DEVICE_COOKIE]);
          setSignInCookies(request, reply, signedIn, ttlHours);
        }
        return reply.redirect('/auth');
      },
    );
  }

  app.get('/api/logout', { schema: { summary: 'Sign out (ends the session; this browser keeps its account)', response: { 302: redirectAnswer('/') } } }, async (request, reply) => {
    await sessions.revoke(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/');
  });

  app.get(
    '/api/auth/user',
    { schema: { summary: 'The signed-in user', response: { 200: currentUserView, ...errorAnswers(401) } } },
    async (request) => {
      const user = requireUser(request);
      return { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, userType: user.userType, sessionId: user.sessionId };
    },
  );
};
