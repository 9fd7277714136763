import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatPosition, versionETag, versionFromETag, type EventMetadata, type Position } from '@pf/events';
import { requestTraceparent, requireUser, type SessionUser } from '@pf/infra';
import type { CommandOptions } from './handle-command';

function userMetadata(user: SessionUser, request: FastifyRequest): EventMetadata {
  const traceparent = requestTraceparent(request);
  return {
    ...(traceparent ? { traceparent } : {}),
    // The session's own id (Settings → Security lists sessions by it, takeovers name it): who acted, in which session.
    actor: withSession({ kind: 'user', userId: user.id }, user.sessionId),
    correlationId: (request.headers['x-correlation-id'] as string | undefined)?.slice(0, 100) ?? randomUUID(),
    causationId: null,
  };
}

function withSession(actor: { kind: 'user'; userId: string }, sessionId: string | undefined) {
  return sessionId ? { ...actor, sessionId } : actor;
}

export function signedIn(request: FastifyRequest): { user: SessionUser; metadata: EventMetadata } {
  const user = requireUser(request);
  return { user, metadata: userMetadata(user, request) };
}

/** Every command answer carries the position of its last event, for read-your-writes (x-after-position). */
export function withPosition(reply: FastifyReply, position: Position | null): FastifyReply {
  if (position) reply.header('x-position', formatPosition(position));
  return reply;
}

/** A command answer about one aggregate: x-position for read-your-writes, ETag with its version. */
export function answered(reply: FastifyReply, handled: { position: Position | null; version: number | null }): FastifyReply {
  if (handled.version !== null) reply.header('etag', versionETag(handled.version));
  return withPosition(reply, handled.position);
}

/** The version an If-Match header names (validated by the route's writeHeaders), if the client sent one. */
export function expectedVersion(headers: { 'if-match'?: string | undefined }): Pick<CommandOptions, 'expectedVersion'> {
  const tag = headers['if-match'];
  return tag === undefined ? {} : { expectedVersion: { version: versionFromETag(tag), from: 'client' } };
}
