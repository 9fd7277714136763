import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { Unauthenticated } from '../errors';
import { SESSION_COOKIE, type SessionStore, type SessionUser } from './session-store';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

/** Resolves the signed-in user of every /api request from the session cookie. */
export const sessionPlugin = fp<{ sessions: SessionStore }>(
  async (app, { sessions }) => {
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/')) return;
      request.user = await sessions.findUser(request.cookies[SESSION_COOKIE]);
    });
  },
  { name: 'sessions', dependencies: ['@fastify/cookie'] },
);

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Unauthenticated();
  return request.user;
}

/**
 * A preValidation hook for routes that need a session: answers 401 before the request's schema is checked,
 * so a signed-out client is told to sign in rather than what its body lacks.
 */
export async function signedInBeforeValidation(request: FastifyRequest): Promise<void> {
  requireUser(request);
}
