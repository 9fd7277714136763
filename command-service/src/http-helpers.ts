import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatPosition, parseId, type EventMetadata, type Position } from '@pf/events';
import { Invalid, requireUser, type SessionUser } from '@pf/infra';

export function userMetadata(user: SessionUser, request: FastifyRequest): EventMetadata {
  return {
    actor: { kind: 'user', userId: user.id },
    correlationId: (request.headers['x-correlation-id'] as string | undefined)?.slice(0, 100) ?? randomUUID(),
    causationId: null,
  };
}

export function signedIn(request: FastifyRequest): { user: SessionUser; metadata: EventMetadata } {
  const user = requireUser(request);
  return { user, metadata: userMetadata(user, request) };
}

/** Route ids are positive whole numbers; anything else names the problem. */
export function routeId(raw: string, what: 'Agent' | 'Conversation'): number {
  const id = parseId(raw);
  if (id === null) throw new Invalid(`${what} id must be a positive whole number, not "${raw.slice(0, 40)}"`);
  return id;
}

/** Every command answer carries the position of its last event, for read-your-writes (x-after-position). */
export function withPosition(reply: FastifyReply, position: Position | null): FastifyReply {
  if (position) reply.header('x-position', formatPosition(position));
  return reply;
}
