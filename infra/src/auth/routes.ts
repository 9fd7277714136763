import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from './plugin';
import { SESSION_COOKIE, type SessionStore } from './session-store';

/**
 * GET /api/login signs a browser in without registration (no identity provider configured);
 * a browser with a valid session keeps it. GET /api/logout ends it. GET /api/auth/user answers who.
 */
export const authRoutes: FastifyPluginAsync<{ sessions: SessionStore; ttlHours: number }> = async (
  app,
  { sessions, ttlHours },
) => {
  app.get('/api/login', { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    if (!request.user) {
      const { token } = await sessions.signInGuest(request.headers['user-agent']);
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: Math.round(ttlHours * 3600),
      });
    }
    return reply.redirect('/auth');
  });

  app.get('/api/logout', async (request, reply) => {
    await sessions.revoke(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/');
  });

  app.get('/api/auth/user', async (request) => {
    const user = requireUser(request);
    return { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, userType: user.userType };
  });
};
