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
