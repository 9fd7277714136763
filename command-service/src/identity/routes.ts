import { currentUserView, errorAnswers, htmlAnswer, INVITATION_PATH, loginQuery, redirectAnswer } from '@pf/events';
import {
  DEVICE_COOKIE,
  isPlatformAdmin,
  requireUser,
  SESSION_COOKIE,
  type Config,
  type FastifyPluginAsyncZod,
  type SessionStore,
} from '@pf/infra';
import { setSignInCookies } from './cookies';

/**
 * Identity: GET /api/login signs a browser in without registration (no identity provider configured; with one,
 * oidc-routes.ts answers /api/login and /api/auth/callback instead): the
 * account its device cookie names, else a new one; a browser with a valid session keeps it; a protected account's
 * browser goes to /sign-in for its password (protection/sign-in-routes.ts). POST /api/logout ends the session
 * but keeps the device, so signing in again returns to the same account, through its password if it has one
 * (docs/decisions/sign-in-secrets.md); it is a write, so the
 * Origin check refuses it from another site. GET /api/logout (a link, which any site can make a browser follow)
 * signs nobody out: it answers a page asking to confirm with a button that POSTs. GET /api/auth/user
 * answers who. Signing in writes a session, so it lives on the command side (the proxy sends /api/login,
 * /api/logout and /api/auth/* here); every service resolves the session cookie itself (infra's sessionPlugin).
 */
export const identityRoutes: FastifyPluginAsyncZod<{
  sessions: SessionStore;
  ttlHours: number;
  guestSignIn: boolean;
  config: Pick<Config, 'ADMIN_USER_IDS'>;
}> = async (app, { sessions, ttlHours, guestSignIn, config }) => {
  if (guestSignIn) {
    app.get(
      '/api/login',
      {
        schema: {
          summary:
            'Sign in without registration (the account of this browser, else a new one); a protected account is asked for its password at /sign-in',
          querystring: loginQuery,
          response: { 302: redirectAnswer('/auth, /sign-in or the invitation named by next'), ...errorAnswers(429) },
        },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        // Only an invitation link is led back to (a signed-out visitor accepting it); anything else is ignored.
        const next = INVITATION_PATH.test(request.query.next ?? '') ? request.query.next! : null;
        if (!request.user) {
          const device = request.query.fresh ? undefined : request.cookies[DEVICE_COOKIE];
          // A protected account's browser is asked for its password, after Log out too (docs/decisions/sign-in-secrets.md).
          if ((await sessions.deviceAccount(device))?.protected)
            return reply.redirect(next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in');
          const signedIn = await sessions.signInGuest(request.headers['user-agent'], device);
          setSignInCookies(request, reply, signedIn, ttlHours);
        }
        return reply.redirect(next ?? '/auth');
      },
    );
  }

  app.post(
    '/api/logout',
    {
      schema: {
        summary: 'Sign out (ends the session; an account without a password comes back with this browser, a protected one asks for it)',
        response: { 303: redirectAnswer('/'), ...errorAnswers(403, 429) },
      },
    },
    async (request, reply) => {
      await sessions.revoke(request.cookies[SESSION_COOKIE]);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.redirect('/', 303);
    },
  );

  app.get(
    '/api/logout',
    {
      schema: {
        summary: 'Asks to confirm signing out (a link from any site signs nobody out); signed out already, to /',
        response: { 200: htmlAnswer, 302: redirectAnswer('/') },
      },
    },
    async (request, reply) => {
      if (!request.user) return reply.redirect('/');
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(CONFIRM_SIGN_OUT_PAGE);
    },
  );

  app.get(
    '/api/auth/user',
    { schema: { summary: 'The signed-in user', response: { 200: currentUserView, ...errorAnswers(401) } } },
    async (request) => {
      const user = requireUser(request);
      return {
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        userType: user.userType,
        sessionId: user.sessionId,
        firmId: user.firmId,
        firmName: user.firmName,
        role: user.role,
        isPlatformAdmin: isPlatformAdmin(config, user.id),
        photoId: user.photoId ?? null,
      };
    },
  );
};

/** No script (the content security policy allows none inline): a form whose button POSTs to /api/logout. */
const CONFIRM_SIGN_OUT_PAGE = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out? · Property Finance</title>
</head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1 style="font-size: 1.5rem">Sign out?</h1>
<p>A link asked to sign you out of Property Finance. Nothing has changed yet. Sign out only if you meant to.</p>
<form method="post" action="/api/logout" enctype="text/plain">
<button type="submit" style="font-size: 1rem; padding: 0.5rem 1rem">Sign out</button>
</form>
<p><a href="/">Stay signed in and go back to the console</a></p>
</body>
</html>
`;
