import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_TTL_DAYS, SESSION_COOKIE, type SignedIn } from '@pf/infra';

/** Sets the session cookie and the long-lived device cookie (both HttpOnly, SameSite=Lax, Secure under https). */
export function setSignInCookies(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn, ttlHours: number): void {
  const common = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
  reply.setCookie(SESSION_COOKIE, signedIn.token, { ...common, maxAge: Math.round(ttlHours * 3600) });
  reply.setCookie(DEVICE_COOKIE, signedIn.deviceToken, { ...common, maxAge: DEVICE_TTL_DAYS * 24 * 3600 });
}
