import type { FastifyRequest } from 'fastify';
import { requireWriter, sessionViewer } from '@pf/infra';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call a command route, declared with the route (docs/decisions/firms-and-visibility.md, "Roles, on the
     * server"). A write is a writer's (an operator or an admin) unless its route says 'anyone-signed-in': a person's
     * own account and notifications, joining a firm, reading a document. A route that declares nothing is a
     * writer's. An admin's route (members, the firm's name, API tokens) is open here and refuses in its handler.
     */
    readonly roles?: 'writers' | 'anyone-signed-in';
    /** What a writer's route tells a refused auditor they cannot do, where "create, change, take over or send" is too vague. */
    readonly refusedAs?: string;
  }
}

/**
 * A preValidation hook for the commands: a write whose route does not open it to every role needs an operator or
 * an admin; an auditor is answered 403 naming the role, before the body is read. Reads are never refused here.
 */
export async function writersOnly(request: FastifyRequest): Promise<void> {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const { roles = 'writers', refusedAs } = request.routeOptions.config;
  if (roles === 'anyone-signed-in') return;
  requireWriter(sessionViewer(request), refusedAs);
}
