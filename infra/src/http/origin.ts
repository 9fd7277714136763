import type { FastifyReply, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** An Origin is allowed when it is the server's own (scheme, host and port) or on the configured list. */
export function isAllowedOrigin(origin: string, host: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * Writes from another site are refused even though SameSite=Lax already withholds the cookie:
 * defence in depth against CSRF (DESIGN.md "Security"). Requests without an Origin are not from
 * a browser page and carry no ambient credentials of one.
 */
export function originGuard(allowed: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (!origin) return;
    if (!isAllowedOrigin(origin, request.headers.host, allowed)) {
      await reply.status(403).send({ message: `Requests from origin ${origin} are not allowed` });
    }
  };
}
