import type { FastifyRequest } from 'fastify';
import { errorAnswers, redirectAnswer } from '@pf/events';
import { Invalid, type FastifyPluginAsyncZod, type SessionStore } from '@pf/infra';
import { setSignInCookies } from './cookies';
import { OidcSignIn, ProviderUnavailable, readFlow, writeFlow, type OidcSettings } from './oidc';

/** The sign-in in progress: HttpOnly, only sent to the callback, gone after ten minutes or once used. */
const FLOW_COOKIE = 'pf_oidc';
const CALLBACK_PATH = '/api/auth/callback';
const FLOW_MINUTES = 10;

/** PUBLIC_URL when set; else the address this request came to (behind a proxy, X-Forwarded-* with TRUST_PROXY). */
function redirectUri(request: FastifyRequest, publicUrl: string | undefined): string {
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  return new URL(CALLBACK_PATH, base).href;
}

/**
 * Sign-in through an OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET set): GET /api/login
 * sends the browser to the provider; the provider sends it back to GET /api/auth/callback, which signs in the
 * account keyed by issuer and subject and lands where guest sign-in lands (/auth). What a visitor or a provider
 * can cause answers 4xx or 502 with a message, never 500.
 */
export const oidcRoutes: FastifyPluginAsyncZod<{
  sessions: SessionStore;
  ttlHours: number;
  oidc: OidcSettings & { publicUrl: string | undefined };
}> = async (app, { sessions, ttlHours, oidc }) => {
  const provider = new OidcSignIn(oidc);
  // The error handler answers a DomainError without logging it; a provider that cannot be used is the operator's to know.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof ProviderUnavailable)
      request.log.warn({ url: request.url.split('?')[0], reason: error.detail }, 'OpenID Connect sign-in failed at the provider');
  });

  app.get(
    '/api/login',
    {
      schema: {
        summary: 'Sign in with the OpenID Connect provider (redirects there; a signed-in browser goes to /auth)',
        response: { 302: redirectAnswer('the provider'), ...errorAnswers(429, 502) },
      },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      if (request.user) return reply.redirect('/auth');
      const { url, flow } = await provider.start(redirectUri(request, oidc.publicUrl));
      reply.setCookie(FLOW_COOKIE, writeFlow(flow), {
        path: CALLBACK_PATH,
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level navigation from another site, which Lax lets through.
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: FLOW_MINUTES * 60,
      });
      return reply.redirect(url.href);
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      schema: {
        summary: 'Where the OpenID Connect provider sends the browser back (signs in, then to /auth)',
        response: { 302: redirectAnswer('/auth'), ...errorAnswers(400, 403, 502) },
      },
    },
    async (request, reply) => {
      const flow = readFlow(request.cookies[FLOW_COOKIE]);
      // Used or not, the flow is over: a second visit to this URL must start again.
      reply.clearCookie(FLOW_COOKIE, { path: CALLBACK_PATH });
      if (!flow) throw new Invalid('The sign-in has expired or was started in another browser; sign in again at /api/login');
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      const account = await provider.finish(flow, query);
      const signedIn = await sessions.signInWithProvider(account, request.headers['user-agent']);
      setSignInCookies(request, reply, signedIn, ttlHours);
      return reply.redirect('/auth');
    },
  );
};
